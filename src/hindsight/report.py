"""Dated, append-only reports: ``<memory dir>/hindsight/reports/<YYYY-MM-DD>.md``."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hindsight import fsutil


def reports_dir(memory_dir: Path) -> Path:
    return memory_dir / "hindsight" / "reports"


def report_path(memory_dir: Path, day: date) -> Path:
    return reports_dir(memory_dir) / f"{day.isoformat()}.md"


def append(memory_dir: Path, day: date, section: str) -> Path | None:
    """Append one run's section to the day's report; an empty section writes nothing at all.

    Earlier bytes of the file are copied unchanged: a report is never rewritten.
    """
    if not section.strip():
        return None
    path = report_path(memory_dir, day)
    text = section if section.endswith("\n") else section + "\n"
    with fsutil.locked(memory_dir / "hindsight" / ".lock"):
        existing = fsutil.read_bytes(path)
        header = b"" if existing else f"# hindsight report {day.isoformat()}\n".encode()
        fsutil.append_file(path, header + b"\n" + text.encode("utf-8"))
    return path
