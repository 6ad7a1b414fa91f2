"""hindsight status: where the files live, the watermark, what is pending, how the last run went."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hindsight import clock, discover, layout, review, sources, state
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.fmt import count
from hindsight.memory import MemoryStore
from hindsight.output import print_json
from hindsight.report import reports_dir


def _tail(memory_dir: Path, lines: int = 3) -> list[str]:
    """The hook log's last lines, redacted (logs written by older versions were not), read
    without following a link out of the memory folder."""
    from hindsight import confined
    from hindsight.redact import redact

    path = layout.hook_log(memory_dir)
    try:
        return [redact(line) for line in confined.read_lines(memory_dir, path, lines)]
    except HindsightError as exc:
        return [f"(not shown: {exc})"]


def _unopenable(groups: list[discover.Group]) -> list[tuple[str, str]]:
    """Pending files this user cannot open: they stay pending until they can be read."""
    out = []
    for group in groups:
        for t in group.files:
            try:
                with open(t.path, "rb", buffering=0):
                    pass
            except OSError as exc:
                out.append((str(t.path), exc.strerror or "cannot be opened"))
    return out


def _settings(ctx: Context) -> list[Path]:
    return [ctx.claude_home / "settings.json", ctx.repo.root / ".claude" / "settings.json"]


def _has_hook(settings: Path) -> bool:
    from hindsight.commands.install import HOOK_MARK

    try:
        return settings.is_file() and HOOK_MARK in settings.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    store = MemoryStore(ctx.memory_dir)
    info: dict[str, Any] = {
        "repo": str(ctx.repo.root),
        "worktrees": [str(w) for w in ctx.repo.worktrees],
        "claude_home": str(ctx.claude_home),
        "homes": {name: str(ctx.home(name)) for name in sources.AGENTS},
        "memory": str(store.path),
        "archive": str(store.archive_path),
        "reports": str(reports_dir(ctx.memory_dir)),
        "state": str(state.state_path(ctx.memory_dir)),
    }
    home = ctx.claude_home
    info["claude_home_exists"] = home.is_dir()
    info["hook_installed"] = [str(p) for p in _settings(ctx) if _has_hook(p)]
    info["skill_installed"] = [
        str(p)
        for p in (
            home / "skills/hindsight/SKILL.md",
            ctx.repo.root / ".claude/skills/hindsight/SKILL.md",
        )
        if p.is_file()
    ]
    problems: list[str] = []
    try:
        doc = store.read()
        info["memory_entries"] = len(doc.lines)
    except HindsightError as exc:
        problems.append(str(exc))
        info["memory_entries"] = None
    try:
        saved = state.load(ctx.memory_dir)
        info["watermark"] = clock.iso(saved.last_scan) if saved.last_scan else None
        info["scan_waiting_for_commit"] = (
            clock.iso(saved.scan_started) if saved.scan_started else None
        )
        info["last_run"] = saved.last_run or None
        window = discover.window(None, saved, clock.now())
        pending = discover.find(ctx, window)
        info["pending_sessions"] = len(pending)
        info["unreadable"] = [
            {"path": path, "why": why} for path, why in window.problems + _unopenable(pending)
        ]
    except HindsightError as exc:
        problems.append(str(exc))
    try:
        info["waiting"] = len(review.waiting(ctx.memory_dir))
    except HindsightError as exc:
        problems.append(str(exc))
        info["waiting"] = None
    info["hook_log"] = _tail(ctx.memory_dir)
    info["problems"] = problems
    if args.json:
        print_json(info)
        return 0
    _print_text(info, problems)
    return 0


def _print_text(info: dict[str, Any], problems: list[str]) -> None:
    from hindsight.redact import redact

    for key in ("repo", "memory", "archive", "reports", "state"):
        print(redact(f"{key:<10} {info[key]}"))
    for name, home in info["homes"].items():
        print(redact(f"{name:<10} {home}"))
    if not info["claude_home_exists"]:
        print(f"{'claude':<10} no Claude Code home at {info['claude_home']} (no sessions to read)")
    hook = ", ".join(info["hook_installed"]) or "not installed ('hindsight install --hook')"
    skill = ", ".join(info["skill_installed"]) or "not installed ('hindsight install --skill')"
    print(f"{'hook':<10} {hook}")
    print(f"{'skill':<10} {skill}")
    if info.get("memory_entries") is not None:
        print(f"{'entries':<10} {info['memory_entries']} in the hindsight block")
    print(
        f"{'watermark':<10} {info.get('watermark') or 'none yet (the first run reads the last 3 days)'}"
    )
    if "pending_sessions" in info:
        print(f"{'pending':<10} {count(info['pending_sessions'], 'session')}")
    for item in info.get("unreadable", []):
        print(f"{'unread':<10} {item['path']}: {item['why']} (stays pending)")
    last = info.get("last_run")
    if last:
        verdict = "ok" if last.get("ok") else f"FAILED: {last.get('error')}"
        print(redact(f"{'last run':<10} {last.get('at')} {verdict}"))
        spent = last.get("judge")
        if isinstance(spent, dict) and spent.get("bytes_sent"):
            from hindsight.judges import Spent

            line = Spent(
                str(spent.get("name")),
                spent.get("model"),
                int(spent["bytes_sent"]),
                spent.get("input_tokens"),
                spent.get("output_tokens"),
            ).line()
            print(f"{'judge':<10} {line}")
    for line in info["hook_log"]:
        print(f"{'hook log':<10} {line}")
    for problem in problems:
        print(redact(f"problem    {problem}"))
    nudge = review.nudge(info.get("waiting") or 0)
    if nudge:
        print(nudge)
