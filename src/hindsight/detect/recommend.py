"""Friction worth a script or a skill: repeated command sequences, skills followed by failures."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell
from hindsight.detect.streams import main_stream, shell_events, tool_of

SCRIPT_SESSIONS = 3  # the same 3-step sequence in this many sessions: extract a script
SKILL_SESSIONS = 2  # the same 4+-step procedure in this many sessions: write a skill
SKILL_WINDOW = 6  # tool calls after a skill call in which failures count against it
MAX_RECOMMENDATIONS = 5  # a run's report stays readable on a long history


def _jobs(sess: s.Session) -> list[tuple[str, s.Event]]:
    out = []
    for event in shell_events(main_stream(sess)):
        call = tool_of(event)
        if call.command and not s.is_search_command(call.command):
            out.append((shell.normalize(call.command), event))
    return out


def repeated_sequences(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    grams: dict[tuple[str, ...], dict[str, s.Event]] = {}
    for sess in sessions:
        jobs = _jobs(sess)
        names = [j for j, _ in jobs]
        for n in (3, 4, 5):
            for i in range(len(names) - n + 1):
                steps = tuple(names[i : i + n])
                if len(set(steps)) < n:
                    continue  # retries of one command are not a procedure
                grams.setdefault(steps, {}).setdefault(sess.session_id, jobs[i][1])
    reported: dict[tuple[str, ...], int] = {}
    ranked = sorted(grams.items(), key=lambda kv: (-len(kv[1]), -len(kv[0]), kv[0]))
    for steps, where in ranked:
        if len(reported) >= MAX_RECOMMENDATIONS:
            break
        # A window sliding along one long procedure is the same procedure: keep the first seen.
        if any(_overlap(steps, other) for other in reported):
            continue

        kind = None
        if len(steps) >= 4 and len(where) >= SKILL_SESSIONS:
            kind = "propose_skill"
        elif len(where) >= SCRIPT_SESSIONS:
            kind = "extract_script"
        if kind is None:
            continue
        reported[steps] = len(where)
        events = list(where.values())
        data = {"type": kind, "steps": list(steps), "sessions": len(where)}
        yield Finding(
            "recommendation",
            evidence_key("seq", *steps, *sorted(where)),
            next(iter(where)),
            [e.at for e in events][:6],
            events[0].ts,
            3,
            data,
        )


def _overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when two sequences share two consecutive steps."""
    pairs = set(itertools.pairwise(a))
    return any(pair in pairs for pair in itertools.pairwise(b))


def skill_friction(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """A skill call followed by failures: the skill needs improving."""
    for sess in sessions:
        tools = [e for e in main_stream(sess) if e.tool is not None]
        for i, event in enumerate(tools):
            call = tool_of(event)
            if call.name != "Skill":
                continue
            name = str(
                call.input.get("skill")
                or call.input.get("command")
                or call.input.get("name")
                or "?"
            )
            after = [tool_of(e) for e in tools[i + 1 : i + 1 + SKILL_WINDOW]]
            failed = [t for t in after if t.failed or t.status == s.ERROR]
            if len(failed) >= 2:
                data = {
                    "type": "improve_skill",
                    "skill": name,
                    "failures": len(failed),
                    "commands": [t.command or t.name for t in failed][:4],
                }
                yield Finding(
                    "recommendation",
                    evidence_key("skill", sess.session_id, call.id),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    3,
                    data,
                )
