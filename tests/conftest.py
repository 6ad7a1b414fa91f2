from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
RECORDING = ROOT / "src" / "hindsight" / "example" / "recording"


def shared_fixture(relative: str) -> Path:
    """A file from ../shared/fixtures, or a clear skip where that folder is absent."""
    path = SHARED_FIXTURES / relative
    if not path.exists():
        pytest.skip(
            f"shared fixture {relative} not present (needs ../shared/fixtures beside the repo)"
        )
    return path


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess, as a user or a hook would."""
    full_env = dict(os.environ)
    full_env.pop("CLAUDE_CONFIG_DIR", None)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "hindsight", *args],
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def memdir(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    return folder


def install_recording(base: Path, *, misplace_worktree: bool = False) -> tuple[Path, Path, Path]:
    """Our real recording (the shipped example) moved under ``base``: (root, worktree, claude home)."""
    from hindsight import example

    ex = example.install(base, misplace_worktree=misplace_worktree)
    return ex.root, ex.worktree, ex.claude_home
