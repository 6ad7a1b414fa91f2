"""The review inbox: lessons that wait for the person, and what a review shows of each.

A lesson waits when its evidence is strong but an action it asks for opens a capability (new
code, a new host, a weaker check, destroying or publishing, credentials) or cannot be checked.
Only the person takes it in, on a terminal (``hindsight review``); everything here only reads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hindsight import ledger


def waiting(memory_dir: Path) -> list[ledger.Lesson]:
    """The inbox, newest first (the ledger's order)."""
    return [x for x in ledger.Ledger(memory_dir).all() if x.state == ledger.WAITING]


def nudge(n: int) -> str | None:
    """The line ``status`` and a run end with while lessons wait, else None."""
    if n <= 0:
        return None
    said = "1 lesson waits" if n == 1 else f"{n} lessons wait"
    return f"{said} for your review: hindsight review"


def as_json(record: ledger.Lesson) -> dict[str, Any]:
    return {
        "id": record.id,
        "title": record.title,
        "body": record.body,
        "kind": record.kind,
        "reason": record.reason,
        "evidence": list(record.evidence),
    }


def visible(text: str) -> str:
    """Text as a terminal may show it: a lesson's words come from sessions an attacker may have
    written, and an escape sequence or a right-to-left override could hide or reorder what the
    person is asked to accept. Every character that is not printable shows as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


_ITEM = re.compile(r"\d+\. ")
_BOLD = re.compile(r"\d+\. \*\*(?P<title>.+?)\*\* \(")
_EVIDENCE = "   Evidence: "


def references(memory_dir: Path, records: list[ledger.Lesson]) -> dict[str, str]:
    """key -> the session references ("claude-code `...jsonl:21`") the newest report cites for
    each lesson, where a report holds them. A report file that cannot be read (a link out of
    the memory folder, not a file) is passed over: the ledger's keys still stand."""
    from hindsight import confined, layout
    from hindsight.errors import HindsightError
    from hindsight.memory import normalize_title

    wanted = {x.key for x in records}
    found: dict[str, str] = {}
    folder = layout.reports(memory_dir)
    try:
        reports = sorted(folder.glob("*.md"), reverse=True) if folder.is_dir() else []
    except OSError:
        reports = []
    for path in reports:
        if wanted <= found.keys():
            break
        try:
            data = confined.read_bytes(memory_dir, path)
        except HindsightError:
            continue
        key = ""
        fenced = False  # in a "Report only" item: its title is the fence's first line
        lines = (data or b"").decode("utf-8", "replace").splitlines()
        for n, line in enumerate(lines):
            if _ITEM.match(line):
                bold = _BOLD.match(line)
                key = normalize_title(bold["title"]) if bold else ""
                fenced = bold is None
            elif fenced and line.startswith("   ```") and n + 1 < len(lines):
                key = normalize_title(lines[n + 1].strip())
                fenced = False
            elif line.startswith(_EVIDENCE) and key in wanted and key not in found:
                found[key] = line.removeprefix(_EVIDENCE).strip()
    return found
