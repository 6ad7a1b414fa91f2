"""Reading inside the memory folder without following a link out of it.

hindsight never writes through a link below the memory folder (fsutil.confine); reading follows
the same rule, so a hook log or report replaced by a link to ``~/.ssh/id_rsa`` or ``/dev/zero``
is refused instead of printed or read until memory runs out.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hindsight.errors import HindsightError


def read_bytes(root: Path, path: Path, tail: int | None = None) -> bytes | None:
    """The bytes of ``path`` (its last ``tail`` bytes when given), or None when it does not exist.

    Refused with one clear error: a link anywhere from ``root`` down to the file, or something
    that is not a regular file (a FIFO would hang, a device would never end).
    """
    from hindsight import fsutil

    fsutil.confine(root, path, "read")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise HindsightError(f"cannot read {path}: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise HindsightError(f"{path} is not a regular file; hindsight reads only files")
        if tail is not None and info.st_size > tail:
            handle.seek(info.st_size - tail)
        return handle.read()


def read_lines(root: Path, path: Path, last: int, tail: int = 64 * 1024) -> list[str]:
    """The last ``last`` lines of a text file inside ``root`` (an empty list if it is missing)."""
    data = read_bytes(root, path, tail)
    if not data:
        return []
    return data.decode("utf-8", errors="replace").splitlines()[-last:]
