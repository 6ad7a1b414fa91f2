"""Atomic, private, lock-serialized file writes: the only way hindsight changes a file."""

from __future__ import annotations

import contextlib
import errno
import os
import time
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
    path: Path,
    data: bytes,
    expected: bytes | None,
    *,
    root: Path | None = None,
    redo: Callable[[bytes], bytes | None] | None = None,
) -> bool:
    """Replace ``path`` with ``data`` if it still holds ``expected`` (None: absent), else merge.

    For a file other programs write without our lock (Claude Code's auto memory edits MEMORY.md).
    False: it changed before our bytes showed, nothing was written; the caller merges again.
    True: ``data`` is in, together with every edit another writer made meanwhile.

    On Linux the swap is renameat2(RENAME_EXCHANGE): the file swapped out is the one that stood at
    the path at that instant, whoever wrote it (in place or by a rename), so nothing can land
    unseen. If it is not what was read, its edits are merged into ours (``merge3``, then ``redo``
    puts our change on the result again, None: it holds it) and that is swapped in, which
    brings out the file that stood there meanwhile, and so on until what comes out is exactly
    what went in (see ``_merge_in``). However slow the rename, every edit ends up in the file.

    Elsewhere, or on a file system without the exchange (some network and FUSE ones), the check
    runs just before a plain rename: an edit in the interval between the check and the rename
    (microseconds on a local disk, the rename's duration where renames are slow) is replaced
    unseen and lost; nothing portable can see it, since rename(2) does not return what it
    replaced.
    """
    if root is not None:
        confine(root, path)
    _refuse_link(path)
    ensure_dir(path.parent)
    exchange = _renameat2()
    if exchange is None:
        return atomic_write(path, data, precondition=lambda: read_bytes(path) == expected)
    temps = [_durable_temp(path, data)]
    try:
        seen = _identity(path)
        if read_settled(path) != expected:
            return False
        fault("swap")
        # Last look, one stat, right before the swap: a write that landed since the read is
        # merged again without our bytes ever showing.
        if _identity(path) != seen:
            return False
        began = time.monotonic()  # how long a swap takes here (slow renames: network, FUSE)
        fault("exchange")
        # Nothing to exchange with when the file is absent: a rename that fails if it appeared.
        flags = _RENAME_NOREPLACE if expected is None else _RENAME_EXCHANGE
        try:
            if not exchange(temps[0], path, flags):
                return False  # it appeared, or went away, since the check: merge again
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                raise
            # A file system without the exchange: check, rename (the window above).
            fault("rename")
            if read_bytes(path) != expected:
                return False
            os.replace(temps[0], path)
            _fsync_dir(path.parent)
            return True
        if expected is not None:
            _merge_in(path, data, expected, temps, exchange, redo, time.monotonic() - began)
        _fsync_dir(path.parent)
        return True
    except OSError as exc:
        raise HindsightError(f"cannot write {path}: {exc.strerror}") from exc
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)


def _merge_in(
    path: Path,
    ours: bytes,
    read: bytes,
    temps: list[Path],
    exchange: _Exchange,
    redo: Callable[[bytes], bytes | None] | None,
    took: float,
) -> None:
    """Our bytes stand at ``path`` and ``temps[-1]`` holds what they replaced: make sure that
    holds no edit the file lacks.

    What came out is what we read: done. Otherwise another writer got in before the exchange;
    its edits (against what we read) are merged into ours and the result swapped in. That swap
    brings out the file that stood at the path meanwhile: ours, perhaps edited since (against
    ours, or against the file swapped out, when the writer read that one just before the swap
    and wrote just after). Its edits are merged into the new file in turn, and so on, until a
    swap brings out exactly what the previous one put in: nobody wrote in between, and every
    edit that ever came out is in the file. A writer that never pauses for the length of a
    rename keeps this going; after ``_MERGE_ROUNDS`` it stops with an error, and the last file
    swapped out (which may hold edits the file lacks) is kept beside it and named.
    """
    put, base = ours, read  # what stands at the path now, and what it replaced
    before: bytes | None = None  # what the previous swap brought out
    for _ in range(_MERGE_ROUNDS):
        theirs = read_settled(temps[-1])  # an in-place writer still busy with it: wait
        if theirs is None or theirs == base:
            return  # what went in came out (nobody wrote meanwhile), or our temp was removed
        if before is not None and _distance(before, theirs) < _distance(base, theirs):
            base = before  # written by one who read the file swapped out, not ours
        merged = merge3(base, put, theirs)
        if redo is not None:
            with contextlib.suppress(HindsightError):  # a block the merge made malformed
                merged = redo(merged) or merged
        temps.append(_durable_temp(path, merged))
        # A writer busy right now would edit the file we are about to swap out: let it pause
        # for about as long as a swap takes before swapping.
        _wait_quiet(path, min(took, 0.5), patience=1.0)
        began = time.monotonic()
        fault("swap-back")
        if not exchange(temps[-1], path, _RENAME_EXCHANGE):
            # MEMORY.md was removed meanwhile: the merge goes there; if it is back already,
            # the next round merges again against that.
            if exchange(temps[-1], path, _RENAME_NOREPLACE):
                return
            temps.pop().unlink(missing_ok=True)
            continue
        took = time.monotonic() - began
        temps[-2].unlink(missing_ok=True)  # merged into what now stands at the path
        del temps[-2]
        before, base, put = theirs, put, merged
    kept = temps.pop()
    raise HindsightError(
        f"{path} kept changing while hindsight wrote it; another program's last version of it"
        f" is kept in {kept}"
    )


