"""hindsight commit: advance the watermark to the start of the last scan, never to now."""

from __future__ import annotations

import argparse

from hindsight import clock, pipeline, state
from hindsight.context import Context
from hindsight.errors import HindsightError

NOTHING = "nothing to commit: no scan is waiting (run 'hindsight digest' or 'hindsight run' first)"


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    # Checked before taking the lock, so a stray call creates nothing in the memory folder.
    if state.load(ctx.memory_dir).scan_started is None:
        raise HindsightError(NOTHING)
    watermark = pipeline.commit(ctx)
    if watermark is None:
        raise HindsightError(NOTHING)
    print(f"watermark moved to {clock.iso(watermark)}")
    return 0
