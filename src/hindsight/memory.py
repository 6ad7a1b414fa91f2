"""The MEMORY.md block and its archive: the part of hindsight that must never lose a user's words.

hindsight owns only the bytes from ``<!-- hindsight:start -->`` to ``<!-- hindsight:end -->``;
everything around them is copied through untouched (decoded with surrogateescape so even
invalid UTF-8 round-trips byte for byte).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

from hindsight import clock, fmt, fsutil, layout
from hindsight.errors import HindsightError
from hindsight.record import Record, Value

START = "<!-- hindsight:start -->"
END = "<!-- hindsight:end -->"
KINDS = ("trap", "fix", "slow", "search", "preference", "decision", "reference", "unfinished")
DEFAULT_KIND = "trap"
DEFAULT_MAX_BYTES = 6144
MAX_LINES = 60
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


def fit(lines: list[str], max_bytes: int, newline: str = "\n") -> tuple[list[str], list[str]]:
    """Keep the longest top part that fits the cap; returns (kept, pruned newest-first).

    One pass over the lines' sizes: a hand-written block of 16,000 lines is pruned at once.
    """
    step = len(newline)
    total = block_size([], newline)
    keep = 0
    for line in lines[: max(0, MAX_LINES - 2)]:
        total += len(line.encode("utf-8", "surrogateescape")) + step
        if total > max_bytes:
            break
        keep += 1
    return lines[:keep], lines[keep:]


def archive_section(pruned: Sequence[str], day: date) -> bytes:
    """Pruned entries as appended to the archive: verbatim, but redacted (a hand-written or older
    entry may hold a secret; hindsight's own are redacted already, so they stay as they were)."""
    from hindsight.redact import redact

    body = "".join(redact(line) + "\n" for line in pruned)
    return encode(f"\n## Archived {day.isoformat()}\n\n{body}")


class AddResult(Record):
    _fields = ("added", "duplicates", "too_big", "pruned")
    added: list[Entry]
    duplicates: list[Entry]
    too_big: list[Entry]
    pruned: list[str]

    def __init__(
        self,
        added: list[Entry] | None = None,
        duplicates: list[Entry] | None = None,
        too_big: list[Entry] | None = None,
        pruned: list[str] | None = None,
    ) -> None:
        self.added = [] if added is None else added
        self.duplicates = [] if duplicates is None else duplicates
        self.too_big = [] if too_big is None else too_big
        self.pruned = [] if pruned is None else pruned


class MemoryStore:
    """MEMORY.md, MEMORY.archive.md and the lock that serializes hindsight's writers."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = layout.memory(folder)
        self.archive_path = layout.archive(folder)
        self.lock_path = layout.lock(folder)

    def read(self) -> Document:
        data = fsutil.read_bytes(self.path)
        return parse(decode(data or b""), self.path)

    def archive_keys(self) -> set[str]:
        data = fsutil.read_bytes(self.archive_path)
        if not data:
            return set()
        return {key_of_line(line) for line in decode(data).splitlines() if line.startswith("- ")}

    def add(
        self, entries: Iterable[Entry], max_bytes: int = DEFAULT_MAX_BYTES, day: date | None = None
    ) -> AddResult:
        """Put new entries on top (first given ends up first), refuse duplicates, prune to the cap."""
        wanted = list(entries)
        return self._change(wanted, max_bytes, day or clock.today())

    def preview(self, entries: Iterable[Entry], max_bytes: int = DEFAULT_MAX_BYTES) -> AddResult:
        """What ``add`` would do, writing nothing (for --dry-run)."""
        return self.plan(list(entries), max_bytes)

    def prune(self, max_bytes: int = DEFAULT_MAX_BYTES, day: date | None = None) -> AddResult:
        return self._change([], max_bytes, day or clock.today())

    def plan(self, wanted: list[Entry], max_bytes: int) -> AddResult:
        """What adding ``wanted`` does to the block as it is now: added, refused, pruned."""
        minimum = block_size([])
        if max_bytes < minimum:
            raise HindsightError(
                f"--max-bytes {max_bytes} is below the size of an empty block ({minimum} bytes)"
            )
        doc = self.read()
        result = self._plan(doc, wanted, max_bytes)
        if result.added:
            _, result.pruned = fit(
                [e.line() for e in result.added] + doc.lines, max_bytes, doc.newline
            )
        return result

    def _change(self, wanted: list[Entry], max_bytes: int, day: date) -> AddResult:
        from hindsight import txn

        self.read()  # a malformed block fails here, before the lock creates anything
        with fsutil.locked(self.lock_path):
            txn.recover(self.folder)
            result = self.plan(wanted, max_bytes)
            if result.added or result.pruned:
                txn.run(self.folder, txn.Intent.for_memory(self, result, day))
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

    def _plan(self, doc: Document, wanted: list[Entry], max_bytes: int) -> AddResult:
        result = AddResult()
        seen = {key_of_line(line) for line in doc.lines}
        if wanted:
            seen |= self.archive_keys()
        for entry in wanted:
            key = normalize_title(entry.title)
            if key in seen:
                result.duplicates.append(entry)
            elif block_size([entry.line()], doc.newline) > max_bytes:
                result.too_big.append(entry)
            else:
                seen.add(key)
                result.added.append(entry)
        if not result.added:
            _, result.pruned = fit(doc.lines, max_bytes, doc.newline)
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
