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


def fault(point: str) -> None:
    """A named step where a test may kill the process or fail it (HINDSIGHT_FAULT).

    ``HINDSIGHT_FAULT=kill:N`` ends the process at the Nth point, ``error:N`` fails that I/O call
    with ENOSPC,
    ``delay:S`` sleeps S seconds at every ``swap`` point (widens the window a concurrent writer
    races), ``slow:S`` at every rename and exchange, just before the call (a network or FUSE file
    system whose renames take that long); ``HINDSIGHT_FAULT_LOG=FILE`` appends each point's name.
    Unset, it costs one lookup.
    """
    spec = os.environ.get("HINDSIGHT_FAULT")
    log = os.environ.get("HINDSIGHT_FAULT_LOG")
    if not spec and not log:
        return
    global _fault_count
    _fault_count += 1
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{_fault_count} {point}\n")
    action, _, arg = (spec or "").partition(":")
    if (action == "delay" and point == "swap") or (action == "slow" and point in _RENAMES):
        import time

        time.sleep(float(arg))
    elif action in ("kill", "error") and int(arg) == _fault_count:
        if action == "kill":
            os._exit(137)
        if point == "journal-done":
            return  # a marker between steps, not an I/O call that could fail
        import errno

        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


_fault_count = 0
_RENAMES = ("rename", "exchange", "swap-back")


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist; never opens anything but a regular file.

    A FIFO would block the run (holding the lock) and /dev/zero would never end: opened
    non-blocking and checked with fstat before a byte is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise HindsightError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        import stat

        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise HindsightError(f"{path} is a folder, expected a file")
        if not stat.S_ISREG(mode):
            raise HindsightError(f"{path} is not a regular file; hindsight reads only files")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError as exc:
        raise HindsightError(f"cannot read {path}: {exc.strerror}") from exc
    finally:
        os.close(fd)


def _refuse_link(path: Path) -> None:
    # Replacing a symlink would silently detach the user's real file; refuse instead.
    if path.is_symlink():
        raise HindsightError(f"{path} is a symbolic link; hindsight does not write through links")


