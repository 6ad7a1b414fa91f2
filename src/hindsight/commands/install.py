"""hindsight install --skill / --hook: the Claude Code skill and the SessionEnd hook."""

from __future__ import annotations

import argparse
import shlex
import shutil
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
    """The command Claude Code runs at each session's end.

    In a project's settings (committed, shared): the bare ``hindsight``, found on each user's
    PATH, never this user's own paths. In the user's settings: the installed script by its
    absolute path, so the hook works whether or not hindsight is on PATH; never a path that
    goes away (uvx and pipx run from a cache), which would fail at every session's end.
    """
    parts = [*_program(args.scope == "project"), "hook", "session-end"]
    parts += Context.from_args(args).where_options(absolute=True)
    for option in ("judge", "model", "base_url"):
        value = getattr(args, option, None)
        if value:
            parts += [f"--{option.replace('_', '-')}", value]
    return " ".join(shlex.quote(p) for p in parts)


def _program(shared: bool) -> list[str]:
    if shared:
        return ["hindsight"]
    here = Path(sys.executable).parent / "hindsight"
    if not _ephemeral(here) and here.is_file():
        return [str(here)]
    found = shutil.which("hindsight")
    if found and not _ephemeral(Path(found)):
        return [str(Path(found).absolute())]
    if not _ephemeral(Path(sys.executable)):
        return [sys.executable, "-m", "hindsight"]
    raise HindsightError(
        "hindsight runs from a temporary cache here (uvx or pipx run), which a hook cannot rely "
        "on; install it for good first (see the README's Set-up), then run 'hindsight install --hook'"
    )


def _ephemeral(path: Path) -> bool:
    """A path a package runner cleans up: uv's and pipx's caches (~/.cache/uv/archive-v0/...,
    ~/.cache/pipx/...; macOS: ~/Library/Caches)."""
    return bool(set(path.absolute().parts) & {".cache", "archive-v0", "Caches"})


def install_hook(settings: Path, command: str) -> str:
    """Merge a SessionEnd hook into settings.json: other settings kept, idempotent, backup first."""
    raw, doc = claude_settings.load(settings)
    hooks = doc.setdefault("hooks", {})
    if not isinstance(hooks, dict) or not isinstance(hooks.setdefault("SessionEnd", []), list):
        raise HindsightError(f"{settings}: 'hooks.SessionEnd' is not a list; nothing was changed")
    ours = [hook for _, hook in claude_settings.session_end_hooks(doc)]
    if any(hook.get("command") == command for hook in ours):
        return f"hook already installed in {settings}"
    if ours:
        # Installed before with other options (a judge, another home, a new venv): the
        # command changes in place, so one run per session's end, never two.
        ours[0]["command"] = command
        done = "SessionEnd hook updated in"
    else:
        hooks["SessionEnd"].append({"hooks": [{"type": "command", "command": command}]})
        done = "SessionEnd hook added to"
    backup = claude_settings.save(settings, raw, doc)
    return f"{done} {settings}" + (f" (backup: {backup})" if backup else "")
