"""A program the shell could not find, hidden by the rest of the command.

``timeout 10s npm run dev || echo "Server started successfully"`` printed zsh's
"command not found: timeout" and exited 0: the ``||`` fallback (or a pipe's last program, or the
next step) set the exit status, so the call passed and the agent read the fallback's words as
the server starting. The failure detectors never see it (nothing failed), and the next session
reaches for the same program. The program is the agent's own word, the first word of one of
its command's steps; the shell's "not found" line names that word; no later call of the session
ran it. What the lesson says (not available in the agent's shell) is what that shows, no more:
the report's, as the record of one shell's PATH.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, steps
from hindsight.detect.streams import main_stream, shell_events, tool_of

# The shells' own words, each on a line of its own: zsh ("(eval):1: command not found: X",
# "zsh: command not found: X"), bash ("bash: line 1: X: command not found", "X: command not
# found") and dash ("/bin/sh: 1: X: not found").
_NOT_FOUND = re.compile(
    r"^(?:(?:\(eval\)|[\w/.-]*sh)(?::\d+)?: )?command not found: ([\w.+-]+)$"
    r"|^(?:[\w/.-]*sh: (?:line )?\d+: )?([\w.+-]+): command not found$"
    r"|^[\w/.-]*sh: \d+: ([\w.+-]+): not found$"
)
HEAD_LINES = 20  # the shell writes before the program would have


def missing_program(call: s.ToolCall) -> str | None:
    """The program of one of the command's own steps that the shell said it could not find."""
    command = call.command or ""
    programs = {steps.program_of(step) for step in steps.split(command)}
    for line in call.output.splitlines()[:HEAD_LINES]:
        found = _NOT_FOUND.match(line.strip())
        if found is None:
            continue
        name = next(g for g in found.groups() if g)
        if name in programs:
            return name
    return None


def hidden_missing_programs(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Per session and program, a call that passed although the shell could not find a program
    it ran, when no later call of the session ran that program and passed without the error."""
    for sess in sessions:
        events = shell_events(main_stream(sess))
        seen: set[str] = set()
        for n, event in enumerate(events):
            call = tool_of(event)
            if call.status != s.OK or call.failed or not call.command:
                continue  # a failed call is the failure detectors'
            name = missing_program(call)
            if name is None or name in seen:
                continue
            seen.add(name)
            if any(_ran(tool_of(later), name) for later in events[n + 1 :]):
                continue  # installed or found later: the session's PATH changed
            yield Finding(
                "hidden_missing_program",
                evidence_key("hidden-missing", sess.session_id, call.id, name),
                sess.session_id,
                [event.at],
                event.ts,
                3,
                {"program": name, "command": call.command},
            )


def _ran(call: s.ToolCall, name: str) -> bool:
    """Whether a call ran ``name`` as one of its steps' programs and the shell found it."""
    if not call.command or name not in call.command or call.status != s.OK:
        return False
    if not any(steps.program_of(step) == name for step in steps.split(call.command)):
        return False
    return missing_program(call) != name
