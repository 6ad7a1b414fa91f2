"""hindsight run: the whole pipeline under the lock, then the watermark."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from hindsight import clock, fsutil, judges, pipeline, targets
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.fmt import count
from hindsight.lessons import Judgement
from hindsight.output import print_json
from hindsight.redact import redact


def chosen_judge(args: argparse.Namespace) -> judges.Judge:
    """The judge --judge names, with its settings from the flags (and its own environment)."""
    options = judges.Options(
        model=args.model,
        base_url=args.base_url,
        max_input_bytes=args.max_input_bytes,
        timeout_s=judges.timeout_from_env(),
    )
    return judges.get(args.judge, options)


def run(args: argparse.Namespace) -> int:
    judge = chosen_judge(args)
    if args.example:
        return _example(args, judge)
    summary = execute(Context.from_args(args), args, judge)
    if args.json:
        print_json(summary)
    elif not args.quiet:
        _print(summary)
    return 0


def _example(args: argparse.Namespace, judge: judges.Judge) -> int:
    """The real pipeline on the shipped recordings, in a fresh temporary repo: works on any machine."""
    import tempfile
    from pathlib import Path

    from hindsight import example

    # The temporary repo goes when the example ends: a demo leaves nothing behind in /tmp.
    with tempfile.TemporaryDirectory(prefix="hindsight-example-") as tmp:
        base = Path(tmp)
        ex = example.install(base)
        ctx = Context(str(ex.root), None, args.memory_dir, ex.homes)
        summary = _run(ctx, args, judge)
        if args.json:
            print_json({"example": str(base), **summary})
            return 0
        if not args.quiet:
            print(
                "example: sessions recorded with Claude Code 2.1.328, Codex CLI 0.171.0 and "
                f"Gemini CLI 0.61.0, replayed in {base} "
                "(removed afterwards)"
            )
            _print(summary)
            memory = Path(summary["memory"])
            if memory.exists():
                print(f"\n{memory}:\n")
                print(memory.read_text(encoding="utf-8"))
    return 0


def execute(ctx: Context, args: argparse.Namespace, judge: judges.Judge) -> dict[str, Any]:
    """The run, its outcome remembered for `status` whether it succeeded or not."""
    try:
        return _run(ctx, args, judge)
    except HindsightError as exc:
        if not args.dry_run:
            outcome = {"at": clock.iso(clock.now()), "ok": False, "error": str(exc)}
            pipeline.record_outcome(ctx, {**outcome, "judge": _spent(judge)})
        raise


def _run(ctx: Context, args: argparse.Namespace, judge: judges.Judge) -> dict[str, Any]:
    show = not (args.quiet or args.json)
    lock = fsutil.locked(pipeline.lock_path(ctx)) if not args.dry_run else contextlib.nullcontext()
    gathered: pipeline.Gathered | None = None
    if not ctx.memory_dir.exists():
        # A repo with no sessions yet gets no folder: look before anything takes the lock. With
        # no folder there is no state to race on, so what was read here is used as is.
        gathered = pipeline.gather(ctx, args.since, show_progress=show)
        if not gathered.sessions:
            return _nothing(ctx, gathered, bool(args.dry_run))
    with lock:
        if gathered is None:
            gathered = pipeline.gather(ctx, args.since, show_progress=show)
        findings = pipeline.find(gathered)

        evidence = None
        if judge.reads == judges.DIGEST and findings:
            from hindsight import digest

            evidence = digest.build(gathered, findings, judge.budget)[0]
        plan = judge.plan(evidence) if evidence is not None else None
        if args.dry_run and plan is not None:
            judgement = Judgement(judge.name)  # a dry run sends nothing: it shows what would go
        else:
            judgement = judge.judge(findings, evidence)
            if judge.spent is not None:
                judgement.cost = judge.spent.line()

        applied = pipeline.apply(
            ctx,
            judgement,
            gathered=gathered,
            findings=findings,
            dry_run=args.dry_run,
            max_new=args.max_new,
            own_judge=judge.name == "rules",
            commit=True,
            target_names=targets.expand(args.target),
        )
        watermark = None if args.dry_run else gathered.scan_started
    summary: dict[str, Any] = {
        "sessions_read": len(gathered.sessions),
        "transcripts": gathered.transcripts,
        "bytes_read": gathered.bytes_read,
        "lines_skipped": gathered.stats.skipped_total,
        "findings": len(findings),
        "lessons": len(applied.lessons),
        "already_reported": applied.already_reported,
        "lessons_added": len(applied.memory.added),
        "duplicates_refused": len(applied.memory.duplicates),
        "too_big": len(applied.memory.too_big),
        "over_run_cap": applied.over_run_cap,
        "pruned": len(applied.memory.pruned),
        "no_room": len(applied.memory.no_room),
        "notes": list(applied.notes),
        "quarantined": applied.quarantined,
        "held": len(applied.held),
        "kept_out": applied.kept_out,
        "memory": str(ctx.memory_dir / "MEMORY.md"),
        "report": applied.report_path,
        "watermark": clock.iso(watermark) if watermark else None,
        "dry_run": bool(args.dry_run),
        "unread": [{"path": path, "why": why} for path, why in gathered.unread],
        "judge": _spent(judge),
        "waiting": _waiting(ctx),
    }
    if applied.targets:  # AGENTS.md, GEMINI.md: only where --target asked for them
        summary["targets"] = targets.summary(applied.targets, ctx)
    if plan is not None and args.dry_run:
        summary["request"] = {
            "bytes": plan.bytes,
            "estimated_tokens": plan.estimated_tokens,
            "max_input_bytes": args.max_input_bytes,
            "system": plan.system,
            "user": plan.user,
        }
    if args.dry_run:
        summary["would_add"] = [e.line() for e in applied.memory.added]
        # Redacted where it is printed (print_json redacts every string): with --quiet nothing is,
        # and redacting a long section again costs ~13 ms (its parts were redacted when made).
        summary["report_section"] = applied.section if applied.lessons else ""
    else:
        outcome = {
            k: summary[k]
            for k in ("sessions_read", "findings", "lessons_added", "duplicates_refused", "judge")
        }
        pipeline.record_outcome(ctx, {"at": clock.iso(clock.now()), "ok": True, **outcome})
    return summary


def _spent(judge: judges.Judge) -> dict[str, Any]:
    """The judge of a run and what it cost, for the summary and `status` (never a key)."""
    if judge.spent is None:
        return {"name": judge.name}
    spent = judge.spent._asdict()
    del spent["judge"]
    return {"name": judge.name, **spent}


def _waiting(ctx: Context) -> int:
    """How many lessons wait in the review inbox (the ledger as it stands after the run)."""
    from hindsight import review

    return len(review.waiting(ctx.memory_dir))


def _nothing(ctx: Context, gathered: pipeline.Gathered, dry_run: bool) -> dict[str, Any]:
    # Also when files could not be read: they are named, and stay pending.
    zero = (
        "findings",
        "lessons",
        "already_reported",
        "lessons_added",
        "duplicates_refused",
        "too_big",
        "over_run_cap",
        "pruned",
        "quarantined",
        "held",
    )
    summary: dict[str, Any] = {
        "sessions_read": 0,
        "transcripts": 0,
        "bytes_read": 0,
        "lines_skipped": gathered.stats.skipped_total,
        **dict.fromkeys(zero, 0),
        "memory": str(ctx.memory_dir / "MEMORY.md"),
        "report": None,
        "watermark": None,
        "dry_run": dry_run,
        "nothing_to_read": True,
        "waiting": _waiting(ctx),
        "unread": [{"path": path, "why": why} for path, why in gathered.unread],
    }
    if dry_run:
        summary.update(would_add=[], report_section="")
    return summary


def _print(summary: dict[str, Any]) -> None:
    if summary.get("nothing_to_read"):
        print(
            "nothing to read: no session of this repo changed in the window (first run: the last 3 days)"
        )
        for item in summary["unread"]:
            print(f"not read, stays pending: {item['path']} ({item['why']})")
        _print_waiting(summary)
        return

    request = summary.get("request")
    if request:
        print(f"would send the {summary['judge']['name']} judge:\n")
        print(request["system"])
        print()
        print(request["user"])
    if summary["dry_run"]:
        print("dry run: nothing written" + (", nothing sent" if request else ""))
        for line in summary["would_add"]:
            print(f"would add to memory: {line}")
        if summary["report_section"]:
            print("\nwould append to the report:\n")
            print(redact(summary["report_section"]))
    if request:
        print(
            f"the {summary['judge']['name']} judge would be sent {request['bytes']} bytes "
            f"(~{request['estimated_tokens']} tokens; --max-input-bytes {request['max_input_bytes']})"
        )
    print(
        f"read {count(summary['sessions_read'], 'session')} "
        f"({count(summary['transcripts'], 'transcript')}, "
        f"{count(summary['lines_skipped'], 'line')} skipped); "
        f"{count(summary['findings'], 'finding')}, {count(summary['lessons'], 'new lesson')}"
    )
    for item in summary.get("unread", []):
        print(f"not read, stays pending: {item['path']} ({item['why']})")
    if not summary["dry_run"]:
        print(
            f"memory: {summary['lessons_added']} added, {summary['duplicates_refused']} refused as duplicates, "
            f"{summary['pruned']} pruned  ({summary['memory']})"
        )
        if summary.get("no_room"):
            print(
                f"{count(summary['no_room'], 'lesson')} left to the report: your own entries "
                "fill the block"
            )
        for note in summary.get("notes", []):
            print(note)
        targets.print_summary(summary.get("targets", {}))
        if summary["report"]:
            print(f"report: {summary['report']}")
    _print_waiting(summary)


def _print_waiting(summary: dict[str, Any]) -> None:
    from hindsight import review

    nudge = review.nudge(summary.get("waiting") or 0)
    if nudge:
        print(nudge)
