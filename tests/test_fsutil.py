from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from conftest import install_recording, run_cli
from hindsight import fsutil, report
from hindsight.errors import HindsightError
from hindsight.memory import Entry, MemoryStore
from hindsight.sources.claude_files import claude_folder_name


def test_new_files_and_folders_are_private(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    assert run_cli("run", "--claude-home", str(home), cwd=root).returncode == 0
    memory = home / "projects" / claude_folder_name(str(root)) / "memory"
    for path in [memory, *memory.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path


def test_existing_memory_file_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("notes\n")
    os.chmod(tmp_path / "MEMORY.md", 0o644)
    MemoryStore(tmp_path).add([Entry.make("T", "B", "trap", date(2026, 1, 1))])
    assert stat.S_IMODE((tmp_path / "MEMORY.md").stat().st_mode) == 0o644


def test_writes_never_follow_a_link_out_of_the_memory_folder(tmp_path: Path) -> None:
    memory, outside = tmp_path / "memory", tmp_path / "elsewhere"
    memory.mkdir()
    outside.mkdir()
    (memory / "hindsight").symlink_to(outside)
    with pytest.raises(HindsightError, match="is a symbolic link"):
        report.append(memory, date(2026, 1, 1), "## section\n")
    assert list(outside.iterdir()) == []
    target = outside / "real.md"
    target.write_text("mine\n")
    (memory / "MEMORY.md").symlink_to(target)
    with pytest.raises(HindsightError, match="is a symbolic link"):
        MemoryStore(memory).add([Entry.make("T", "B", "trap", date(2026, 1, 1))])
    assert target.read_text() == "mine\n"


def test_a_linked_memory_folder_is_the_users_choice(tmp_path: Path) -> None:
    real, link = tmp_path / "real", tmp_path / "link"
    real.mkdir()
    link.symlink_to(real)
    MemoryStore(link).add([Entry.make("T", "B", "trap", date(2026, 1, 1))])
    assert (real / "MEMORY.md").exists()


def test_confine_refuses_paths_outside(tmp_path: Path) -> None:
    with pytest.raises(HindsightError, match="outside"):
        fsutil.confine(tmp_path / "a", tmp_path / "b" / "c")


HOLDER = """
import sys, time
from pathlib import Path
from hindsight import fsutil
with fsutil.locked(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()  # hold until the test says so
"""


def _holder(lock: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def test_lock_excludes_another_process_and_times_out_with_one_line(tmp_path: Path) -> None:
    lock = tmp_path / "hindsight" / ".lock"
    proc = _holder(lock)
    try:
        started = time.monotonic()
        with pytest.raises(HindsightError) as err, fsutil.locked(lock, timeout=0.3):
            pass
        assert time.monotonic() - started >= 0.3
        assert str(err.value) == (
            f"another hindsight run holds {lock} (waited 0 s); try again later"
        )
    finally:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.close()
        assert proc.wait(10) == 0
    # Released when the holder leaves its block: taken at once now, and the file stays private.
    with fsutil.locked(lock, timeout=0.3):
        assert stat.S_IMODE(lock.stat().st_mode) == 0o600


def test_lock_is_reentrant_within_a_process(tmp_path: Path) -> None:
    lock = tmp_path / ".lock"
    with fsutil.locked(lock, timeout=0.2), fsutil.locked(lock, timeout=0.2):
        assert lock.exists()
    # Both levels released: another process takes it straight away.
    proc = _holder(lock)
    proc.communicate("\n", timeout=10)
    assert proc.returncode == 0


def test_lock_refuses_a_linked_lock_file(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("keep\n")
    (tmp_path / ".lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(HindsightError, match="symbolic link"), fsutil.locked(tmp_path / ".lock"):
        pass
    assert (tmp_path / "elsewhere").read_text() == "keep\n"


def test_an_unusable_lock_file_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    memory = tmp_path / "mem"
    (memory / "hindsight" / ".lock").mkdir(parents=True)  # a folder where the lock file goes
    (memory / "MEMORY.md").write_bytes(b"keep me\r\n")
    done = run_cli(
        "memory",
        "add",
        "--title",
        "t x",
        "--body",
        "b",
        "--memory-dir",
        str(memory),
        cwd=tmp_path,
    )
    lock = memory / "hindsight" / ".lock"
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"hindsight: error: cannot open lock file {lock}: Is a directory\n"
    assert (memory / "MEMORY.md").read_bytes() == b"keep me\r\n"
    assert sorted(p.name for p in memory.rglob("*")) == [".lock", "MEMORY.md", "hindsight"]


@pytest.mark.parametrize(
    ("mine", "theirs", "merged"),
    [
        # Two writers appending at the end: both, once each, mine first.
        (b"a\nb\nX\n", b"a\nb\nY\n", b"a\nb\nX\nY\n"),
        # One version already holds the other's appended line: it is not written twice.
        (b"a\nb\nX\n", b"a\nb\nX\nY\n", b"a\nb\nX\nY\n"),
        # Apart: each side's edit where it made it.
        (b"S\na\nb\n", b"a\nb\nY\n", b"S\na\nb\nY\n"),
        # A removal on one side, an append on the other.
        (b"a\n", b"a\nb\nY\n", b"a\nY\n"),
        # The same line changed two ways: both kept, the old one gone.
        (b"a\nb1\n", b"a\nb2\n", b"a\nb1\nb2\n"),
        # Bytes kept as they are: CRLF and invalid UTF-8.
        (b"a\nb\n\xff\r\n", b"a\nb\n", b"a\nb\n\xff\r\n"),
    ],
)
def test_merge3_keeps_both_sides_edits(mine: bytes, theirs: bytes, merged: bytes) -> None:
    assert fsutil.merge3(b"a\nb\n", mine, theirs) == merged