_MERGE_ROUNDS = 64


def _distance(a: bytes, b: bytes) -> int:
    """Lines one would change to turn ``a`` into ``b``."""
    import difflib

    lines = a.splitlines(keepends=True), b.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, *lines, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    return len(lines[0]) + len(lines[1]) - 2 * same


def _wait_quiet(path: Path, quiet: float, patience: float) -> None:
    """Return once ``path`` has not changed for ``quiet`` seconds, or after ``patience``."""
    deadline = time.monotonic() + patience
    last, since = _identity(path), time.monotonic()
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        time.sleep(min(0.005, quiet))
        now = _identity(path)
        if now != last:
            last, since = now, time.monotonic()


def merge3(base: bytes, mine: bytes, theirs: bytes) -> bytes:
    """Both ``mine``'s and ``theirs``'s edits of ``base``, line by line (a diff3).

    A region only one side changed takes that side's lines; one both changed alike, those lines.
    Where both changed it differently (two writers appending at the end, say), both versions'
    lines are kept, once each, mine's first where they differ, less the base lines either side
    removed. Lines are copied byte for byte, line endings included.
    """
    import difflib

    old, sides = base.splitlines(True), (mine.splitlines(True), theirs.splitlines(True))
    hunks = sorted(
        (i1, i2, side, sides[side][j1:j2])
        for side in (0, 1)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
            None, old, sides[side], autojunk=False
        ).get_opcodes()
        if tag != "equal"
    )
    out: list[bytes] = []
    done = at = 0
    while at < len(hunks):
        lo, hi = hunks[at][0], hunks[at][1]
        group = [hunks[at]]
        at += 1
        # Hunks that overlap, or insert at the same point, are one region.
        while at < len(hunks) and (hunks[at][0] < hi or (hunks[at][0] == hi == lo == hunks[at][1])):
            hi = max(hi, hunks[at][1])
            group.append(hunks[at])
            at += 1
        out += old[done:lo]
        done = hi
        versions = [_patched(old, lo, hi, [h for h in group if h[2] == s]) for s in (0, 1)]
        if {h[2] for h in group} != {0, 1} or versions[0] == versions[1]:
            out += versions[group[0][2]] if len({h[2] for h in group}) == 1 else versions[0]
        else:
            out += _union(old[lo:hi], versions[0], versions[1])
    out += old[done:]
    return b"".join(out)


def _patched(
    old: list[bytes], lo: int, hi: int, hunks: list[tuple[int, int, int, list[bytes]]]
) -> list[bytes]:
    """``old[lo:hi]`` with one side's hunks applied."""
    out: list[bytes] = []
    at = lo
    for i1, i2, _, lines in hunks:
        out += old[at:i1] + lines
        at = i2
    return out + old[at:hi]


def _union(old: list[bytes], mine: list[bytes], theirs: list[bytes]) -> list[bytes]:
    """Both versions of a region both sides changed: what they share once, what differs from
    each (mine first), without the lines of ``old`` either one removed."""
    import difflib
    from collections import Counter

    removed = (Counter(old) - Counter(mine)) | (Counter(old) - Counter(theirs))
    out: list[bytes] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, mine, theirs, autojunk=False
    ).get_opcodes():
        out += mine[i1:i2] if tag == "equal" else mine[i1:i2] + theirs[j1:j2]
    kept: list[bytes] = []
    for line in out:
        if removed[line] > 0:
            removed[line] -= 1
        else:
            kept.append(line)
    return kept


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
