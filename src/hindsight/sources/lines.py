"""JSONL close to the disk: big chunks, newline scans, and no copy of the bytes nobody needs.

Most of a transcript's bytes are records detection never looks at (whole-prompt request blobs,
attachments, progress ticks, base64 screenshots, huge tool outputs). A reader gets each line as a
zero-copy view into the chunk, so it can recognise and skip a record by a few bytes near its
start or end; a line over ``BIG`` bytes is never held whole, only its head and tail (a ``Skim``).
Memory stays flat whatever the size of a file or a line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hindsight.session import ReadStats

CHUNK = 4 << 20
BIG = 256 << 10  # lines longer than this are skimmed, never held whole
HEAD = 64 << 10
TAIL = 16 << 10


@dataclass(slots=True)
class Skim:
    """A line too long to hold: its first and last bytes and its true size."""

    head: bytes
    tail: bytes
    size: int
    complete: bool = True  # False when the file ended before the line's newline


Line = memoryview | Skim


def scan(path: Path, stats: ReadStats) -> Iterator[tuple[int, Line, bool]]:
    """(line number, line, ends with newline) for each non-empty line; I/O errors are counted."""
    try:
        handle = path.open("rb", buffering=0)
    except OSError:
        stats.files_unreadable += 1
        return
    with handle:
        number = 0
        carry = b""  # the start of a line that continues in the next chunk
        big: Skim | None = None
        try:
            while True:
                chunk = handle.read(CHUNK)
                if not chunk:
                    break
                view = memoryview(chunk)
                start = 0
                while True:
                    nl = chunk.find(b"\n", start)
                    if nl < 0:
                        rest = view[start:]
                        if big is not None:
                            big.tail = (big.tail + bytes(rest))[-TAIL:]
                            big.size += len(rest)
                        elif len(carry) + len(rest) > BIG:
                            joined = carry + bytes(rest)
                            big = Skim(joined[:HEAD], joined[-TAIL:], len(joined))
                            carry = b""
                        else:
                            carry += bytes(rest)
                        break
                    number += 1
                    piece = view[start:nl]
                    start = nl + 1
                    if big is not None:
                        big.tail = (big.tail + bytes(piece))[-TAIL:]
                        big.size += len(piece)
                        yield number, big, True
                        big = None
                        continue
                    if carry:
                        whole = carry + bytes(piece)
                        carry = b""
                        line: Line = (
                            Skim(whole[:HEAD], whole[-TAIL:], len(whole))
                            if len(whole) > BIG
                            else memoryview(whole)
                        )
                    elif len(piece) > BIG:
                        line = Skim(bytes(piece[:HEAD]), bytes(piece[-TAIL:]), len(piece))
                    else:
                        line = piece
                    if _blank(line):
                        continue
                    yield number, line, True
        except OSError:
            # Deleted or unreadable mid-read: keep what was read, count the file.
            stats.files_unreadable += 1
            return
        if big is not None:
            big.complete = False
            yield number + 1, big, False
        elif carry.strip():
            yield number + 1, memoryview(carry), False


def _blank(line: Line) -> bool:
    if isinstance(line, Skim):
        return False
    return len(line) < 8 and not bytes(line).strip()
