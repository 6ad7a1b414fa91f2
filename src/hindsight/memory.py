"""The MEMORY.md block and its archive: the part of hindsight that must never lose a user's words.

hindsight owns only the bytes from ``<!-- hindsight:start -->`` to ``<!-- hindsight:end -->``;
everything around them is copied through untouched (decoded with surrogateescape so even
invalid UTF-8 round-trips byte for byte).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import NamedTuple

from hindsight import clock, fmt, fsutil, layout
from hindsight.errors import HindsightError
from hindsight.record import Record, Value

START = "<!-- hindsight:start -->"
END = "<!-- hindsight:end -->"
KINDS = ("trap", "fix", "slow", "search", "preference", "decision", "reference", "unfinished")
DEFAULT_KIND = "trap"
DEFAULT_MAX_BYTES = 6144
MAX_LINES = 60
# What Claude Code loads of MEMORY.md at a session's start: the block never pushes the person's
# notes past it.
LOADED_LINES = 200
LOADED_BYTES = 25 * 1024
MEMORY_FILE = layout.MEMORY_FILE
ARCHIVE_FILE = layout.ARCHIVE_FILE
_MERGE_ATTEMPTS = 64

ENTRY_RE = re.compile(
    r"^- \*\*(?P<title>.+?)\*\* \((?P<date>\d{4}-\d{2}-\d{2})\) (?P<body>.*) \[(?P<kind>[a-z]+)\]$"
)
_DATE_RE = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?z?)?|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
)
_SPACE_RE = re.compile(r"\s+")


class MalformedBlock(HindsightError):
    """The markers are missing, doubled or out of order: nothing may be written."""


@functools.lru_cache(maxsize=8192)
def normalize_title(title: str) -> str:
    """The dedup key: casefolded, dates, markdown and punctuation removed, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", title).casefold()
    text = _DATE_RE.sub(" ", text)
    text = "".join(
        " " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] not in "PS"
    )
    return " ".join(text.split())


def one_line(text: str) -> str:
    """Fold to one line and defuse anything that could fake a marker or an entry boundary, and
    keep only what a reader sees (screen.visible)."""
    from hindsight.screen import visible  # entries are made rarely; the screen loads lazily

    text = visible(text)
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    text = text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    return _SPACE_RE.sub(" ", text).strip()


class Entry(Value):
    _fields = ("title", "body", "kind", "day")
    title: str
    body: str
    kind: str
    day: date

    def __init__(self, title: str, body: str, kind: str, day: date) -> None:
        self.title = title
        self.body = body
        self.kind = kind
        self.day = day

    def line(self) -> str:
        return f"- **{self.title}** ({self.day.isoformat()}) {self.body} [{self.kind}]"

    @staticmethod
    def make(title: str, body: str, kind: str, day: date) -> Entry:
        """Validate and clean user or judge input into an entry that renders as one line."""
        if kind not in KINDS:
            raise HindsightError(f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}")
        from hindsight.redact import redact

        clean_title = redact(one_line(title)).replace("**", "*").strip("* ")
        clean_body = redact(one_line(body))

        if not normalize_title(clean_title):
            raise HindsightError("the title needs at least one letter or digit")
        if not clean_body:
            raise HindsightError("the body is empty")
        return Entry(clean_title, clean_body, kind, day)


def key_of_line(line: str) -> str:
    """Dedup key of a block or archive line, parsed or hand-written."""
    match = ENTRY_RE.match(line)
    return normalize_title(match["title"] if match else line.lstrip("-* "))


class Document(Record):
    """MEMORY.md split into the untouched outside and the entry lines of our block."""

    _fields = ("path", "text", "newline", "span", "lines")
    path: Path
    text: str
    newline: str
    span: tuple[int, int] | None
    lines: list[str]

    def __init__(
        self, path: Path, text: str, newline: str, span: tuple[int, int] | None, lines: list[str]
    ) -> None:
        self.path = path
        self.text = text
        self.newline = newline
        self.span = span
        self.lines = lines

    def render(self, lines: Sequence[str]) -> str:
        block = render_block(lines, self.newline)
        if self.span is None:
            bom = "\ufeff" if self.text.startswith("\ufeff") else ""
            return bom + block + self.newline + self.text[len(bom) :]
        start, end = self.span
        return self.text[:start] + block + self.text[end:]


def render_block(lines: Sequence[str], newline: str = "\n") -> str:
    return START + newline + "".join(line + newline for line in lines) + END


