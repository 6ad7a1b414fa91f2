"""hindsight memory show | add | prune | check."""

from __future__ import annotations

import argparse
import sys

from hindsight import admit, clock, targets
from hindsight.context import Context
from hindsight.memory import ENTRY_RE, Entry, MemoryStore, check, parse
from hindsight.output import print_json
from hindsight.redact import redact


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    if args.action == "list":
        return _list(ctx, args.state, args.json)
    if args.action in ("remove", "forget", "promote"):
        return _choose(ctx, args.action, args.lesson, getattr(args, "max_bytes", None))
    status = 0
    for name in targets.expand(args.target):
        status = max(status, _one(ctx, targets.resolve(ctx, name), args))
    return status


def _one(ctx: Context, target: targets.Target, args: argparse.Namespace) -> int:
    store = target.store
    action: str = args.action
    if action == "show":
        return _show(store, args.json)
    if action == "add":
        return _add(ctx, target, args)
    if action == "prune":
        result = targets.change(ctx, target, [], args.max_bytes, clock.today())
        if result.pruned:
            print(f"pruned {len(result.pruned)} entries to {store.archive_path}")
        else:
            print(f"{store.path}: the block is within the cap; nothing pruned")
        return 0
    return _check(store, targets.cap(target, args.max_bytes))


def _show(store: MemoryStore, as_json: bool) -> int:
    doc = store.read()
    if as_json:
        entries = []
        for line in doc.lines:
            match = ENTRY_RE.match(line)
            entries.append(match.groupdict() if match else {"raw": line})
        out = {"path": str(store.path), "has_block": doc.span is not None, "entries": entries}
        print_json(out)
        return 0
    if doc.span is None:
        print(f"no hindsight block in {store.path} yet", file=sys.stderr)
        return 0
    for line in doc.lines:
        print(redact(line))  # a block written by an older version (or by hand) may hold one
    return 0


def _add(ctx: Context, target: targets.Target, args: argparse.Namespace) -> int:
    store = target.store
    entry = Entry.make(args.title, args.body, args.kind, clock.today())
    text = f"{entry.title}\n{entry.body}"
    if admit.random_tokens(text) or admit.credential_context(text):
        root = ctx.repo.root if ctx.repo.is_git else None
        if reason := admit.denial(text, admit.in_repository(root, store.folder)):
            print(f"hindsight: error: not added, {reason}", file=sys.stderr)
            return 1
    result = targets.change(ctx, target, [entry], args.max_bytes, clock.today())
    if result.duplicates:
        print(
            f"not added: an entry titled like {entry.title!r} is already in memory or the archive"
        )
        return 0
    if result.too_big:
        size = len(entry.line().encode())
        print(
            f"hindsight: error: the entry alone ({size} bytes) does not fit the cap of {args.max_bytes} bytes; "
            "shorten it",
            file=sys.stderr,
        )
        return 1
    print(f"added to {store.path}: {entry.title}")
    if result.pruned:
        print(f"pruned {len(result.pruned)} oldest entries to {store.archive_path}")
    return 0


def _check(store: MemoryStore, max_bytes: int) -> int:
    doc = parse(store.read().text, store.path)
    problems = check(doc, max_bytes)
    if doc.span is None:
        print(f"{store.path}: no hindsight block yet; nothing to check")
        return 0
    if problems:
        for problem in problems:
            print(redact(f"{store.path}: {problem}"))
        return 1
    print(f"{store.path}: ok ({len(doc.lines)} entries)")
    return 0


def _list(ctx: Context, state: str | None, as_json: bool) -> int:
    from hindsight.ledger import Ledger

    lessons = [x for x in Ledger(ctx.memory_dir).all() if state is None or x.state == state]
    if as_json:
        print_json({"lessons": [x.as_json() for x in lessons]})
        return 0
    if not lessons:
        what = f"in state {state}" if state else "yet"
        print(f"no lessons {what} ({ctx.memory_dir})", file=sys.stderr)
        return 0
    for x in lessons:
        print(redact(f"{x.id}  {x.state:<9}  {x.since}  [{x.kind}] {x.title}"))
    return 0


_DONE = {
    "remove": ("removed", "removed from memory: {title} (it may come back on new evidence)"),
    "forget": ("forgotten", "forgotten: {title} (it never enters memory again)"),
}


def _choose(ctx: Context, action: str, ref: str, max_bytes: int | None) -> int:
    from hindsight import keeping, ledger
    from hindsight.errors import HindsightError

    record = ledger.Ledger(ctx.memory_dir).find(ref)
    today = clock.today()
    store = targets.resolve(ctx, targets.CLAUDE).store
    if action == "promote":
        if record.state in ledger.IN_BLOCK:
            raise HindsightError(f"'{record.title}' is in memory already")
        if record.state == ledger.FORGOTTEN:
            raise HindsightError(
                f"'{record.title}' was forgotten; add it anew with 'hindsight memory add'"
            )
        keeping.take_in(store, record, ledger.PROMOTED, today, max_bytes=max_bytes)
        print(redact(f"promoted into memory: {record.title}"))
        return 0
    state, said = _DONE[action]
    if record.state == state:
        print(redact(f"already {state}: {record.title}"))
        return 0
    keeping.move(store, record, state, f"{action} by you", today)
    _out_of_other_targets(ctx, record.key)
    print(redact(said.format(title=record.title)))
    return 0


def _out_of_other_targets(ctx: Context, key: str) -> None:
    """The same lesson's line in AGENTS.md or GEMINI.md, where an earlier run put it there."""
    from hindsight import fsutil, layout
    from hindsight.memory import key_of_line

    for name in targets.NAMES:
        if name == targets.CLAUDE:
            continue
        target = targets.resolve(ctx, name)
        if not target.store.path.is_file():
            continue
        doc = target.store.read()
        gone = [line for line in doc.lines if key_of_line(line) == key]
        if gone:
            with fsutil.locked(layout.lock(ctx.memory_dir)):
                target.store.swap_lines([], gone)
