"""A run's writes as one transaction over report, archive, state and memory.

Before the first change the whole intent goes to ``hindsight/journal.json`` (atomically); then
the steps run in an order where each is safe to repeat: the report section and the archive
section are appended only if the file does not hold them yet, the state update is a union, and
the memory change (new lines on top, pruned lines out) is applied to whatever MEMORY.md holds.
A crash anywhere leaves either no journal (nothing changed) or a journal the next writer
completes first (``recover``): every line lands exactly once. MEMORY.md changes last, after
every other destination took its bytes, so an error exit leaves the user's file as it was.
"""

from __future__ import annotations

import contextlib
import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from hindsight import fsutil, layout
from hindsight.errors import HindsightError
from hindsight.record import Record

if TYPE_CHECKING:
    from hindsight.ledger import Op
    from hindsight.memory import AddResult, MemoryStore

JOURNAL_VERSION = 2
_READABLE = (1, 2)  # a journal of version 1 has no ledger ops


def _pack(text: str) -> str:
    # MEMORY.md lines may carry invalid UTF-8 (kept as surrogates); JSON cannot: latin-1 maps
    # each byte to one character and back.
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def _unpack(text: str) -> str:
    return text.encode("latin-1").decode("utf-8", "surrogateescape")


class Intent(Record):
    """Everything one transaction will write, enough to finish it from the journal alone."""

    _fields = ("day", "add", "prune", "archive", "report", "reported", "state", "ledger")
    day: date
    add: list[str]  # memory lines to put on top
    prune: list[str]  # memory lines that move to the archive
    archive: str  # the archive section holding ``prune``
    report: str  # the report section, header included when the day's file is new
    reported: list[str]  # evidence keys that join state.json
    state: dict[str, Any]  # other state fields set by this run (scan start, file progress)
    ledger: list[Op]  # the lessons' changes (ledger.py), each safe to apply twice

    def __init__(
        self,
        day: date,
        add: list[str] | None = None,
        prune: list[str] | None = None,
        archive: str = "",
        report: str = "",
        reported: list[str] | None = None,
        state: dict[str, Any] | None = None,
        ledger: list[Op] | None = None,
    ) -> None:
        self.day = day
        self.add = [] if add is None else add
        self.prune = [] if prune is None else prune
        self.archive = archive
        self.report = report
        self.reported = [] if reported is None else reported
        self.state = {} if state is None else state
        self.ledger = [] if ledger is None else ledger

    @classmethod
    def for_memory(cls, store: MemoryStore, result: AddResult, day: date, **more: Any) -> Intent:
        from hindsight.memory import archive_section, decode, key_of_line

        # A line already archived (an unlocked writer put back a copy it had read before our
        # prune) leaves the block without being archived twice.
        archived = store.archive_keys() if result.pruned else set()
        moving = [line for line in result.pruned if key_of_line(line) not in archived]
        archive = decode(archive_section(moving, day)) if moving else ""
        add = [e.line() for e in result.added]
        return cls(day, add, list(result.pruned), archive, **more)

    def to_json(self) -> bytes:
        doc = {
            "version": JOURNAL_VERSION,
            "day": self.day.isoformat(),
            "add": [_pack(x) for x in self.add],
            "prune": [_pack(x) for x in self.prune],
            "archive": _pack(self.archive),
            "report": self.report,
            "reported": self.reported,
            "state": self.state,
            "ledger": [x.to_json() for x in self.ledger],
        }
        return orjson.dumps(doc)

    @classmethod
    def from_json(cls, data: bytes, path: Path) -> Intent:
        from hindsight.ledger import Op

        try:
            doc = orjson.loads(data)
            if doc.get("version") not in _READABLE:
                raise ValueError(f"unknown version {doc.get('version')!r}")
            return cls(
                date.fromisoformat(doc["day"]),
                [_unpack(x) for x in doc["add"]],
                [_unpack(x) for x in doc["prune"]],
                _unpack(doc["archive"]),
                str(doc["report"]),
                [str(k) for k in doc["reported"]],
                dict(doc["state"]),
                [Op.from_json(x) for x in doc.get("ledger", [])],
            )
        except (orjson.JSONDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise HindsightError(
                f"{path} is corrupt ({exc}); it holds an unfinished run's writes: "
                "move it aside to drop them"
            ) from exc

    def targets(self, memory_dir: Path) -> list[tuple[Path, int]]:
        """Every file the transaction writes and about how many bytes it will hold."""

        def size(path: Path) -> int:
            try:
                return os.lstat(path).st_size
            except OSError:
                return 0

        memory, archive = layout.memory(memory_dir), layout.archive(memory_dir)
        state, journal = layout.state(memory_dir), layout.journal(memory_dir)
        out = [(journal, len(self.to_json()))]
        if self.report:
            report = layout.report(memory_dir, self.day)
            out.append((report, size(report) + len(self.report.encode("utf-8"))))
        if self.archive:
            out.append((archive, size(archive) + len(_pack(self.archive))))
        if self.reported or self.state:
            out.append((state, size(state) + 80 * len(self.reported) + 4096))
        if self.ledger:
            ledger = layout.ledger(memory_dir)
            out.append((ledger, size(ledger) + 2048 * len(self.ledger) + 65536))
        if self.add or self.prune:
            out.append((memory, size(memory) + sum(len(_pack(x)) + 2 for x in self.add)))
        return out


def run(memory_dir: Path, intent: Intent) -> None:
    """Write the journal, then every step, then drop the journal. The caller holds the lock."""
    fsutil.preflight(memory_dir, intent.targets(memory_dir))
    fsutil.atomic_write(layout.journal(memory_dir), intent.to_json(), root=memory_dir)
    _complete(memory_dir, intent)


def recover(memory_dir: Path) -> bool:
    """Finish the writes of a run that stopped half-way (a crash, a kill, a full disk).

    Called under the lock by every writer before its own work; True when there was one.
    """
    _sweep(memory_dir)
    path = layout.journal(memory_dir)
    data = fsutil.read_bytes(path)
    if data is None:
        return False
    _complete(memory_dir, Intent.from_json(data, path))
    return True


def _record_order(store: MemoryStore, intent: Intent) -> None:
    """The block's order as this write left it, for the ledger to put a vanished block back as it
    was (keeping.py). Safe to repeat: it is the order now."""
    from hindsight.ledger import ORDER, Ledger, Op
    from hindsight.memory import key_of_line

    book = Ledger(store.folder)
    if book.exists:
        keys = [key_of_line(line) for line in store.read().lines]
        book.apply([Op(ORDER, intent.day.isoformat(), {"keys": keys})])


def _sweep(memory_dir: Path) -> None:
    """Remove temp files a killed writer left (``.<name>.<random>.tmp``): whoever holds the lock
    is the only writer of these folders, so any such file now is an orphan."""
    for folder in (memory_dir, layout.own_dir(memory_dir), layout.reports(memory_dir)):
        try:
            with os.scandir(folder) as listing:
                orphans = [e.path for e in listing if _is_temp(e.name)]
        except OSError:
            continue
        for orphan in orphans:
            with contextlib.suppress(OSError):
                os.unlink(orphan)


def _is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp") and name.count(".") >= 3


def _complete(memory_dir: Path, intent: Intent) -> None:
    from hindsight import state
    from hindsight.memory import MemoryStore, encode

    if intent.report:
        report = layout.report(memory_dir, intent.day)
        fsutil.append_once(report, intent.report.encode("utf-8"), root=memory_dir)
    if intent.archive:
        # Before the lines leave MEMORY.md: a crash in between loses none of them.
        fsutil.append_once(layout.archive(memory_dir), encode(intent.archive), root=memory_dir)
    if intent.reported or intent.state:
        saved = state.load(memory_dir, tolerate_corrupt=True)
        saved.reported |= set(intent.reported)
        state.update(saved, intent.state)
        state.save(memory_dir, saved)
    if intent.ledger:
        from hindsight.ledger import Ledger

        fsutil.fault("ledger")
        Ledger(memory_dir).apply(intent.ledger)
    if intent.add or intent.prune:
        store = MemoryStore(memory_dir)
        store.swap_lines(intent.add, intent.prune)
        _record_order(store, intent)
    fsutil.fault("journal-done")
    # Every step is done; a journal left behind by a failing unlink only replays as no-ops.
    with contextlib.suppress(OSError):
        layout.journal(memory_dir).unlink()
