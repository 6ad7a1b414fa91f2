"""The scanner: exact line numbers, skims and skips across chunk boundaries."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.session import ReadStats
from hindsight.sources import lines

RULES = lines.SkipRules(
    leading=frozenset({b"progress-x"}), early=b'"type":"tick"', edge=b'"type":"att"'
)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiny chunks and limits make every boundary case happen in a few bytes.
    monkeypatch.setattr(lines, "CHUNK", 64)
    monkeypatch.setattr(lines, "BIG", 200)
    monkeypatch.setattr(lines, "HEAD", 50)
    monkeypatch.setattr(lines, "TAIL", 20)


def scan(tmp_path: Path, data: bytes) -> tuple[list[tuple[int, object, bool]], ReadStats]:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    stats = ReadStats()
    out = [
        (n, bytes(x) if isinstance(x, memoryview) else x, ended)
        for n, x, ended in lines.scan(path, stats, RULES)
    ]
    return out, stats


def test_numbers_skips_and_skims_across_chunks(tmp_path: Path) -> None:
    huge = b'{"type":"user","content":"' + b"x" * 500 + b'"}'
    medium = b'{"k":"' + b"y" * 100 + b'"}'  # longer than a chunk, shorter than BIG
    data = (
        b"\n".join(
            [
                b'{"a":1}',
                b'{"type":"progress-x","n":1}',
                b'{"e":1,"type":"tick"}',
                huge,
                b"",
                medium,
                b'{"z":"' + b"q" * 60 + b'","type":"att"}',
                b'{"last":true}',
            ]
        )
        + b"\n"
        + b'{"partial":'
    )
    out, stats = scan(tmp_path, data)
    assert [n for n, _, _ in out] == [1, 4, 6, 8, 9]
    assert out[0][1] == b'{"a":1}' and out[2][1] == medium and out[3][1] == b'{"last":true}'
    skim = out[1][1]
    assert isinstance(skim, lines.Skim)
    assert (skim.head, skim.tail, skim.size) == (huge[:50], huge[-20:], len(huge))
    assert out[4] == (9, b'{"partial":', False)
    assert stats.records == 3  # the three lines recognised by their bytes


def test_a_huge_last_line_without_newline_is_incomplete(tmp_path: Path) -> None:
    out, _ = scan(tmp_path, b'{"a":1}\n{"type":"user","c":"' + b"z" * 400)
    assert out[0][0] == 1
    skim = out[1][1]
    assert isinstance(skim, lines.Skim) and not skim.complete and out[1][2] is False
