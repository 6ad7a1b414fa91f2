from __future__ import annotations

from datetime import date
from pathlib import Path

from hindsight import report

DAY = date(2026, 11, 30)


def test_nothing_new_writes_nothing(tmp_path: Path) -> None:
    assert report.append(tmp_path, DAY, "  \n") is None
    assert not (tmp_path / "hindsight").exists()


def test_sections_append_and_earlier_bytes_never_change(tmp_path: Path) -> None:
    first = report.append(tmp_path, DAY, "## Run 1\n\n- found a thing\n")
    assert first == tmp_path / "hindsight" / "reports" / "2026-11-30.md"
    before = first.read_bytes()
    assert before == b"# hindsight report 2026-11-30\n\n## Run 1\n\n- found a thing\n"
    report.append(tmp_path, DAY, "## Run 2\n\n- another")
    after = first.read_bytes()
    assert after.startswith(before)
    assert after[len(before) :] == b"\n## Run 2\n\n- another\n"
    other = report.append(tmp_path, date(2026, 12, 1), "## Run 3\n")
    assert other is not None and other.name == "2026-12-01.md"
    assert first.read_bytes() == after


def test_section_counts_interrupts() -> None:
    from datetime import datetime, timezone

    from hindsight.detect import Finding
    from hindsight.lessons import Judgement
    from hindsight.memory import AddResult

    findings = [
        Finding("interrupts", f"k{n}", f"s{n}", [], None, 1, {"count": n + 1}) for n in range(2)
    ]
    section = report.render_section(
        Judgement("rules"),
        None,
        findings,
        AddResult(),
        set(),
        datetime(2026, 11, 30, tzinfo=timezone.utc),
    )
    assert "The user interrupted the agent 3 times in 2 sessions." in section
