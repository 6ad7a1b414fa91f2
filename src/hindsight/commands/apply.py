"""hindsight apply: the report and memory from any judge's lessons JSON (bad JSON writes nothing)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import orjson

from hindsight import lessons, pipeline, state, targets
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.fmt import clip, count
from hindsight.output import print_json


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    source = "stdin" if args.lessons == "-" else args.lessons
    try:
        raw = sys.stdin.buffer.read() if args.lessons == "-" else Path(args.lessons).read_bytes()
    except OSError as exc:
        raise HindsightError(f"cannot read {source}: {exc.strerror}") from exc
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise HindsightError(f"{source} is not valid JSON: {exc}") from exc
    judgement = lessons.validate(doc)
    # A model can be fooled too: screen its lessons against what the user and agent really said,
    # re-read from the sessions the digest covered.
    saved = state.load(ctx.memory_dir)
    gathered = pipeline.gather(ctx, None, since_at=saved.scan_since) if saved.scan_since else None
    # The findings map the judge's evidence keys back to sessions: the trust gate admits to memory
    # only what the trusted evidence of the cited findings supports.
    findings = pipeline.find(gathered) if gathered else []
    applied = pipeline.apply(
        ctx,
        judgement,
        gathered=gathered,
        findings=findings,
        max_new=args.max_new,
        target_names=targets.expand(args.target),
    )
    summary: dict[str, Any] = {
        "lessons": len(applied.lessons),
        "already_reported": applied.already_reported,
        "lessons_added": len(applied.memory.added),
        "duplicates_refused": len(applied.memory.duplicates),
        "pruned": len(applied.memory.pruned),
        "quarantined": applied.quarantined,
        "held": len(applied.held),
        "kept_out": applied.kept_out,
        "report": applied.report_path,
    }
    if applied.targets:  # AGENTS.md, GEMINI.md: only where --target asked for them
        summary["targets"] = targets.summary(applied.targets, ctx)
    if args.json:
        print_json(summary)
    else:
        print(
            f"{count(len(applied.lessons), 'new lesson')} ({summary['already_reported']} reported "
            f"before); memory: {summary['lessons_added']} added, "
            f"{summary['duplicates_refused']} duplicates, {summary['pruned']} pruned; "
            f"{summary['quarantined']} quarantined"
        )
        # What became of the judge's memory picks, one line each: a skill's agent tells the
        # user what was added and why the rest stayed in the report.
        for entry in applied.memory.added:
            print(f"added: {clip(entry.title, 100)}")
        for title, reason in applied.held.items():
            print(f"report only: {clip(title, 100)}: {reason}")
        for item in applied.quarantine:
            print(f"quarantined: {item.reason} (from {item.where}, sha256 {item.digest})")
        if applied.report_path:
            print(f"report: {applied.report_path}")
        targets.print_summary(targets.summary(applied.targets, ctx))
    return 0
