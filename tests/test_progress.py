"""The progress bar appears on a terminal only, and never with --quiet or --json."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from conftest import install_recording


def run_on_terminal(args: list[str], cwd: Path) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; return what the terminal showed."""
    leader, follower = pty.openpty()
    env = {**os.environ, "HINDSIGHT_PROGRESS_AFTER": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hindsight", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    out = b""
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    proc.wait(timeout=60)
    os.close(leader)
    return out.decode(errors="replace")


def test_bar_on_a_terminal(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    shown = run_on_terminal(["run", "--dry-run", "--claude-home", str(home)], root)
    assert "reading [" in shown and "6/6 sessions" in shown and "KB of" in shown


def test_no_bar_when_quiet_or_json(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    assert "reading [" not in run_on_terminal(
        ["run", "--dry-run", "--quiet", "--claude-home", str(home)], root
    )
    assert "reading [" not in run_on_terminal(
        ["run", "--dry-run", "--json", "--claude-home", str(home)], root
    )