def confine(root: Path, path: Path, verb: str = "write") -> None:
    """Refuse a write (or a read) whose path leaves ``root`` through a symbolic link below it.

    The memory folder itself may be a link (the user's choice); nothing under it may be.
    """
    try:
        rel = path.relative_to(root)
    except ValueError as exc:
        raise HindsightError(f"{path} is outside {root}; refusing to {verb}") from exc
    probe = root
    for part in rel.parts:
        probe = probe / part
        if probe.is_symlink():
            raise HindsightError(
                f"{probe} is a symbolic link; hindsight does not {verb} through links"
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
    tmp = _durable_temp(path, data)
    try:
        if precondition is not None and not precondition():
            tmp.unlink(missing_ok=True)
            return False
        fault("rename")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return True


def _durable_temp(path: Path, data: bytes) -> Path:
    """``data`` in a new temp file beside ``path``, fsynced, with ``path``'s mode (new: private)."""
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = PRIVATE_FILE
    import tempfile  # only when writing: it costs ~3 ms of every start otherwise

    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            fault("fsync")
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def compare_and_swap(
    path: Path, data: bytes, expected: bytes | None, *, root: Path | None = None
) -> bool:
    """Replace ``path`` with ``data`` only if it still holds ``expected`` (None: absent).

    For a file other programs write without our lock (Claude Code's auto memory edits MEMORY.md).
    On Linux the swap is renameat2(RENAME_EXCHANGE): the bytes swapped out are compared with what
    was read, and if someone wrote in between, their file is swapped straight back and False
    returned so the caller merges again: no edit is lost however late it lands. Elsewhere (or on a
    file system without the call) the check runs just before a plain rename, a window of
    microseconds instead of none.
    """
    if root is not None:
        confine(root, path)
    _refuse_link(path)
    ensure_dir(path.parent)
    exchange = _renameat2()
    if exchange is None:
        return atomic_write(path, data, precondition=lambda: read_bytes(path) == expected)
    tmp = _durable_temp(path, data)
    try:
        seen = _identity(path)
        if read_settled(path) != expected:
            return False
        fault("swap")
        # Last look, one stat, right before the swap: a write that landed since the read is
        # merged again without our bytes ever showing.
        if _identity(path) != seen:
            return False
        fault("exchange")
        # Nothing to exchange with when the file is absent: a rename that fails if it appeared.
        flags = _RENAME_NOREPLACE if expected is None else _RENAME_EXCHANGE
        try:
            if not exchange(tmp, path, flags):
                return False  # it appeared, or went away, since the check: merge again
            if expected is None:
                _fsync_dir(path.parent)
                return True
        except OSError as exc:
            import errno

            if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                raise
            # A file system without the exchange (some network and FUSE ones): check, rename.
            fault("rename")
            if read_bytes(path) != expected:
                return False
            os.replace(tmp, path)
            _fsync_dir(path.parent)
            return True
        # Swapped out: the file as it was, unless a writer got in after the check, or still
        # has it open to write (an in-place writer between its truncate and its write).
        # Cheapest test first: while a mismatch is being found, our bytes are what others see.
        if _identity(tmp) == seen and not being_written(tmp) and read_bytes(tmp) == expected:
            _fsync_dir(path.parent)
            return True
        _swap_back(tmp, path, data, exchange)
        return False
    except OSError as exc:
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    finally:
        tmp.unlink(missing_ok=True)


def _swap_back(tmp: Path, path: Path, ours: bytes, exchange: _Exchange) -> None:
    """``path`` holds our bytes, ``tmp`` a newer write by someone else: put theirs back.

    Each exchange pulls out what ``path`` held; if that is not what we put there, yet another
    write landed meanwhile, and it is the newest: swap again until what comes out is ours.
    """
    pushed = ours
    for _ in range(64):
        fault("swap-back")
        exchange(tmp, path, _RENAME_EXCHANGE)
        pulled = read_bytes(tmp)
        if pulled == pushed:
            _fsync_dir(path.parent)
            return
        pushed = read_bytes(path) or b""
    raise HindsightError(f"{path} kept changing while hindsight wrote it; try again")


def _identity(path: Path) -> tuple[int, int, int, int] | None:
    """Which file, at what size and modification: a rename by someone else changes the inode,
    an in-place write the size or mtime (ctime is no use: our own exchange changes it)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_settled(path: Path, patience: float = 2.0) -> bytes | None:
    """``read_bytes`` once no other program has the file open to write (Linux: while one does,
    a read lease is refused), so a read never catches an in-place writer half-way, between its
    truncate and its write. Waits at most ``patience`` seconds, then reads what is there."""
    import time

    deadline = time.monotonic() + patience
    while being_written(path) and time.monotonic() < deadline:
        time.sleep(0.002)
    return read_bytes(path)


def being_written(path: Path) -> bool:
    """Whether another process has ``path`` open for writing (False where that cannot be told)."""
    try:
        import fcntl

        lease = fcntl.F_SETLEASE
        if not _lease_signal_ignored():
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (ImportError, AttributeError, OSError):
        return False
    try:
        fcntl.fcntl(fd, lease, fcntl.F_RDLCK)
    except OSError as exc:
        import errno

        return exc.errno == errno.EAGAIN
    else:
        fcntl.fcntl(fd, lease, fcntl.F_UNLCK)
        return False
    finally:
        os.close(fd)


def _lease_signal_ignored() -> bool:
    # A writer opening the file while we hold the lease (a few microseconds) makes the kernel
    # signal us with SIGIO, whose default action ends the process.
    import signal
    import threading

    if signal.getsignal(signal.SIGIO) == signal.SIG_IGN:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(signal.SIGIO, signal.SIG_IGN)
    return True


_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_Exchange = Callable[[Path, Path, int], bool]
_exchange_fn: list[_Exchange | None] = []


def _renameat2() -> _Exchange | None:
    """renameat2(2) through libc, or None where it does not exist (not Linux, old glibc)."""
    if _exchange_fn:
        return _exchange_fn[0]
    fn: _Exchange | None = None
    if os.environ.get("HINDSIGHT_NO_RENAMEAT2") != "1":
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            call = libc.renameat2
        except (OSError, AttributeError):
            call = None
        if call is not None:
            import errno

            def fn(src: Path, dst: Path, flags: int) -> bool:
                if call(-100, os.fsencode(src), -100, os.fsencode(dst), flags) == 0:
                    return True
                err = ctypes.get_errno()
                if err in (errno.EEXIST, errno.ENOENT):
                    return False
                raise OSError(err, os.strerror(err))

    _exchange_fn.append(fn)
    return fn


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


def append_once(path: Path, chunk: bytes, root: Path | None = None) -> bool:
    """Append ``chunk`` unless the file already holds it: a replay after a crash writes it once.

    A chunk is one run's dated section (a report section, an archive section): the same bytes
    never stand twice in a file legitimately.
    """
    old = read_bytes(path) or b""
    if chunk in old:
        return False
    if old and not old.endswith(b"\n"):
        old += b"\n"
    atomic_write(path, old + chunk, root=root)
    return True


def preflight(root: Path, targets: list[tuple[Path, int]]) -> None:
    """Check every file a transaction will write can be written, before the first change.

    Each target is (path, bytes it will hold). A path must not be a folder, a link or a special
    file; each existing folder must take a probe file of the bytes its targets need (that finds
    a read-only mount, permissions, a full disk); a missing folder's nearest ancestor must be
    writable. So an error stops the run with MEMORY.md as it was.
    """
    import stat

    need: dict[Path, int] = {}
    for path, size in targets:
        confine(root, path)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as exc:
            raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
        if mode is not None and stat.S_ISDIR(mode):
            raise HindsightError(f"{path} is a folder where hindsight keeps a file; move it aside")
        if mode is not None and not stat.S_ISREG(mode):
            raise HindsightError(f"{path} is not a regular file; hindsight writes only files")
        need[path.parent] = need.get(path.parent, 0) + size
    for folder, size in need.items():
        probe = folder
        while not probe.exists() and probe.parent != probe:
            if probe.is_symlink():
                raise HindsightError(f"{probe} is a broken symbolic link; cannot write {folder}")
            probe = probe.parent
        if not probe.is_dir():
            raise HindsightError(f"{probe} is not a folder; cannot write {folder}")
        if probe != folder:
            if not os.access(probe, os.W_OK | os.X_OK):
                raise HindsightError(f"cannot create folder {folder}: {probe} is not writable")
            _probe_space(probe, folder, size)
            continue
        _probe_write(folder, size)


def _probe_write(folder: Path, size: int) -> None:
    import tempfile

    try:
        fault("preflight")
        with tempfile.TemporaryFile(prefix=".hindsight-probe.", dir=folder) as handle:
            handle.write(b"\0" * (size + 4096))
            handle.flush()
    except OSError as exc:
        raise HindsightError(f"cannot write in {folder}: {exc.strerror}") from exc


def _probe_space(probe: Path, folder: Path, size: int) -> None:
    try:
        fs = os.statvfs(probe)
    except (OSError, AttributeError):
        return
    if fs.f_bavail * fs.f_frsize < size + 65536:
        raise HindsightError(f"cannot write {folder}: no space left on the device")


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
