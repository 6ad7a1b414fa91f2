"""The shipped example: sessions recorded with the real Claude Code CLI (tests/fixtures/record),
replayed into a fresh repo so `hindsight run --example` shows real output on any machine."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hindsight.errors import HindsightError
from hindsight.record import Value
from hindsight.sources.claude_files import claude_folder_name

RECORDING = Path(__file__).resolve().parent / "recording"
AGENTS = Path(__file__).resolve().parent / "agents"  # Codex CLI and Gemini CLI (record_agents.sh)


class Example(Value):
    _fields = ("root", "worktree", "claude_home")
    root: Path
    worktree: Path
    claude_home: Path

    def __init__(self, root: Path, worktree: Path, claude_home: Path) -> None:
        self.root = root
        self.worktree = worktree
        self.claude_home = claude_home

    @property
    def homes(self) -> dict[str, str | None]:
        """Every agent's home inside the example, so a run never reads the user's own sessions."""
        base = self.claude_home.parent
        return {"claude-code": str(self.claude_home), "codex": str(base / "codex-home"),
                "gemini": str(base / "gemini-home")}  # fmt: skip


def _git(*args: str, cwd: Path) -> None:
    try:
        subprocess.run(
            [
                "git",
                "-c",
                "user.email=example@hindsight.invalid",
                "-c",
                "user.name=hindsight",
                *args,
            ],
            cwd=cwd,
            check=True,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise HindsightError(f"the example needs git: {exc}") from exc


def install(base: Path, *, misplace_worktree: bool = False) -> Example:
    """The recorded repo (path with dots and underscores, a linked worktree) under ``base``.

    Recorded paths are replaced by the new ones, and each transcript goes to the folder Claude Code
    would use for its new cwd. ``misplace_worktree`` files the worktree's session under a folder name
    no rule gives, as after a rename, for the cwd fallback.
    """
    meta = json.loads((RECORDING / "recording.json").read_text(encoding="utf-8"))
    root = base / "acme.app_v2"
    for rel, text in {
        "Makefile": 'check:\n\t@echo "4 passed"\nlint:\n\t@echo "lint ok"\nbuild:\n\t@echo "built"\n',
        "conf/settings.ini": "port = 8080\n",
        "src/app.py": "def main():\n    return 0\n",
        "docs/deploy_notes.md": "# Deploying\n\nRun `make check`, then push to the deploy branch.\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git("init", "-q", "-b", "main", ".", cwd=root)
    _git("add", "-A", cwd=root)
    _git("commit", "-qm", "init", cwd=root)
    worktree = base / "acme.app_v2.wt_feature"
    _git("worktree", "add", "-q", "-b", "feature", str(worktree), cwd=root)
    root, worktree = root.resolve(), worktree.resolve()
    home = base / "claude-home"
    for src in sorted((RECORDING / "projects").glob("*/*.jsonl")):
        text = src.read_text(encoding="utf-8")
        text = text.replace(meta["worktree"], str(worktree)).replace(meta["root"], str(root))
        cwd = next(json.loads(line)["cwd"] for line in text.splitlines() if '"cwd"' in line)
        folder = (
            "-renamed-elsewhere"
            if misplace_worktree and cwd == str(worktree)
            else claude_folder_name(cwd)
        )
        dest = home / "projects" / folder / src.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    _install_agents(base, root, worktree)
    return Example(root, worktree, home)


def _install_agents(base: Path, root: Path, worktree: Path) -> None:
    """The Codex rollouts and Gemini chats, recorded in the same repo layout, under ``base``."""
    meta = json.loads((AGENTS / "recording.json").read_text(encoding="utf-8"))
    for src in sorted(AGENTS.rglob("*")):
        if not src.is_file() or src.name == "recording.json":
            continue
        text = src.read_text(encoding="utf-8")
        # JSON spells the paths as they are (no escapes in them), .project_root too.
        text = text.replace(meta["worktree"], str(worktree)).replace(meta["root"], str(root))
        rel = src.relative_to(AGENTS)
        dest = base / f"{rel.parts[0]}-home" / Path(*rel.parts[1:])
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
