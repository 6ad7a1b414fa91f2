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

# The calls after a refusal where the agent tries its way around it.
WINDOW = 6
_BY_RULE = (s.BY_HOOK, s.BY_PERMISSION)
# What a refused call acted on: a path or a file name (a slash or a dot inside), not a program or
# a subcommand, which many unrelated calls share.
_TARGET = functools.cache(lambda: re.compile(r"[\w~-]*(?:[/.][\w~-]+)+/?"))


# Steps that only move the shell or print: the folder a chain starts with is no target.
_NO_TARGET = frozenset({"cd", "pushd", "popd", "echo", "printf", "sleep", "true"})


def _targets(call: s.ToolCall, cwd: str | None) -> set[str]:
    if call.command is None:
        return _targets_of(" ".join(call.paths), cwd)
    return {t for step in _acting(call.command) for t in _targets_of(step, cwd)}


def _acting(command: str) -> list[str]:
    return [p for p in steps.split(command) if steps.program_of(p) not in _NO_TARGET]


def _targets_of(text: str, cwd: str | None) -> set[str]:
    root = (cwd or "").rstrip("/")
    found = {t.rstrip("/") for t in _TARGET().findall(text)}
    # The session's folder, or a folder above it (a path with a space splits there).
    return {t for t in found if len(t) > 3 and not root.startswith(t) and not t.startswith("-")}


def ways_around(sess: s.Session) -> list[str]:
    """The shell commands that worked after one of the user's rules refused a call, within
    ``WINDOW`` calls, acting on a path or file the refused call named: each whole, and each of
    its steps that names one (``cd /repo`` of ``cd /repo && mv build /tmp`` is no way around)."""

    calls = [e.tool for e in sess.events if e.tool is not None and e.subagent is None]
    out: list[str] = []
    for i, call in enumerate(calls):
        if call.status != s.BLOCKED or call.refused_by not in _BY_RULE:
            continue
        targets = _targets(call, sess.cwd)
        if not targets:
            continue
        for later in calls[i + 1 : i + 1 + WINDOW]:
            if later.status == s.BLOCKED:
                continue  # refused too: no way around
            command = later.command
            if command and later.status == s.OK and targets & _targets(later, sess.cwd):
                out.append(command)
                out += [p for p in _acting(command) if targets & _targets_of(p, sess.cwd)]
    return list(dict.fromkeys(out))
