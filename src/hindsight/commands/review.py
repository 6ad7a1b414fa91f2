"""hindsight review [--json]: the person answers for each lesson that waits, on a terminal.

Only a person accepts. The answers are read from standard input, and only when standard input
and standard output are both terminals; otherwise review refuses and changes nothing. No flag,
variable or configuration setting accepts on its own, so text that tells an agent to run
``hindsight review`` gets nowhere: an agent's shell is no terminal (Claude Code's Bash tool has
none). This mirrors Deno's permission prompts, which are asked on a TTY only and denied without
one. ``--json`` lists the inbox and changes nothing, terminal or not.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO

from hindsight import clock, ledger, targets
from hindsight import review as inbox
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.output import print_json
from hindsight.redact import redact

ANSWERS = {
    "a": "accept",
    "e": "edit",
    "r": "reject",
    "f": "forget",
    "s": "skip",
    "q": "quit",
}
PROMPT = "[a]ccept  [e]dit  [r]eject  [f]orget  [s]kip  [q]uit? "
DONE = {
    "accept": "accepted",
    "edit": "edited",
    "reject": "rejected",
    "forget": "forgotten",
    "skip": "skipped",
}
TALLY = tuple(DONE.values())
NO_TERMINAL = (
    "hindsight: error: review takes your answers on a terminal only, and this is none; "
    "nothing changed ('hindsight review --json' lists what waits)"
)


def _terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):  # closed, or no descriptor at all
        return False


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    if args.json:
        print_json({"waiting": [inbox.as_json(x) for x in inbox.waiting(ctx.memory_dir)]})
        return 0
    # Asked on a TTY only, as Deno's permission prompts: whatever is not a person at a terminal
    # (an agent's tool, a hook, a pipe of "a" lines) can list, never accept.
    if not (_terminal(sys.stdin) and _terminal(sys.stdout)):
        print(NO_TERMINAL, file=sys.stderr)
        return 1
    records = inbox.waiting(ctx.memory_dir)
    if not records:
        print("nothing waits for your review")
        return 0
    return _review(ctx, records)


def _say(text: str) -> None:
    print(inbox.visible(redact(text)), flush=True)


def _line(prompt: str) -> str | None:
    """One line typed at the terminal, or None at the end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    return line.rstrip("\r\n") if line else None


def _answer() -> str:
    while True:
        line = _line(PROMPT)
        if line is None:
            print()
            return "quit"
        word = line.strip().lower()
        if word in ANSWERS:
            return ANSWERS[word]
        if word in ANSWERS.values():
            return word
        print("answer a, e, r, f, s or q")


def _show(
    record: ledger.Lesson, n: int, total: int, refs: dict[str, str], book: ledger.Ledger
) -> None:
    from hindsight.memory import Entry

    try:
        line = Entry.make(record.title, record.body or record.title, record.kind, clock.today())
        entry = line.line()
    except HindsightError:
        entry = f"- **{record.title}** {record.body} [{record.kind}]"
    print()
    _say(f"{n} of {total}  (id {record.id}, waiting since {record.since})")
    _say(f"  {entry}")
    _say(f"  why it waits: {record.reason or 'no reason recorded'}")
    # Each piece redacted alone: "evidence: <key>" read whole looks like a setting's secret.
    keys = ", ".join(redact(k) for k in record.evidence) or "none recorded"
    print(inbox.visible(f"  evidence: {keys}"))
    if record.key in refs:
        print(inbox.visible(f"  sessions: {redact(refs[record.key])}"))
    life = [
        f"{at} {state}" + (f" ({note})" if note else "")
        for at, state, note in book.history(record.id)
    ]
    _say(f"  history: {'; '.join(life[-3:])}")


def _review(ctx: Context, records: list[ledger.Lesson]) -> int:
    from hindsight import keeping

    store = targets.resolve(ctx, targets.CLAUDE).store
    book = ledger.Ledger(ctx.memory_dir)
    refs = inbox.references(ctx.memory_dir, records)
    tally = dict.fromkeys(TALLY, 0)
    for n, record in enumerate(records, 1):
        _show(record, n, len(records), refs, book)
        answer = _answer()
        if answer == "quit":
            tally["skipped"] += len(records) - n + 1
            break
        current = book.by_key().get(record.key)
        if current is None or current.state != ledger.WAITING:
            # Another command answered for it meanwhile (a promote, a forget): theirs stands.
            _say(f"  no longer waits ({current.state if current else 'gone'}); left as it is")
            tally["skipped"] += 1
            continue
        today = clock.today()
        try:
            if answer == "accept":
                keeping.take_in(store, current, ledger.ACCEPTED, today)
                _say(f"  accepted into memory: {current.title}")
            elif answer == "edit":
                edited = _edit(ctx, current)
                if edited is None:
                    tally["skipped"] += len(records) - n + 1
                    break
                title, body = edited
                keeping.take_in(store, current, ledger.ACCEPTED, today, title=title, body=body)
                answer = "edit" if (title, body) != (current.title, current.body) else "accept"
                _say(f"  accepted into memory: {title}")
            elif answer == "reject":
                keeping.move(store, current, ledger.REPORT, "rejected in review", today)
                _say("  rejected: it stays in the report")
            elif answer == "forget":
                keeping.move(store, current, ledger.FORGOTTEN, "forgotten in review", today)
                _say("  forgotten: it never enters memory again")
        except HindsightError as exc:
            _say(f"  not done: {exc}; it still waits")
            answer = "skip"
        tally[DONE[answer]] += 1
    print()
    print(", ".join(f"{name} {tally[name]}" for name in TALLY))
    return 0


def _edit(ctx: Context, record: ledger.Lesson) -> tuple[str, str] | None:
    """A new title and body, one line each (an empty line keeps the old); None at the end of
    input. The person's words pass the same check as ``memory add``."""
    from hindsight import admit

    title = _line("  title (empty keeps it): ")
    if title is None:
        return None
    body = _line("  body (empty keeps it): ")
    if body is None:
        return None
    title, body = title.strip() or record.title, body.strip() or record.body
    text = f"{title}\n{body}"
    if (title, body) != (record.title, record.body) and (
        admit.random_tokens(text) or admit.credential_context(text)
    ):
        root = ctx.repo.root if ctx.repo.is_git else None
        if reason := admit.denial(text, admit.in_repository(root, ctx.memory_dir)):
            raise HindsightError(reason)
    return title, body
