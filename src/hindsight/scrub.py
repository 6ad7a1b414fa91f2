"""Redact what earlier versions already wrote: the MEMORY.md block, the archive, the reports,
state.json and the hook log, in place.

Each file is rewritten atomically under hindsight's lock, and only if redaction changed it;
everything else stays byte for byte (in MEMORY.md, all that is outside hindsight's block). Files
are read without following links (``confined``) and written only if nobody changed them since
they were read (Claude Code writes MEMORY.md without the lock; the hook appends to its log).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from hindsight import confined, fsutil, layout, memory, txn
from hindsight.record import Record
from hindsight.redact import redact, redact_json

_TAG = re.compile(r"\[REDACTED:([A-Za-z0-9_]+)\]")


class Scrubbed(Record):
    """One file that held secrets: how many were redacted, by kind."""

    _fields = ("path", "kinds")
    path: Path
    kinds: dict[str, int]

    def __init__(self, path: Path, kinds: dict[str, int]) -> None:
        self.path = path
        self.kinds = kinds

    @property
    def count(self) -> int:
        return sum(self.kinds.values())


def targets(memory_dir: Path) -> list[Path]:
    """The files hindsight writes, in a fixed order."""
    found = [layout.memory(memory_dir), layout.archive(memory_dir)]
    reports = layout.reports(memory_dir)
    if reports.is_dir() and not reports.is_symlink():
        found += sorted(p for p in reports.iterdir() if p.suffix == ".md")
    return [*found, layout.state(memory_dir), layout.hook_log(memory_dir)]


def _redacted(path: Path, data: bytes) -> bytes:
    text = memory.decode(data)
    if path.name == layout.MEMORY_FILE:
        doc = memory.parse(text, path)  # a malformed block is an error: nothing is written
        if doc.span is None:
            return data
        start, end = doc.span
        return memory.encode(text[:start] + redact(text[start:end]) + text[end:])
    if path.name == "state.json":
        import orjson

        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError:
            return memory.encode(redact(text))
        clean = redact_json(doc)
        return data if clean == doc else orjson.dumps(clean, option=orjson.OPT_INDENT_2) + b"\n"
    return memory.encode(redact(text))


def _kinds(before: bytes, after: bytes) -> dict[str, int]:
    new = Counter(_TAG.findall(memory.decode(after)))
    new.subtract(Counter(_TAG.findall(memory.decode(before))))
    return {kind: n for kind, n in sorted(new.items()) if n > 0}


def scrub(memory_dir: Path, dry_run: bool = False) -> list[Scrubbed]:
    """Redact every file hindsight writes; return those that changed (or would, with dry_run)."""
    out: list[Scrubbed] = []
    if dry_run or not memory_dir.is_dir():
        return [s for s in (_one(memory_dir, p, True) for p in targets(memory_dir)) if s]
    with fsutil.locked(layout.lock(memory_dir)):
        txn.recover(memory_dir)  # a run cut short finishes first: its journal holds its text
        for path in targets(memory_dir):
            done = _one(memory_dir, path, False)
            if done is not None:
                out.append(done)
    return out


def _one(memory_dir: Path, path: Path, dry_run: bool) -> Scrubbed | None:
    from hindsight.errors import HindsightError

    before = confined.read_bytes(memory_dir, path)
    if not before:
        return None
    after = _redacted(path, before)
    if after == before:
        return None
    if not dry_run:
        unchanged = fsutil.atomic_write(
            path,
            after,
            precondition=lambda: confined.read_bytes(memory_dir, path) == before,
            root=memory_dir,
        )
        if not unchanged:
            raise HindsightError(f"{path} changed while hindsight scrubbed it; run scrub again")
    return Scrubbed(path, _kinds(before, after) or {"unknown": 1})
