"""hindsight digest: the evidence of pending sessions for a model judge (the skill's first step)."""

from __future__ import annotations

import argparse
import sys

from hindsight import digest, fsutil, pipeline, state
from hindsight.context import Context
from hindsight.output import print_json


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    gathered = pipeline.gather(ctx, args.since)
    findings = pipeline.find(gathered)
    markdown, doc = digest.build(gathered, findings, args.max_bytes)
    # Record where this scan started: `hindsight commit` moves the watermark there after `apply`.
    with fsutil.locked(pipeline.lock_path(ctx)):
        saved = state.load(ctx.memory_dir, tolerate_corrupt=bool(args.since))
        saved.scan_started = gathered.scan_started
        saved.scan_since = gathered.since
        saved.scan_files = gathered.progress

        state.save(ctx.memory_dir, saved)
    if args.json:
        print_json(doc)
    else:
        sys.stdout.write(markdown)
    return 0
