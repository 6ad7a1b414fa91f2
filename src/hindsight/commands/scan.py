"""hindsight scan: the pending transcripts, read for real counts; writes nothing at all."""

from __future__ import annotations

import argparse
from typing import Any

from hindsight import clock, discover, state
from hindsight.context import Context
from hindsight.fmt import count, printable
from hindsight.output import print_json
from hindsight.session import ReadStats


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    now = clock.now()
    saved = state.load(ctx.memory_dir, tolerate_corrupt=bool(args.since))
    since = discover.window_start(args.since, saved, now)
    window = discover.window(args.since, saved, now)
    groups = discover.find(ctx, window)
    rows: list[dict[str, Any]] = []
    totals = ReadStats()
    size = 0
    for group, session in zip(groups, discover.read(groups), strict=True):
        for transcript in group.files:
            stats = session.file_stats.get(transcript.path, ReadStats(files_unreadable=1))
            totals.merge(stats)
            size += transcript.size
            rows.append(
                {
                    "path": str(transcript.path),
                    "agent": transcript.agent,
                    "session_id": transcript.session_id,
                    "subagent": transcript.subagent,
                    "cwd": transcript.cwd,
                    "size": transcript.size,
                    "mtime": clock.iso(clock.from_timestamp(transcript.mtime)),
                    "records": stats.records,
                    "skipped": stats.skipped_total,
                    "skipped_by_reason": dict(stats.skipped),
                }
            )
    summary = {
        "transcripts": len(rows),
        "sessions": len(groups),
        "bytes": size,
        "records": totals.records,
        "skipped": totals.skipped_total,
        "skipped_by_reason": dict(totals.skipped),
        "files_unreadable": totals.files_unreadable,
    }
    if args.json:
        doc = {
            "repo": str(ctx.repo.root),
            "worktrees": [str(w) for w in ctx.repo.worktrees],
            "memory_dir": str(ctx.memory_dir),
            "since": clock.iso(since),
            "transcripts": rows,
            "totals": summary,
            "elsewhere": [{"path": p, "cwd": c} for p, c in window.elsewhere],
        }
        print_json(doc)
        return 0
    print(
        f"repo {ctx.repo.root}"
        + (f" (+{len(ctx.repo.worktrees)} worktrees)" if ctx.repo.worktrees else "")
    )
    print(f"changed since {clock.iso(since)}")
    for row in rows:
        kind = "  subagent" if row["subagent"] else ""
        print(
            f"  {row['agent']:<11} {row['path']}  {row['size']:>10,} B  {row['records']:>6} records  {row['skipped']} skipped{kind}"
        )
    print(
        f"{summary['transcripts']} transcripts in {summary['sessions']} sessions, {size:,} bytes, "
        f"{summary['records']} records, {summary['skipped']} lines skipped"
    )
    if window.elsewhere:
        # A transcript copied into this repository's folder is not read: its records say it
        # ran in another folder (Claude Code names the folder after the cwd; hindsight checks).
        cwds = sorted({c for _, c in window.elsewhere})
        print(
            f"not read: {count(len(window.elsewhere), 'transcript')} in this repository's folder ran in "
            f"{printable(cwds[0])}"
            + (f" and {len(cwds) - 1} other folders" if len(cwds) > 1 else "")
        )
    return 0
