"""Commands the harness killed at its time limit, again and again: the limit is the lesson.

One timeout is a slow command. The same job killed three times or more in a session (Tar-ive:
`gh run watch`, then `sleep 180 && gh run view`, `sleep 300 && ...` ten times, each killed at
2 minutes) says the agent keeps waiting longer than the harness allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell, steps
from hindsight.detect.streams import main_stream, tool_of

MIN_TIMES = 3
_ARGUMENT = re.compile(r"[\d/~.$\"'=:@]")


def shape(command: str) -> str:
    """A command's steps by their program words only, up to the first argument that names
    something (a number, a path, a value): `sleep 180 && gh run view 17456` -> `sleep … && gh run
    view …`. Ids in arguments come from tool output; the shape holds none of them."""
    out = []
    for step in steps.split(command):
        words: list[str] = []
        for word in shell.split(step):
            if word.startswith("-") or _ARGUMENT.search(word) or len(words) == 3:
                words.append("…")
                break
            words.append(word)
        if words and words != ["…"]:
            out.append(" ".join(words))
    return " && ".join(out)


def _job(command: str) -> tuple[str, str]:
    """The job of a command's last working step (the wait before it is scene)."""
    working = [x for x in steps.split(command) if steps.program_of(x) not in steps.SCENE]
    return shell.job(working[-1]) if working else ("", "")


def repeated_timeouts(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """The same job killed at the harness's time limit three times or more in a session."""
    for sess in sessions:
        killed: dict[tuple[str, str], list[s.Event]] = {}
        for event in main_stream(sess):
            call = event.tool
            if call is not None and call.status == s.TIMEOUT and call.command:
                job = _job(call.command)
                if job[0]:
                    killed.setdefault(job, []).append(event)
        for job, events in killed.items():
            if len(events) < MIN_TIMES:
                continue
            limits = [d for e in events if (d := tool_of(e).duration_s)]
            shapes = list(dict.fromkeys(shape(tool_of(e).command or "") for e in events))
            data = {
                "job": " ".join(job).strip(),
                "shapes": [x for x in shapes if x][:4],
                "times": len(events),
                "limit_s": min(limits) if limits else None,
            }
            yield Finding(
                "repeated_timeout",
                evidence_key("timeouts", sess.session_id, *job),
                sess.session_id,
                [e.at for e in events][:6],
                events[0].ts,
                4,
                data,
            )
