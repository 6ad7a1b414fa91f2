"""What the ledger says of a memory block at the moment hindsight writes it.

Another writer shares MEMORY.md (the person, Claude Code's auto memory, its compaction), so each
write first settles what changed since the last one: an entry of hindsight's that vanished while
the rest of the block stayed was deleted on purpose (forgotten: never added back), an entry whose
words changed keeps the new words (recorded, never rewritten), a block gone whole, markers and
all, comes back with the entries it had (a rewrite lost it), and a line hindsight never wrote is
the person's. A memory folder older than the ledger migrates on its first write: the block's and
the archive's entries become lessons, nothing reported again.

Then the order entries leave in when the block is over its cap: stale first, then hindsight's
own oldest first; the person's entries go last and never make room for a run's new lessons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from hindsight import ledger
from hindsight.memory import ENTRY_RE, AddResult, Document, Entry, Order, key_of_line

if TYPE_CHECKING:
    from hindsight.detect import Finding
    from hindsight.lessons import Lesson
    from hindsight.memory import MemoryStore

NEW_RANK_OF_A_RUN = 2  # a run's new lessons leave before the person's entries, after its own


def parts(line: str) -> tuple[str, str, str]:
    """(title, body, kind) of a block or archive line, hand-written ones included."""
    match = ENTRY_RE.match(line)
    if match:
        return match["title"], match["body"], match["kind"]
    return line.lstrip("-* ").strip(), "", "trap"


class Book:
    """The ledger's records of one memory folder, and the ops that settle them with the block."""

    def __init__(
        self,
        records: dict[str, ledger.Lesson],
        ops: list[ledger.Op],
        restore: list[str],
        notes: list[str],
    ) -> None:
        self.records = records
        self.ops = ops  # what settling changes in the ledger
        self.restore = restore  # lines of a vanished block to put back
        self.notes = notes  # what settling did, for the person

    @classmethod
    def read(cls, store: MemoryStore, day: date) -> Book:
        """Settle the ledger with the block as it is now, writing nothing."""
        book = ledger.Ledger(store.folder)
        records = book.by_key()
        doc = store.read()
        archived = _archive_lines(store)
        at = day.isoformat()
        if not book.exists:
            return cls(records, _migration(doc, archived, at), [], [])
        return _settle(records, doc, archived, at, book.order())

    def order(self, origin: str, wanted: Iterable[Entry] = ()) -> Order:
        persons = origin in ledger.PERSONS
        records = self.records

        def rank(line: str) -> int | None:
            record = records.get(key_of_line(line))
            if record is not None and record.state == ledger.STALE:
                return 0
            if record is None or record.persons:
                return 2 if persons else None
            return 1

        from hindsight.memory import normalize_title

        revive = frozenset(normalize_title(e.title) for e in wanted) if persons else frozenset()
        if persons:
            return Order(rank, 3, revive, archive_new=True)
        return Order(rank, NEW_RANK_OF_A_RUN, revive)

    def changed(self, result: AddResult, origin: str, day: date) -> list[ledger.Op]:
        """The ledger's side of a write: what entered, what left for the archive."""
        at = day.isoformat()
        ops = [entered(e, origin, at) for e in result.added]
        ops += [archived(line, at) for line in result.pruned]
        return ops


def entered(entry: Entry, origin: str, at: str, **more: object) -> ledger.Op:
    from hindsight.memory import normalize_title

    line = entry.line()
    return ledger.op(
        normalize_title(entry.title),
        at,
        f"added by {origin}",
        state=ledger.MEMORY,
        kind=entry.kind,
        title=entry.title,
        body=entry.body,
        line=line,
        seen=line,
        origin=origin,
        reason="",
        **more,
    )


def archived(line: str, at: str) -> ledger.Op:
    return ledger.op(key_of_line(line), at, "pruned to the archive", state=ledger.ARCHIVED)


def _archive_lines(store: MemoryStore) -> list[str]:
    from hindsight import fsutil
    from hindsight.memory import decode

    data = fsutil.read_bytes(store.archive_path)
    return [x for x in decode(data or b"").splitlines() if x.startswith("- ")]


def _record(line: str, at: str, state: str, origin: str, note: str) -> ledger.Op:
    title, body, kind = parts(line)
    return ledger.op(
        key_of_line(line),
        at,
        note,
        state=state,
        kind=kind,
        title=title,
        body=body,
        line=line if origin != ledger.HAND else "",
        seen=line,
        origin=origin,
    )


