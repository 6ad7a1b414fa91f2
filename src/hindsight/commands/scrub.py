"""hindsight scrub: redact secrets that earlier versions already wrote, in place."""

from __future__ import annotations

import argparse

from hindsight import scrub
from hindsight.context import Context
from hindsight.output import print_json


def run(args: argparse.Namespace) -> int:
    memory_dir = Context.from_args(args).memory_dir
    changed = scrub.scrub(memory_dir, dry_run=args.dry_run)
    if args.json:
        print_json(
            {
                "memory_dir": str(memory_dir),
                "dry_run": args.dry_run,
                "files": [
                    {"path": str(s.path), "redacted": s.count, "kinds": s.kinds} for s in changed
                ],
            }
        )
        return 0
    if not changed:
        print(f"nothing to scrub in {memory_dir}")
        return 0
    verb = "would redact" if args.dry_run else "redacted"
    for s in changed:
        kinds = ", ".join(f"{kind} {n}" for kind, n in s.kinds.items())
        print(f"{s.path}: {verb} {s.count} ({kinds})")
    return 0
