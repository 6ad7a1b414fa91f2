"""hindsight apply: the report and memory from any judge's lessons JSON (bad JSON writes nothing)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson

from hindsight import lessons, pipeline
from hindsight.context import Context
from hindsight.errors import HindsightError


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
    applied = pipeline.apply(ctx, judgement)
    summary = {
        "lessons": len(applied.lessons),
        "already_reported": applied.already_reported,
        "lessons_added": len(applied.memory.added),
        "duplicates_refused": len(applied.memory.duplicates),
        "pruned": len(applied.memory.pruned),
        "quarantined": applied.quarantined,
        "report": applied.report_path,
    }
    if args.json:
        sys.stdout.buffer.write(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        print(
            f"{summary['lessons']} new lessons ({summary['already_reported']} reported before); memory: "
            f"{summary['lessons_added']} added, {summary['duplicates_refused']} duplicates, {summary['pruned']} pruned"
        )
        if applied.report_path:
            print(f"report: {applied.report_path}")
    return 0
