"""What a new user meets first: options where they typed them, usage errors as usage errors,
odd files and outputs as one clear error line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from hindsight.memory import START


def test_memory_options_before_the_action_are_honoured(tmp_path: Path) -> None:
    mine, other = tmp_path / "mine", tmp_path / "other"
    done = run_cli("memory", "--memory-dir", str(mine), "add", "--title", "T", "--body", "B")
    assert done.returncode == 0, done.stderr
    assert START in (mine / "MEMORY.md").read_text()
    shown = run_cli("memory", "--memory-dir", str(mine), "show")
    assert shown.stdout.startswith("- **T** (")
    # After the action wins, as before.
    done = run_cli("memory", "--memory-dir", str(mine), "check", "--memory-dir", str(other))
    assert "no hindsight block yet" in done.stdout and not other.exists()


@pytest.mark.parametrize("since", ["garbage", "999999999d", "2026-13-45"])
def test_a_bad_since_is_a_usage_error(tmp_path: Path, since: str) -> None:
    done = run_cli("run", "--since", since, "--repo", str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert "--since" in done.stderr and "internal error" not in done.stderr


def test_a_missing_claude_home_is_an_error_and_is_not_created(tmp_path: Path) -> None:
    home = tmp_path / "no-such-home"
    for args in (
        ["commit"],
        ["memory", "add", "--title", "T", "--body", "B"],
        ["install", "--hook"],
        ["run"],
    ):
        done = run_cli(*args, "--claude-home", str(home), cwd=tmp_path)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr == f"hindsight: error: --claude-home {home} does not exist\n", args
        assert not home.exists()


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_memory_that_is_not_a_file_is_one_error_line_never_a_hang(
    tmp_path: Path, kind: str
) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    if kind == "fifo":
        os.mkfifo(memory / "MEMORY.md")
    else:
        (memory / "MEMORY.md").symlink_to("/dev/zero")
    for args in (
        ["memory", "add", "--title", "T", "--body", "B"],
        ["memory", "show"],
        ["run", "--repo", str(tmp_path)],
    ):
        done = run_cli(*args, "--memory-dir", str(memory), cwd=tmp_path)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.endswith("MEMORY.md is not a regular file; hindsight reads only files\n")
    status = run_cli("status", "--memory-dir", str(memory), "--repo", str(tmp_path))
    assert status.returncode == 0 and "is not a regular file" in status.stdout


def test_an_unwritable_stdout_is_an_error_not_silence(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "hindsight", "schema"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == "hindsight: error: No space left on device\n"


def test_prune_of_a_hand_written_block_of_16000_lines_is_linear(tmp_path: Path) -> None:
    lines = "".join(f"- **Hand {n}** (2026-01-01) body {n} [trap]\n" for n in range(16_000))
    (tmp_path / "MEMORY.md").write_text(f"{START}\n{lines}<!-- hindsight:end -->\n")
    done = run_cli("memory", "prune", "--memory-dir", str(tmp_path), "--max-bytes", "4096")
    assert done.returncode == 0, done.stderr
    archived = (tmp_path / "MEMORY.archive.md").read_text()
    kept = (tmp_path / "MEMORY.md").read_text().count("\n- **")
    assert archived.count("\n- **") + kept == 16_000 and kept > 0
