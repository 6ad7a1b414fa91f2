"""JSONL close to the disk: big chunks, newline scans, and no copy of the bytes nobody needs.

Most of a transcript's bytes are records detection never looks at (whole-prompt request blobs,
attachments, progress ticks, base64 screenshots, huge tool outputs). A reader gets each line as a
zero-copy view into the chunk, so it can recognise and skip a record by a few bytes near its
start or end; a line over ``BIG`` bytes is never held whole, only its head and tail (a ``Skim``).
Memory stays flat whatever the size of a file or a line.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from io import FileIO
from pathlib import Path

from hindsight.record import Record, Value
from hindsight.session import ReadStats

CHUNK = 4 << 20
# Buffers handed back by finished scans: a fresh 4 MB buffer per file costs page faults and zeroing
# of the whole size, more than reading into it. A list, so two scans alive at once never share one.
_POOL: list[bytearray] = []
BIG = 256 << 10  # lines longer than this are skimmed, never held whole
HEAD = 64 << 10
TAIL = 16 << 10


class Skim(Record):
    """A line too long to hold: its first and last bytes and its true size."""

    _fields = ("head", "tail", "size", "complete")
    __slots__ = _fields
    head: bytes
    tail: bytes
    size: int
    complete: bool  # False when the file ended before the line's newline

    def __init__(self, head: bytes, tail: bytes, size: int, complete: bool = True) -> None:
        self.head = head
        self.tail = tail
        self.size = size
        self.complete = complete


Line = memoryview | Skim


_LEAD = b'{"type":"'


class SkipRules(Value):
    """Records a reader never needs, recognised from raw bytes (JSON escapes quotes inside strings,
    so a raw ``"type":"progress"`` is structure, never text): counted as read, never parsed."""

    _fields = ("leading", "early", "edge")
    leading: frozenset[bytes]  # types written first: {"type":"<type>", ...
    early: bytes  # a needle in a line's first HEAD_SCAN bytes
    edge: bytes  # a needle in its first HEAD_SCAN or last TAIL_SCAN bytes

    def __init__(
        self, leading: frozenset[bytes] = frozenset(), early: bytes = b"", edge: bytes = b""
    ) -> None:
        self.leading = leading
        self.early = early
        self.edge = edge
        # Whole line starts of the leading types: one startswith call tests them all.
        self.prefixes = tuple(_LEAD + t + b'"' for t in sorted(leading))


_NO_RULES = SkipRules()
HEAD_SCAN = 600
TAIL_SCAN = 400


def _skippable(buf: bytes, start: int, end: int, rules: SkipRules) -> bool:
    if buf.startswith(_LEAD, start):
        return buf.startswith(rules.prefixes, start)
    head_end = start + HEAD_SCAN if start + HEAD_SCAN < end else end
    if rules.early and buf.find(rules.early, start, head_end) >= 0:
        return True
    tail_start = end - TAIL_SCAN if end - TAIL_SCAN > start else start
    edge = rules.edge
    return bool(edge) and (
        buf.find(edge, start, head_end) >= 0 or buf.find(edge, tail_start, end) >= 0
    )


def search_from(
    regex: re.Pattern[bytes], needle: bytes, data: bytes | bytearray, start: int = 0
) -> re.Match[bytes] | None:
    """``regex.search(data, start)`` for a pattern that begins with ``needle``: bytes.find jumps to
    each place a match can begin (re alone scans a byte at a time, ~10x slower)."""
    at = data.find(needle, start)
    while at >= 0:
        match = regex.match(data, at)
        if match:
            return match
        at = data.find(needle, at + 1)
    return None


def scan(
    path: Path, stats: ReadStats, rules: SkipRules | None = None
) -> Iterator[tuple[int, Line, bool]]:
    """(line number, line, ends with newline) for each non-empty line the rules do not skip.

    Skipped lines count as records read; I/O errors count the file as unreadable.
    """
    try:
        # Never a FIFO (open would block) or a device (/dev/zero never ends): non-blocking open,
        # then only a regular file is read.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        stats.files_unreadable += 1
        return
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        stats.files_unreadable += 1
        return
    handle = FileIO(fd, "rb")
    rules = rules or _NO_RULES
    # One buffer, read into again and again, and kept for the next file: a fresh 4 MB object per
    # read costs more than the copy itself. Views handed out are valid until the next line is
    # asked for.
    chunk = _POOL.pop() if _POOL else bytearray(CHUNK)
    try:
        yield from _lines(handle, chunk, stats, rules)
    finally:
        handle.close()
        _POOL.append(chunk)


def _lines(
    handle: FileIO, chunk: bytearray, stats: ReadStats, rules: SkipRules
) -> Iterator[tuple[int, Line, bool]]:
    # Locals for the hot loop; a NUL byte never occurs in JSON text, so it stands for "no needle".
    prefixes = rules.prefixes
    early = rules.early or b"\x00"
    edge = rules.edge or b"\x00"
    number = 0
    carry = b""  # the start of a line that continues in the next chunk
    big: Skim | None = None
    try:
        view = memoryview(chunk)
        find = chunk.find
        while True:
            got = handle.readinto(chunk)
            if not got:
                break
            start = 0
            if big is not None or carry:
                # First finish the line the previous chunk left open.
                nl = find(b"\n", 0, got)
                end = got if nl < 0 else nl
                if big is None and len(carry) + end > BIG:
                    # Too long to hold: keep its head, from here on only its tail.
                    first = carry + bytes(view[: max(0, HEAD - len(carry))])
                    big, carry = Skim(first[:HEAD], carry[-TAIL:], len(carry)), b""
                if big is not None:
                    # Copy only what may end up in the tail, never the whole chunk.
                    big.tail = (big.tail + bytes(view[max(0, end - TAIL) : end]))[-TAIL:]
                    big.size += end
                else:
                    carry += bytes(view[:end])
                if nl < 0:
                    continue
                number += 1
                start = nl + 1
                if big is not None:
                    yield number, big, True
                    big = None
                else:
                    whole, carry = carry, b""
                    if _skippable(whole, 0, len(whole), rules):
                        stats.records += 1
                    elif whole.strip():
                        yield number, memoryview(whole), True
            skipped = 0
            # The hot loop: every line of every file passes here. Inline on purpose: it is
            # _skippable's test without a call per line (this loop is most of a run's time).
            while True:
                nl = find(b"\n", start, got)
                if nl < 0:
                    break
                number += 1
                line_start, start = start, nl + 1
                if nl - line_start > BIG:
                    head, tail = view[line_start : line_start + HEAD], view[nl - TAIL : nl]
                    yield number, Skim(bytes(head), bytes(tail), nl - line_start), True
                    continue
                if chunk.startswith(_LEAD, line_start):
                    if chunk.startswith(prefixes, line_start):
                        skipped += 1
                        continue
                else:
                    head_end = line_start + HEAD_SCAN if line_start + HEAD_SCAN < nl else nl
                    tail_start = nl - TAIL_SCAN if nl - TAIL_SCAN > line_start else line_start
                    if (
                        find(early, line_start, head_end) >= 0
                        or find(edge, line_start, head_end) >= 0
                        or find(edge, tail_start, nl) >= 0
                    ):
                        skipped += 1
                        continue
                if nl - line_start > 2 or chunk[line_start:nl].strip():
                    yield number, view[line_start:nl], True
            stats.records += skipped
            if got - start > BIG:
                head, tail = view[start : start + HEAD], view[got - TAIL : got]
                big = Skim(bytes(head), bytes(tail), got - start)
            else:
                carry = bytes(view[start:got])

    except OSError:
        # Deleted or unreadable mid-read: keep what was read, count the file.
        stats.files_unreadable += 1
        return
    if big is not None:
        big.complete = False
        yield number + 1, big, False
    elif carry.strip():
        yield number + 1, memoryview(carry), False
