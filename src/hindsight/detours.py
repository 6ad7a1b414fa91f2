"""Ways around a rule of the user's: memory never teaches them.

When one of the user's hooks or permission settings refuses a call, the rule is the user's
decision. An agent that then reaches the same target another way (``rm -rf build`` refused, then
``python3 -c "import shutil; shutil.rmtree('build')"``) got past it; a lesson naming that command
would tell every later session how to evade the user's safeguard. Memory may say the call was
refused and not to retry it (detect/failures.repeated_refusals); the command that got past it
stays in the report.
"""

from __future__ import annotations

import functools
import re

from hindsight import session as s
from hindsight.detect import steps

_BY_RULE = (s.BY_HOOK, s.BY_PERMISSION)
# Steps that only move the shell or print: the folder a chain starts with is no target.
_NO_TARGET = frozenset({"cd", "pushd", "popd", "echo", "printf", "sleep", "true"})
# The words of a step as targets: names and paths, wherever they stand (inside a `python3 -c`
# program's string too).
_TOKEN = functools.cache(lambda: re.compile(r"[\w.~/-]*\w[\w.~/-]*"))


class Detours:
    """The commands (whole, and the steps of them) that worked after one of the user's rules
    refused a call earlier in the session, acting on what the refused call acted on: ``named``
    shares any name or path with it, ``pathed`` a path or file name (a slash or a dot inside)."""

    def __init__(self, sess: s.Session) -> None:
        self.named: set[str] = set()
        self.pathed: set[str] = set()
        root = (sess.cwd or "").rstrip("/")
        calls = [e.tool for e in sess.events if e.tool is not None and e.subagent is None]
        refused: set[str] = set()  # the targets of every refusal so far
        for call in calls:
            if call.status == s.BLOCKED and call.refused_by in _BY_RULE:
                refused |= _targets(call, root)
                continue
            if not (refused and call.command and call.status == s.OK):
                continue
            for part in (call.command, *_acting(call.command)):
                shared = refused & _targets_of(part, root)
                if shared:
                    self.named.add(part)
                    if any("/" in t or "." in t for t in shared):
                        self.pathed.add(part)


def _acting(command: str) -> list[str]:
    return [p for p in steps.split(command) if steps.program_of(p) not in _NO_TARGET]


def _targets(call: s.ToolCall, root: str) -> set[str]:
    if call.command is None:
        return {t for p in call.paths for t in _targets_of(p, root)}
    return {t for step in _acting(call.command) for t in _targets_of(step, root)}


def _targets_of(step: str, root: str) -> set[str]:
    """A step's names and paths, its program and flags left out, each path relative to the
    session's folder ("/repo/dist/app.js" and "./dist/app.js" are "dist/app.js")."""
    words = _TOKEN().findall(step)
    program = steps.program_of(step)
    out: set[str] = set()
    for word in words:
        if word.startswith("-") or word == program:
            continue
        if root and word.startswith(root + "/"):
            word = word[len(root) + 1 :]
        word = word.removeprefix("./").rstrip("/")
        # The session's folder or one above it (a path with a space splits there) is no target.
        if len(word) > 2 and not (root and root.startswith(word)):
            out.add(word)
    return out