def _migration(doc: Document, archived: Sequence[str], at: str) -> list[ledger.Op]:
    """A memory folder older than the ledger: its entries were hindsight's (a run's or a
    ``memory add``: nothing tells which), the archive's were pruned."""
    ops: dict[str, ledger.Op] = {}
    for line in archived:
        ops[key_of_line(line)] = _record(line, at, ledger.ARCHIVED, ledger.MIGRATED, "migrated")
    for line in doc.lines:
        ops[key_of_line(line)] = _record(line, at, ledger.MEMORY, ledger.MIGRATED, "migrated")
    return [ops[k] for k in ops if k]


def _settle(
    records: dict[str, ledger.Lesson],
    doc: Document,
    archived: Sequence[str],
    at: str,
    order: list[str],
) -> Book:
    ops: list[ledger.Op] = []
    notes: list[str] = []
    restore: list[str] = []
    present = {key_of_line(line): line for line in doc.lines}
    gone_whole = doc.span is None
    for key, line in present.items():
        record = records.get(key)
        if record is None:
            if key:
                ops.append(_record(line, at, ledger.MEMORY, ledger.HAND, "written by hand"))
        elif record.state not in ledger.IN_BLOCK:
            ops.append(ledger.op(key, at, "put back by hand", state=ledger.MEMORY, seen=line))
        elif line != record.seen:
            ops.append(ledger.op(key, at, "edited in MEMORY.md", seen=line))
            notes.append(f"kept your edit of '{record.title}'")
    missing = [
        r for k, r in records.items() if r.state in ledger.IN_BLOCK and k not in present and k
    ]
    if gone_whole and missing:
        # The block went with its markers: a rewrite (a compaction) lost it, nobody chose it.
        place = {key: n for n, key in enumerate(order)}
        missing.sort(key=lambda r: (place.get(r.key, len(place)), r.since))
        restore = [r.seen or r.line for r in missing]
        notes.append(f"restored the hindsight block of MEMORY.md ({len(restore)} entries)")
    else:
        for record in missing:
            ops.append(ledger.op(record.key, at, "deleted from MEMORY.md", state=ledger.FORGOTTEN))
            notes.append(f"'{record.title}' was deleted from MEMORY.md: forgotten")
    return Book(records, ops, [x for x in restore if x], notes)


def settle(store: MemoryStore, day: date) -> Book:
    """Settle the ledger and the block as one transaction of its own, then read again. The
    caller holds hindsight's lock."""
    from hindsight import txn

    book = Book.read(store, day)
    if book.ops or book.restore:
        txn.run(store.folder, txn.Intent(day, add=book.restore, ledger=book.ops))
        notes = book.notes
        book = Book.read(store, day)
        book.notes = notes
    return book


def refused(lessons: Sequence[Lesson], records: dict[str, ledger.Lesson]) -> dict[str, str]:
    """Memory lessons the ledger keeps out, title -> why: forgotten for good, removed by the
    person (back only on evidence the removed lesson did not have), or waiting for review."""
    from hindsight.memory import normalize_title

    out: dict[str, str] = {}
    for lesson in lessons:
        record = records.get(normalize_title(lesson.title)) if lesson.memory else None
        if record is None:
            continue
        if record.state == ledger.FORGOTTEN:
            out[lesson.title] = "forgotten: it never enters memory again"
        elif record.state == ledger.REMOVED and set(lesson.evidence) <= set(record.evidence):
            out[lesson.title] = "removed from memory by you; no new evidence since"
        elif record.state == ledger.WAITING:
            out[lesson.title] = "waits for your review: hindsight review"
    return out


def trigger(lesson: Lesson, findings: Sequence[Finding]) -> str:
    """The trigger signature of a lesson, as a key (never text: a failing command may hold a
    password its signature no longer shows the flag of): its first cited finding's failure
    signature keyed as state.json keys triggers (detect/triggers.py), else the finding's kind and
    the step it names."""
    from hindsight.detect import evidence_key, triggers

    by_key = {f.key: f for f in findings}
    for key in lesson.evidence:
        finding = by_key.get(key)
        if finding is None:
            continue
        data = finding.data
        signature = data.get("signature")
        if signature:
            return triggers.key(triggers.FAILURE, str(signature))
        named = data.get("command") or data.get("target") or data.get("path") or ""
        return evidence_key("lesson-trigger", finding.kind, str(named))
    return ""


