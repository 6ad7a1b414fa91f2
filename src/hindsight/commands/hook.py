"""hindsight hook session-end: read Claude Code's hook JSON, start the run detached, return at once.

Claude Code waits for a SessionEnd hook before it exits, so the run happens in a detached child;
what it did, errors included, goes to <memory dir>/hindsight/hook.log, where `status` shows it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import orjson

from hindsight import clock, fsutil, layout
from hindsight.context import Context
from hindsight.redact import redact


def log(memory_dir: Path, line: str) -> None:
    path = layout.hook_log(memory_dir)
    with contextlib.suppress(Exception):
        fsutil.confine(memory_dir, path)
        fsutil.ensure_dir(path.parent)

        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"{clock.iso(clock.now())} {redact(line)}\n")
        path.chmod(0o600)


def run(args: argparse.Namespace) -> int:
    if os.environ.get("HINDSIGHT_JUDGE_CHILD"):
        return 0  # the end of a judge's own `claude -p` session: never a run from inside a run
    if args.event == "run-logged":
        return _run_logged(args)
    raw = sys.stdin.buffer.read() if not sys.stdin.isatty() else b""
    try:
        payload = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError:
        payload = {}
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    repo = str(cwd) if isinstance(cwd, str) and Path(cwd).is_dir() else args.repo
    ctx = Context.from_args(args, repo)
    try:
        memory_dir = ctx.memory_dir
    except Exception as exc:
        print(f"hindsight: hook: {exc}", file=sys.stderr)
        return 0
    child = [sys.executable, "-m", "hindsight", "hook", "run-logged", "--repo", repo]
    child += ctx.where_options()
    for option in ("judge", "model", "base_url", "max_input_bytes"):
        value = getattr(args, option, None)
        if value:
            child += [f"--{option.replace('_', '-')}", str(value)]
    session = payload.get("session_id", "?") if isinstance(payload, dict) else "?"
    try:
        proc = subprocess.Popen(
            child,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd=repo,
        )
    except OSError as exc:
        log(memory_dir, f"session-end {session}: could not start the run: {exc}")
        return 0
    log(memory_dir, f"session-end {session}: started run (pid {proc.pid})")
    return 0


def _run_logged(args: argparse.Namespace) -> int:
    """The detached run: the real `run`, its outcome as one line in hook.log."""
    from hindsight import config
    from hindsight.cli import build_parser
    from hindsight.commands import run as run_command
    from hindsight.errors import HindsightError

    ctx = Context.from_args(args)
    judging = ["--judge", args.judge, "--max-input-bytes", str(args.max_input_bytes)]
    for option in ("model", "base_url"):
        if getattr(args, option, None):
            judging += [f"--{option.replace('_', '-')}", getattr(args, option)]
    run_args = build_parser("run").parse_args(["run", "--repo", args.repo, "--quiet", *judging])
    try:
        settings = config.load(args.repo)  # judge, max-new, target and the opt-out, as for `run`
        if not settings.enabled:
            log(ctx.memory_dir, f"run skipped: {settings.off_line()}")
            return 0
        # The hook's own options were settled already (its flags over the files, by main):
        # the files fill only what the hook has no option for (max-new, target).
        config.apply(run_args, settings, set(vars(args)))
        summary = run_command.execute(ctx, run_args, run_command.chosen_judge(run_args))
    except HindsightError as exc:
        log(ctx.memory_dir, f"run FAILED: {exc}")
        return 1
    except Exception as exc:
        log(ctx.memory_dir, f"run FAILED: internal error: {type(exc).__name__}: {exc}")
        return 1
    log(
        ctx.memory_dir,
        f"run ok: {summary['sessions_read']} sessions, {summary['lessons']} new lessons, "
        f"{summary['lessons_added']} added to memory",
    )
    return 0