def block_size(lines: Sequence[str], newline: str = "\n") -> int:
    """Bytes of the block, markers included (the cap's measure)."""
    return len(render_block(lines, newline).encode("utf-8", "surrogateescape"))


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _line_no(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def parse(text: str, path: Path) -> Document:
    """Split MEMORY.md; a malformed block raises with what is wrong and on which line."""
    newline = "\r\n" if "\r\n" in text and text.count("\r\n") * 2 >= text.count("\n") else "\n"
    starts = [m.start() for m in re.finditer(re.escape(START), text)]
    ends = [m.start() for m in re.finditer(re.escape(END), text)]
    if len(starts) > 1:
        lines = ", ".join(str(_line_no(text, i)) for i in starts)
        raise MalformedBlock(
            f"{path}: malformed hindsight block: start marker appears {len(starts)} times (lines {lines})"
        )
    if len(ends) > 1:
        lines = ", ".join(str(_line_no(text, i)) for i in ends)
        raise MalformedBlock(
            f"{path}: malformed hindsight block: end marker appears {len(ends)} times (lines {lines})"
        )
    if starts and not ends:
        raise MalformedBlock(
            f"{path}: malformed hindsight block: start marker on line {_line_no(text, starts[0])} has no end marker"
        )
    if ends and not starts:
        raise MalformedBlock(
            f"{path}: malformed hindsight block: end marker on line {_line_no(text, ends[0])} has no start marker"
        )
    if not starts:
        return Document(path, text, newline, None, [])
    start, end = starts[0], ends[0]
    if end < start:
        raise MalformedBlock(
            f"{path}: malformed hindsight block: end marker (line {_line_no(text, end)}) comes before "
            f"start marker (line {_line_no(text, start)})"
        )
    inner = text[start + len(START) : end]
    entry_lines = [line.strip() for line in inner.splitlines() if line.strip()]
    return Document(path, text, newline, (start, end + len(END)), entry_lines)


def fit(
    lines: list[str],
    max_bytes: int,
    newline: str = "\n",
    rank: Callable[[str], int | None] | None = None,
    max_lines: int = MAX_LINES,
) -> tuple[list[str], list[str]]:
    """Prune to the cap; returns (kept, pruned newest-first).

    Without ``rank`` the longest top part that fits stays. With it, lines leave by rank (lowest
    first: stale, then hindsight's own, then the person's), the oldest (lowest) first within a
    rank; a line ranked None never leaves, so what is kept may still be over the cap. One pass
    over the lines' sizes: a hand-written block of 16,000 lines is pruned at once.
    """
    step = len(newline)
    sizes = [len(line.encode("utf-8", "surrogateescape")) + step for line in lines]
    room_lines = max(0, max_lines - 2)
    if rank is None:
        total = block_size([], newline)
        keep = 0
        for size in sizes[:room_lines]:
            total += size
            if total > max_bytes:
                break
            keep += 1
        return lines[:keep], lines[keep:]
    total = block_size([], newline) + sum(sizes)
    count = len(lines)
    ranks = [rank(line) for line in lines]
    order = sorted(
        (i for i, r in enumerate(ranks) if r is not None),
        key=lambda i: (ranks[i], -i),
    )
    gone: set[int] = set()
    for i in order:
        if total <= max_bytes and count <= room_lines:
            break
        gone.add(i)
        total -= sizes[i]
        count -= 1
    kept = [line for i, line in enumerate(lines) if i not in gone]
    return kept, [line for i, line in enumerate(lines) if i in gone]


class Order(NamedTuple):
    """What the ledger says of the block for one write (keeping.py): the order lines leave in
    and the archived titles the person brings back."""

    rank: Callable[[str], int | None]  # of a line already in the block
    new_rank: int | None  # of a line this write adds (None: it stays whatever leaves)
    revive: frozenset[str] = frozenset()  # keys the archive holds that may enter again
    # The person's own write that does not fit archives what it pushed out, its own lines too;
    # a run's lesson that found no room was never in memory: the report has it.
    archive_new: bool = False


def archive_section(pruned: Sequence[str], day: date) -> bytes:
    """Pruned entries as appended to the archive: verbatim, but redacted (a hand-written or older
    entry may hold a secret; hindsight's own are redacted already, so they stay as they were)."""
    from hindsight.redact import redact

    body = "".join(redact(line) + "\n" for line in pruned)
    return encode(f"\n## Archived {day.isoformat()}\n\n{body}")


class AddResult(Record):
    _fields = ("added", "duplicates", "too_big", "pruned", "no_room", "note")
    added: list[Entry]
    duplicates: list[Entry]
    too_big: list[Entry]
    pruned: list[str]
    no_room: list[Entry]  # would have entered, but the person's entries fill the cap
    note: str  # why nothing could enter (the file is past what its agent loads), or ''

    def __init__(
        self,
        added: list[Entry] | None = None,
        duplicates: list[Entry] | None = None,
        too_big: list[Entry] | None = None,
        pruned: list[str] | None = None,
        no_room: list[Entry] | None = None,
        note: str = "",
    ) -> None:
        self.added = [] if added is None else added
        self.duplicates = [] if duplicates is None else duplicates
        self.too_big = [] if too_big is None else too_big
        self.pruned = [] if pruned is None else pruned
        self.no_room = [] if no_room is None else no_room
        self.note = note


class MemoryStore:
    """MEMORY.md, MEMORY.archive.md and the lock that serializes hindsight's writers."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = layout.memory(folder)
        self.archive_path = layout.archive(folder)
        self.lock_path = layout.lock(folder)
        # Claude Code's MEMORY.md is loaded only so far; other targets set their own limit.
        self.loads: tuple[int, int] | None = (LOADED_LINES, LOADED_BYTES)

    def read(self) -> Document:
        data = fsutil.read_bytes(self.path)
        return parse(decode(data or b""), self.path)

    def archive_keys(self) -> set[str]:
        data = fsutil.read_bytes(self.archive_path)
        if not data:
            return set()
        return {key_of_line(line) for line in decode(data).splitlines() if line.startswith("- ")}

    def add(
        self,
        entries: Iterable[Entry],
        max_bytes: int = DEFAULT_MAX_BYTES,
        day: date | None = None,
        origin: str = "user",
    ) -> AddResult:
        """Put new entries on top (first given ends up first), refuse duplicates, prune to the cap.

        ``origin``: who asks (ledger.py); the person's own add brings an archived title back and
        may prune the person's older entries, never the other way round."""
        wanted = list(entries)
        return self._change(wanted, max_bytes, day or clock.today(), origin)

    def preview(self, entries: Iterable[Entry], max_bytes: int = DEFAULT_MAX_BYTES) -> AddResult:
        """What ``add`` would do, writing nothing (for --dry-run)."""
        return self.plan(list(entries), max_bytes)

    def prune(self, max_bytes: int = DEFAULT_MAX_BYTES, day: date | None = None) -> AddResult:
        return self._change([], max_bytes, day or clock.today(), "user")

    def room(self, doc: Document, max_bytes: int) -> tuple[int, int]:
        """The block's cap in bytes and lines: ``max_bytes`` and MAX_LINES, less what the rest of
        the file takes of what its agent loads (the person's notes stay in view)."""
        if self.loads is None:
            return max_bytes, MAX_LINES
        limit_lines, limit_bytes = self.loads
        outside = doc.text
        if doc.span is not None:
            outside = doc.text[: doc.span[0]] + doc.text[doc.span[1] :]
        size = len(encode(outside))
        lines = outside.count("\n")
        return min(max_bytes, limit_bytes - size), min(MAX_LINES, limit_lines - lines)

    def plan(self, wanted: list[Entry], max_bytes: int, order: Order | None = None) -> AddResult:
        """What adding ``wanted`` does to the block as it is now: added, refused, pruned."""
        minimum = block_size([])
        if max_bytes < minimum:
            raise HindsightError(
                f"--max-bytes {max_bytes} is below the size of an empty block ({minimum} bytes)"
            )
        doc = self.read()
        cap, max_lines = self.room(doc, max_bytes)
        if cap < minimum or max_lines < 3:
            result = AddResult(no_room=list(wanted))
            if wanted:
                limit_lines, limit_bytes = self.loads or (0, 0)
                result.note = (
                    f"{self.path} holds, outside hindsight's block, about as much as Claude Code "
                    f"loads ({limit_lines} lines / {limit_bytes // 1024} KB): nothing added, so "
                    "your notes stay in view"
                )
            return result
        result = self._plan(doc, wanted, cap, order)
        lines = [e.line() for e in result.added] + doc.lines
        if order is None:
            _, result.pruned = fit(lines, cap, doc.newline, max_lines=max_lines)
            return result
        new = {e.line() for e in result.added}

        def rank(line: str) -> int | None:
            return order.new_rank if line in new else order.rank(line)

        _, gone = fit(lines, cap, doc.newline, rank, max_lines)
        if order.archive_new:
            result.pruned = gone
            return result
        out = set(gone)
        result.no_room = [e for e in result.added if e.line() in out]
        result.added = [e for e in result.added if e.line() not in out]
        result.pruned = [line for line in gone if line not in new]
        return result

    def _change(self, wanted: list[Entry], max_bytes: int, day: date, origin: str) -> AddResult:
        from hindsight import keeping, txn

        self.read()  # a malformed block fails here, before the lock creates anything
        with fsutil.locked(self.lock_path):
            txn.recover(self.folder)
            book = keeping.settle(self, day)
            result = self.plan(wanted, max_bytes, book.order(origin, wanted))
            if result.note:
                raise HindsightError(result.note)
            ops = book.changed(result, origin, day)
            if result.added or result.pruned or ops:
                txn.run(self.folder, txn.Intent.for_memory(self, result, day, ledger=ops))
            return result

    def swap_lines(self, add: Sequence[str], prune: Sequence[str]) -> None:
        """Put ``add`` on top and take ``prune`` out of the block as it is now.

        Idempotent, so a replay after a crash finishes the job without doing it twice, and run
        against whatever MEMORY.md holds at that moment: Claude Code's auto memory writes it
        without our lock, so every attempt is a compare-and-swap, merged again on a change.
        """
        gone = set(prune)

        def swapped(raw: bytes | None) -> bytes | None:
            # ``raw`` with ``add`` on top and ``prune`` out; None when it holds the change.
            doc = parse(decode(raw or b""), self.path)
            present = {key_of_line(line) for line in doc.lines}
            fresh = [line for line in add if key_of_line(line) not in present]
            lines = [line for line in fresh + doc.lines if line not in gone]
            return None if lines == doc.lines else encode(doc.render(lines))

        for attempt in range(_MERGE_ATTEMPTS):
            if attempt:
                # A writer busy with a burst of edits: let it finish rather than race it.
                import random
                import time

                time.sleep(random.random() * min(0.05, 0.002 * attempt))
            before = fsutil.read_settled(self.path)
            new = swapped(before)
            if new is None:
                return
            # A write that lands during the swap is merged into ours there (redo: our change
            # put on the merge again), never lost.
            if fsutil.compare_and_swap(self.path, new, before, root=self.folder, redo=swapped):
                return
        raise HindsightError(f"{self.path} kept changing while hindsight wrote it; try again")

    def _plan(
        self, doc: Document, wanted: list[Entry], max_bytes: int, order: Order | None
    ) -> AddResult:
        result = AddResult()
        seen = {key_of_line(line) for line in doc.lines}
        archived = self.archive_keys() if wanted else set()
        if order is not None:
            archived -= order.revive
        seen |= archived
        for entry in wanted:
            key = normalize_title(entry.title)
            if key in seen:
                result.duplicates.append(entry)
            elif block_size([entry.line()], doc.newline) > max_bytes:
                result.too_big.append(entry)
            else:
                seen.add(key)
                result.added.append(entry)
        return result


def check(doc: Document, max_bytes: int = DEFAULT_MAX_BYTES) -> list[str]:
    """Problems with a well-formed block's contents, one readable line each: form, duplicates,
    the cap, and (high-signal patterns only) secrets and instruction-like text."""
    from hindsight.screen import check_entry

    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(doc.lines, 1):
        match = ENTRY_RE.match(line)
        label = f"entry {number}"
        if not match:
            problems.append(
                f"{label}: not in the form '- **title** (YYYY-MM-DD) body [kind]': {fmt.clip(line, 80)}"
            )
        else:
            label = f"entry {number} ({match['title']})"
            if match["kind"] not in KINDS:
                problems.append(f"{label}: unknown kind [{match['kind']}]")
            try:
                date.fromisoformat(match["date"])
            except ValueError:
                problems.append(f"{label}: invalid date {match['date']}")
        danger = check_entry(line)
        if danger:
            problems.append(f"{label}: {danger}")
        key = key_of_line(line)
        if key in seen:
            problems.append(f"{label}: duplicates entry {seen[key]}")
        seen.setdefault(key, number)
    if doc.span is not None:
        size = block_size(doc.lines, doc.newline)
        if size > max_bytes:
            problems.append(
                f"block is {size} bytes, over the cap of {max_bytes} (run 'hindsight memory prune')"
            )
        if len(doc.lines) + 2 > MAX_LINES:
            problems.append(f"block is {len(doc.lines) + 2} lines, over the cap of {MAX_LINES}")
    return problems
