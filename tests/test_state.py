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


def _trigger(seen: str, *ids: str, **words: list[str]) -> dict:
    return {"sessions": {i: 1 for i in ids}, "seen": seen, **words}


def test_triggers_round_trip(tmp_path: Path) -> None:
    s = state.State(
        triggers={"k1": _trigger("2026-11-30T12:00:00.000Z", "a", "b", programs=["h1"], words=[])}
    )
    state.save(tmp_path, s)
    assert state.load(tmp_path) == s


def test_triggers_merge_sessions_and_intersect_shared_words() -> None:
    saved = {"k": _trigger("2026-11-01T00:00:00.000Z", "a", programs=["p1", "p2"], words=["w"])}
    met = {"k": _trigger("2026-11-02T00:00:00.000Z", "b", "a", programs=["p2"], words=["w", "x"])}
    merged = state.merge_triggers(saved, met)
    assert merged == {
        "k": {
            "sessions": {"b": 1, "a": 1},
            "seen": "2026-11-02T00:00:00.000Z",
            "programs": ["p2"],
            "words": ["w"],
        }
    }
    assert saved["k"]["sessions"] == {"a": 1}  # the saved state is not changed in place


def test_triggers_are_bounded_and_pruned_by_age(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "MAX_TRIGGERS", 2)
    monkeypatch.setattr(state, "MAX_TRIGGER_SESSIONS", 3)
    saved = {
        "old": _trigger("2026-06-01T00:00:00.000Z", "a"),  # no run met it for 90+ days
        "k1": _trigger("2026-11-01T00:00:00.000Z", "a"),
        "k2": _trigger("2026-11-02T00:00:00.000Z", "a"),
    }
    met = {"k3": _trigger("2026-11-03T00:00:00.000Z", *"bcdef")}
    merged = state.merge_triggers(saved, met)
    assert sorted(merged) == ["k2", "k3"]  # the most recent two
    assert list(merged["k3"]["sessions"]) == ["d", "e", "f"]  # the latest met


@pytest.mark.parametrize(
    "triggers",
    [
        b'"x"',
        b'{"k": {"seen": "2026-11-01T00:00:00.000Z"}}',
        b'{"k": {"sessions": {}, "seen": 5}}',
        b'{"k": {"sessions": {}, "seen": "2026-11-01T00:00:00.000Z", "words": "w"}}',
    ],
)
def test_corrupt_triggers_are_an_error(tmp_path: Path, triggers: bytes) -> None:
    path = tmp_path / "hindsight" / "state.json"
    path.parent.mkdir()
    path.write_bytes(b'{"triggers": ' + triggers + b"}")
    with pytest.raises(HindsightError, match=r"state\.json is corrupt"):
        state.load(tmp_path)
