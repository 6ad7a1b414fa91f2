"""The memory store's promises, checked end to end in a temporary folder."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import date
from pathlib import Path

from hindsight.errors import HindsightError
from hindsight.ledger import RULES
from hindsight.memory import ARCHIVE_FILE, AddResult, Entry, MalformedBlock, MemoryStore, block_size

_DAY = date(2026, 1, 2)
_CURATED = "# My notes\r\n\r\nKeep the CI green — ünïcode stays.\r\nno trailing newline"


def _entry(n: int, title: str | None = None) -> Entry:
    return Entry.make(
        title or f"Lesson number {n}",
        f"Body of lesson {n}, long enough to count. " * 2,
        "trap",
        _DAY,
    )


def _newest_first(folder: Path) -> str | None:
    store = MemoryStore(folder)
    store.add([_entry(1)], day=_DAY)
    store.add([_entry(2)], day=_DAY)
    titles = [line.split("**")[1] for line in store.read().lines]
    return None if titles == ["Lesson number 2", "Lesson number 1"] else f"order was {titles}"


def _prune_keeps_newest(folder: Path) -> str | None:
    store = MemoryStore(folder)
    cap = block_size([_entry(0).line()] * 3)
    for n in range(1, 6):
        store.add([_entry(n)], max_bytes=cap, day=_DAY)
    kept = [line.split("**")[1] for line in store.read().lines]
    archive = (folder / ARCHIVE_FILE).read_text(encoding="utf-8")
    if kept != ["Lesson number 5", "Lesson number 4", "Lesson number 3"]:
        return f"kept {kept}"
    if (
        "Lesson number 1" not in archive
        or "Lesson number 2" not in archive
        or "## Archived" not in archive
    ):
        return "oldest entries missing from the archive"
    return None


def _curated_untouched(folder: Path) -> str | None:
    store = MemoryStore(folder)
    original = _CURATED.encode("utf-8")
    store.path.write_bytes(original)
    store.add([_entry(1)], day=_DAY)
    store.add([_entry(2)], day=_DAY)
    data = store.path.read_bytes()
    return (
        None
        if data.endswith(original) and data.startswith(b"<!-- hindsight:start -->")
        else "notes changed"
    )


def _duplicates_refused(folder: Path) -> str | None:
    store = MemoryStore(folder)
    cap = block_size([_entry(1, "`make test` has no target").line()])

    def own(entry: Entry) -> AddResult:
        return store.add([entry], max_bytes=cap, day=_DAY, origin=RULES)

    own(_entry(1, "`make test` has no target"))
    own(_entry(2))  # pushes the first into the archive
    again = own(_entry(3, "Make test has NO target (2026-03-04)!"))
    in_block = own(_entry(4, "lesson   NUMBER 2"))
    if len(again.duplicates) != 1:
        return "a title matching an archived entry was added"
    if len(in_block.duplicates) != 1:
        return "a title matching a block entry was added"
    back = store.add([_entry(5, "make test has no target")], max_bytes=cap, day=_DAY)
    if len(back.added) != 1:
        return "the person's own add of an archived title was refused"
    return None


def _persons_last(folder: Path) -> str | None:
    store = MemoryStore(folder)
    cap = block_size([_entry(0).line()] * 3)
    store.add([_entry(1, "Mine")], max_bytes=cap, day=_DAY)
    for n in range(2, 7):
        store.add([_entry(n)], max_bytes=cap, day=_DAY, origin=RULES)
    kept = [line.split("**")[1] for line in store.read().lines]
    if "Mine" not in kept:
        return f"a run's lessons pushed the person's entry out (kept {kept})"
    if kept[0] != "Lesson number 6":
        return f"the newest lesson is not on top (kept {kept})"
    return None


def _malformed_refused(folder: Path) -> str | None:
    store = MemoryStore(folder)
    bad = b"notes\n<!-- hindsight:end -->\n<!-- hindsight:start -->\n"
    store.path.write_bytes(bad)
    try:
        store.add([_entry(1)], day=_DAY)
    except MalformedBlock:
        return None if store.path.read_bytes() == bad else "the file changed"
    return "a malformed block was written to"


CHECKS: list[tuple[str, Callable[[Path], str | None]]] = [
    ("entries are added newest first", _newest_first),
    ("pruning keeps the newest and archives the oldest", _prune_keeps_newest),
    ("curated notes outside the block stay byte for byte", _curated_untouched),
    (
        "normalized titles refuse duplicates, also against the archive (the person's add brings "
        "one back)",
        _duplicates_refused,
    ),
    ("hindsight's own entries leave before the person's", _persons_last),
    ("a malformed block is refused and left as it was", _malformed_refused),
]


def run_checks(emit: Callable[[str], None]) -> bool:
    ok = True
    for name, check in CHECKS:
        with tempfile.TemporaryDirectory(prefix="hindsight-selfcheck-") as tmp:
            try:
                problem = check(Path(tmp))
            except HindsightError as exc:
                problem = str(exc)
        ok = ok and problem is None
        emit(f"ok    {name}" if problem is None else f"FAIL  {name}: {problem}")
    return ok
