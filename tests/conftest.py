from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
OWN_FIXTURES = ROOT / "tests" / "fixtures"


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


RECORDING = OWN_FIXTURES / "claude-code" / "v2.1.328-rec"


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def make_repo(base: Path) -> tuple[Path, Path]:
    """A repo whose path has dots and underscores, with a src/ folder and a linked worktree."""
    root = base / "acme.app_v2"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n")
    git("init", "-q", "-b", "main", ".", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "init", cwd=root)
    wt = base / "acme.app_v2.wt_feature"
    git("worktree", "add", "-q", "-b", "feature", str(wt), cwd=root)
    return root.resolve(), wt.resolve()


def install_recording(base: Path, *, misplace_worktree: bool = False) -> tuple[Path, Path, Path]:
    """Our real recording, moved to a repo made under ``base``: (root, worktree, claude home).

    The recorded paths are replaced by the new ones and each file goes to the folder Claude Code
    would use for its new cwd (the rule itself is checked against the recording in test_locate).
    ``misplace_worktree`` files the worktree session under a name no rule gives (a renamed path).
    """
    from hindsight.locate import claude_folder_name

    meta = json.loads((RECORDING / "recording.json").read_text())
    root, wt = make_repo(base)
    home = base / "claude-home"
    for src in sorted((RECORDING / "projects").glob("*/*.jsonl")):
        text = (
            src.read_text(encoding="utf-8")
            .replace(meta["worktree"], str(wt))
            .replace(meta["root"], str(root))
        )
        cwd = next(json.loads(ln)["cwd"] for ln in text.splitlines() if '"cwd"' in ln)
        folder = claude_folder_name(cwd)
        if misplace_worktree and cwd == str(wt):
            folder = "-renamed-elsewhere"
        dest = home / "projects" / folder / src.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    return root, wt, home
