from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from hindsight import state
from hindsight.errors import HindsightError


def test_missing_is_first_run(tmp_path: Path) -> None:
    assert state.load(tmp_path) == state.State()


def test_round_trip(tmp_path: Path) -> None:
    s = state.State(
        last_scan=datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc),
        scan_started=datetime(2026, 11, 30, 13, 0, 0, 123000, tzinfo=timezone.utc),
        reported={"k2", "k1"},
    )
    path = state.save(tmp_path, s)
    assert path == tmp_path / "hindsight" / "state.json"
    assert (path.stat().st_mode & 0o777) == 0o600
    assert '"last_scan": "2026-11-30T12:00:00.000Z"' in path.read_text()
    assert state.load(tmp_path) == s


@pytest.mark.parametrize(
    "content", [b"{not json", b"[]", b'{"last_scan": 5}', b'{"reported": "x"}', b'{"version": 99}']
)
def test_corrupt_is_an_error_never_a_reset(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "hindsight" / "state.json"
    path.parent.mkdir()
    path.write_bytes(content)
    with pytest.raises(HindsightError, match=r"state.json is corrupt .*--since"):
        state.load(tmp_path)
    assert path.read_bytes() == content
    assert state.load(tmp_path, tolerate_corrupt=True) == state.State(recovered=True)
