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
