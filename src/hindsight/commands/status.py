"""hindsight status: where the files live, the watermark, what is pending, how the last run went."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hindsight import clock, discover, layout, state
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.memory import MemoryStore
from hindsight.output import print_json
from hindsight.report import reports_dir


def _tail(path: Path, lines: int = 3) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
    except OSError:
        return []


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    store = MemoryStore(ctx.memory_dir)
    info: dict[str, Any] = {
        "repo": str(ctx.repo.root),
        "worktrees": [str(w) for w in ctx.repo.worktrees],
        "claude_home": str(ctx.claude_home),
        "memory": str(store.path),
        "archive": str(store.archive_path),
        "reports": str(reports_dir(ctx.memory_dir)),
        "state": str(state.state_path(ctx.memory_dir)),
    }
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
        since = discover.window_start(None, saved, clock.now())
        info["pending_sessions"] = len(discover.find(ctx, since))
    except HindsightError as exc:
        problems.append(str(exc))
    info["hook_log"] = _tail(layout.hook_log(ctx.memory_dir))
    info["problems"] = problems
    if args.json:
        print_json(info)
        return 0
    for key in ("repo", "memory", "archive", "reports", "state"):
        print(f"{key:<10} {info[key]}")
    if info.get("memory_entries") is not None:
        print(f"{'entries':<10} {info['memory_entries']} in the hindsight block")
    print(
        f"{'watermark':<10} {info.get('watermark') or 'none yet (the first run reads the last 3 days)'}"
    )
    if "pending_sessions" in info:
        print(f"{'pending':<10} {info['pending_sessions']} sessions")
    last = info.get("last_run")
    if last:
        verdict = "ok" if last.get("ok") else f"FAILED: {last.get('error')}"
        print(f"{'last run':<10} {last.get('at')} {verdict}")
    for line in info["hook_log"]:
        print(f"{'hook log':<10} {line}")
    for problem in problems:
        print(f"problem    {problem}")
    return 0
