"""Atomic, private, lock-serialized file writes: the only way hindsight changes a file."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from hindsight.errors import HindsightError

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
LOCK_TIMEOUT_S = 60.0


def ensure_dir(path: Path) -> None:
    """Create ``path`` and missing parents, each new one private to the user."""
    missing: list[Path] = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:
            pass
        except OSError as exc:
            raise HindsightError(f"cannot create folder {folder}: {exc.strerror}") from exc
    if not path.is_dir():
        raise HindsightError(f"{path} exists and is not a folder")


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise HindsightError(f"{path} is a folder, expected a file") from exc
    except OSError as exc:
        raise HindsightError(f"cannot read {path}: {exc.strerror}") from exc


def _refuse_link(path: Path) -> None:
    # Replacing a symlink would silently detach the user's real file; refuse instead.
    if path.is_symlink():
        raise HindsightError(f"{path} is a symbolic link; hindsight does not write through links")


def confine(root: Path, path: Path) -> None:
    """Refuse a write whose path leaves ``root`` through a symbolic link below it.

    The memory folder itself may be a link (the user's choice); nothing under it may be.
    """
    try:
        rel = path.relative_to(root)
    except ValueError as exc:
        raise HindsightError(f"{path} is outside {root}; refusing to write") from exc
    probe = root
    for part in rel.parts:
        probe = probe / part
        if probe.is_symlink():
            raise HindsightError(
                f"{probe} is a symbolic link; hindsight does not write through links"
            )


def atomic_write(
    path: Path,
    data: bytes,
    *,
    precondition: Callable[[], bool] | None = None,
    root: Path | None = None,
) -> bool:
    """Write ``data`` to ``path`` via temp file + fsync + rename in the same folder.

    ``precondition`` runs after the temp file is durable and just before the rename; when it
    returns False nothing is replaced and False is returned, so the caller can merge again.
    """
    if root is not None:
        confine(root, path)
    _refuse_link(path)
    ensure_dir(path.parent)
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = PRIVATE_FILE
    import tempfile  # only when writing: it costs ~3 ms of every start otherwise

    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if precondition is not None and not precondition():
            tmp.unlink(missing_ok=True)
            return False
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return True


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def append_file(path: Path, data: bytes, root: Path | None = None) -> None:
    """Append by rewriting atomically: earlier bytes are copied unchanged, never edited."""
    old = read_bytes(path) or b""
    if old and not old.endswith(b"\n"):
        old += b"\n"
    atomic_write(path, old + data, root=root)


_held: dict[str, int] = {}


@contextlib.contextmanager
def locked(lock_path: Path, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Serialize writers across processes (two sessions ending together, a hook and a user).

    Re-entrant within one process, so ``run`` can hold the lock around steps that take it too.
    """
    key = str(lock_path.absolute())
    if _held.get(key):
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    _refuse_link(lock_path.parent)
    _refuse_link(lock_path)
    ensure_dir(lock_path.parent)
    release = _acquire(key, timeout)
    if release is None:
        raise HindsightError(
            f"another hindsight run holds {lock_path} (waited {timeout:.0f} s); try again later"
        )
    _held[key] = 1
    try:
        yield
    finally:
        _held.pop(key, None)
        release()


def _acquire(path: str, timeout: float) -> Callable[[], None] | None:
    """Take the exclusive lock on ``path`` within ``timeout`` s: its release, or None on time-out.

    flock(2) directly on POSIX (what filelock does there too, so both kinds of process exclude
    each other); the filelock package elsewhere. Importing filelock costs ~40 ms, most of a
    hook run's start-up. The lock file is never removed: unlinking it would let a waiter lock
    a file nobody else sees.
    """
    try:
        import fcntl
    except ImportError:  # Windows
        from filelock import FileLock, Timeout

        lock = FileLock(path, timeout=timeout, mode=PRIVATE_FILE)
        try:
            lock.acquire()
        except Timeout:
            return None
        return lambda: lock.release()

    import time

    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), PRIVATE_FILE)
    except OSError as exc:
        raise HindsightError(f"cannot open lock file {path}: {exc.strerror}") from exc
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)
        except OSError as exc:
            os.close(fd)
            raise HindsightError(f"cannot lock {path}: {exc.strerror}") from exc
    # Closing the descriptor releases the lock.
    return lambda: os.close(fd)
