"""hindsight install --skill / --hook: the Claude Code skill and the SessionEnd hook."""

from __future__ import annotations

import argparse
import shlex
import sys
from importlib import resources
from pathlib import Path

from hindsight import claude_settings, fsutil
from hindsight.context import Context
from hindsight.errors import HindsightError

HOOK_MARK = claude_settings.HOOK_MARK


def run(args: argparse.Namespace) -> int:
    if not (args.skill or args.hook):
        print("hindsight install: say what to install: --skill, --hook or both", file=sys.stderr)
        return 2
    ctx = Context.from_args(args)
    base = ctx.claude_home if args.scope == "user" else ctx.repo.root / ".claude"
    if args.skill:
        print(install_skill(base))
    if args.hook:
        print(install_hook(base / "settings.json", hook_command(args)))
    return 0


def install_skill(base: Path) -> str:
    text = resources.files("hindsight").joinpath("skill/SKILL.md").read_bytes()
    path = base / "skills" / "hindsight" / "SKILL.md"
    if fsutil.read_bytes(path) == text:
        return f"skill already up to date: {path}"
    fsutil.atomic_write(path, text)
    return f"skill written: {path}"


def hook_command(args: argparse.Namespace) -> str:
    """The command Claude Code runs; this interpreter, so it works without hindsight on PATH."""
    parts = [sys.executable, "-m", "hindsight", "hook", "session-end"]
    for option in ("claude_home", "memory_dir"):
        value = getattr(args, option)
        if value:
            parts += [f"--{option.replace('_', '-')}", str(Path(value).expanduser().absolute())]
    return " ".join(shlex.quote(p) for p in parts)


def install_hook(settings: Path, command: str) -> str:
    """Merge a SessionEnd hook into settings.json: other settings kept, idempotent, backup first."""
    raw, doc = claude_settings.load(settings)
    hooks = doc.setdefault("hooks", {})
    if not isinstance(hooks, dict) or not isinstance(hooks.setdefault("SessionEnd", []), list):
        raise HindsightError(f"{settings}: 'hooks.SessionEnd' is not a list; nothing was changed")
    if any(claude_settings.session_end_hooks(doc)):
        return f"hook already installed in {settings}"
    hooks["SessionEnd"].append({"hooks": [{"type": "command", "command": command}]})
    backup = claude_settings.save(settings, raw, doc)
    return f"SessionEnd hook added to {settings}" + (f" (backup: {backup})" if backup else "")
