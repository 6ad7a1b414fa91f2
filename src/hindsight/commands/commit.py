"""hindsight commit: advance the watermark to the start of the last scan, never to now."""

from __future__ import annotations

import argparse

from hindsight import clock, fsutil, state
from hindsight.context import Context
from hindsight.errors import HindsightError


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    if state.load(ctx.memory_dir).scan_started is None:
        raise HindsightError(
            "nothing to commit: no scan is waiting (run 'hindsight digest' or 'hindsight run' first)"
        )
    with fsutil.locked(ctx.memory_dir / "hindsight" / ".lock"):
        saved = state.load(ctx.memory_dir)
        if saved.scan_started is None:
            raise HindsightError(
                "nothing to commit: no scan is waiting (run 'hindsight digest' or 'hindsight run' first)"
            )
        commit(ctx, saved)
    print(f"watermark moved to {clock.iso(saved.last_scan or saved.scan_started)}")
    return 0


def commit(ctx: Context, saved: state.State) -> None:
    """Move last_scan to the recorded scan start: what changed during the run is read again."""
    if saved.scan_started is None:
        return
    if saved.last_scan is None or saved.scan_started > saved.last_scan:
        saved.last_scan = saved.scan_started
    saved.scan_started = None
    state.save(ctx.memory_dir, saved)