def judged(
    lessons: Sequence[Lesson],
    result: AddResult,
    held: dict[str, str],
    origin: str,
    day: date,
    findings: Sequence[Finding],
    floor: Iterable[str] = (),
    records: dict[str, ledger.Lesson] | None = None,
) -> list[ledger.Op]:
    """The ledger's side of a run: every new lesson with its state (in memory, report only with
    why), what left for the archive."""
    from hindsight.memory import normalize_title

    at = day.isoformat()
    added = {normalize_title(e.title): e for e in result.added}
    no_room = {normalize_title(e.title) for e in result.no_room}
    floor = set(floor)
    ops: list[ledger.Op] = []
    for lesson in lessons:
        key = normalize_title(lesson.title)
        if not key:
            continue
        who = ledger.RULES if lesson.title in floor else origin
        more = {"evidence": list(lesson.evidence), "trigger": trigger(lesson, findings)}
        if key in added:
            ops.append(entered(added[key], who, at, **more))
            continue
        record = (records or {}).get(key)
        if record is not None and record.state != ledger.REPORT:
            # Found again: its state is the block's, the archive's or the person's choice.
            evidence = sorted({*record.evidence, *lesson.evidence})
            ops.append(ledger.op(key, at, "found again", evidence=evidence))
            continue
        if not lesson.memory:
            reason = "not strong enough for every session"
        elif key in no_room:
            reason = "no room: your own entries fill the block"
        else:
            reason = held.get(lesson.title, "already in memory or the archive")
        state = ledger.WAITING if reason.startswith("waits for your review") else ledger.REPORT
        if lesson.title in held and held[lesson.title].startswith(("forgotten", "removed")):
            continue  # the person's choice stands; the report still shows it
        ops.append(
            ledger.op(
                key,
                at,
                "reported",
                state=state,
                kind=lesson.kind,
                title=lesson.title,
                body=lesson.body,
                origin=who,
                reason=reason,
                **more,
            )
        )
    ops += [archived(line, at) for line in result.pruned]
    return ops


def take_in(
    store: MemoryStore,
    record: ledger.Lesson,
    origin: str,
    day: date,
    title: str | None = None,
    body: str | None = None,
    max_bytes: int | None = None,
) -> AddResult:
    """The person's choice of a lesson the ledger holds (``memory promote``, an accept in
    ``review``, optionally edited): into memory through the same transaction as a run, the
    archive's copy brought back, the person's entries pruned last. Holds the lock itself."""
    from hindsight import fsutil, txn
    from hindsight.errors import HindsightError
    from hindsight.memory import DEFAULT_MAX_BYTES, normalize_title

    if record.state in ledger.IN_BLOCK:
        raise HindsightError(f"'{record.title}' is in memory already")
    entry = Entry.make(title or record.title, body or record.body or record.title, record.kind, day)
    store.read()  # a malformed block fails before anything is written
    with fsutil.locked(store.lock_path):
        txn.recover(store.folder)
        book = settle(store, day)
        result = store.plan([entry], max_bytes or DEFAULT_MAX_BYTES, book.order(origin, [entry]))
        if result.note:
            raise HindsightError(result.note)
        if not result.added:
            why = (
                "it does not fit the cap alone"
                if result.too_big
                else "a lesson titled alike is in memory"
            )
            raise HindsightError(f"'{entry.title}' was not added: {why}")
        ops = book.changed(result, origin, day)
        if normalize_title(entry.title) != record.key:
            # Edited into another title: the old record is the same lesson, now in memory as this.
            ops.append(
                ledger.op(
                    record.key,
                    day.isoformat(),
                    f"{origin} as '{entry.title}'",
                    state=ledger.REMOVED,
                )
            )
        txn.run(store.folder, txn.Intent.for_memory(store, result, day, ledger=ops))
        return result


def move(store: MemoryStore, record: ledger.Lesson, state: str, note: str, day: date) -> None:
    """A lesson out of memory or out of the inbox (remove, forget, reject): its line leaves the
    block, the ledger records why, as one transaction. Holds the lock itself."""
    from hindsight import fsutil, txn

    store.read()
    with fsutil.locked(store.lock_path):
        txn.recover(store.folder)
        book = settle(store, day)
        doc = store.read()
        gone = [line for line in doc.lines if key_of_line(line) == record.key]
        op = ledger.op(record.key, day.isoformat(), note, state=state)
        txn.run(store.folder, txn.Intent(day, prune=gone, ledger=[*book.ops, op]))
