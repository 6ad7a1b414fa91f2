"""hindsight uninstall: take out what `install` and the plugin put in, and nothing else.

The SessionEnd hook entries whose command is hindsight's (other hooks, in the same group too,
kept), the skill file when it is hindsight's own, and the plugin through Claude Code's own
`claude plugin uninstall` (hindsight never edits Claude Code's plugin records by hand)."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hindsight import claude_settings, fsutil
from hindsight.context import Context

PLUGIN_PREFIX = "hindsight@"


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    base = ctx.claude_home if args.scope == "user" else ctx.repo.root / ".claude"
    settings = base / "settings.json"
    lines = [
        remove_hooks(settings, own_folder=args.scope == "project"),
        remove_skill(base / "skills" / "hindsight"),
    ]
    plugins = enabled_plugins(settings)
    failed = False
    for plugin in plugins:
        line, ok = uninstall_plugin(plugin, args.scope, ctx)
        lines.append(line)
        failed = failed or not ok
    for line in lines:
        if line:
            print(line)
    if not any(lines):
        print(f"nothing of hindsight's in {base}")
    return 1 if failed else 0


def remove_hooks(settings: Path, own_folder: bool = False) -> str:
    """The SessionEnd hook hindsight installed; ``own_folder``: the settings' folder is one
    install may have made (a project's .claude/, never the Claude home), removed when empty."""
    raw, doc = claude_settings.load(settings)
    found = list(claude_settings.session_end_hooks(doc))
    if not found:
        return ""
    groups: list[Any] = doc["hooks"]["SessionEnd"]
    for group, hook in found:
        group["hooks"].remove(hook)
    groups[:] = [g for g in groups if not (isinstance(g, dict) and g.get("hooks") == [])]
    if not groups:
        del doc["hooks"]["SessionEnd"]
    if not doc["hooks"]:
        del doc["hooks"]
    if not doc:
        # The file held hindsight's hook and nothing else (install wrote it): nothing of the
        # user's to keep, so no `{}` and no backup left behind, in a repository's working tree
        # least of all (first-use pass, session 8).
        settings.unlink()
        if own_folder:
            with contextlib.suppress(OSError):
                settings.parent.rmdir()  # only when empty
        return f"SessionEnd hook removed: {settings} held nothing else and is gone"
    backup = claude_settings.save(settings, raw, doc)
    return f"SessionEnd hook removed from {settings} (backup: {backup})"


def remove_skill(folder: Path) -> str:
    """The skill file, only while it is hindsight's (its front matter names it)."""
    path = folder / "SKILL.md"
    text = fsutil.read_bytes(path)
    if text is None:
        return ""
    if not text.startswith(b"---\nname: hindsight\n"):
        return f"left {path}: it is not hindsight's skill"
    path.unlink()
    if not any(folder.iterdir()):
        folder.rmdir()
    return f"skill removed: {path}"


def enabled_plugins(settings: Path) -> list[str]:
    _, doc = claude_settings.load(settings)
    enabled = doc.get("enabledPlugins")
    return (
        sorted(p for p in enabled if p.startswith(PLUGIN_PREFIX))
        if isinstance(enabled, dict)
        else []
    )


def uninstall_plugin(plugin: str, scope: str, ctx: Context) -> tuple[str, bool]:
    command = ["claude", "plugin", "uninstall", plugin, "--scope", scope]
    claude = os.environ.get("HINDSIGHT_CLAUDE_BIN") or shutil.which("claude")
    if not claude:
        return f"plugin {plugin} is still installed: run `{' '.join(command)}`", False
    done = subprocess.run(
        [claude, *command[1:]],
        cwd=ctx.repo.root if scope == "project" else None,
        env={**os.environ, "CLAUDE_CONFIG_DIR": str(ctx.claude_home)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        return f"plugin {plugin} not removed: `{' '.join(command)}` failed: {why[0]}", False
    return f"plugin removed: {plugin} ({scope} scope)", True
