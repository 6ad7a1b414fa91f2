"""What the people and the agent said: corrections, unfinished work, decisions, dead ends."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import fmt
from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell
from hindsight.detect.streams import main_stream, relative, shell_events, tool_of

_REDIRECT = re.compile(
    r"^\s*(?:no\b|nope\b|don'?t\b|do not\b|stop\b|wrong\b|not that\b|instead\b|actually\b|never\b|please use\b|use\b)"
    r"|\binstead\b|\bdon'?t\b|\bdo not\b|\bshould(?:n'?t| not)\b|\brather\b",
    re.I,
)
_DECISION = re.compile(
    r"\binstead of\b|\brather than\b|\bdecided to\b|\bI'll use\b|\bswitch(?:ing|ed)? to\b|"
    r"\bI (?:wrongly )?assumed\b|\bturns out\b|\bmy assumption\b|\bchose\b",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
# A cheap scan first (plain substring tests on the lowered text): the sentence patterns are costly
# on long assistant texts, and most texts hold none of these words.
_DECISION_HINTS = (
    "instead of",
    "rather than",
    "decided to",
    "i'll use",
    "switch",
    "assumed",
    "turns out",
    "assumption",
    "chose",
)
_BECAUSE = re.compile(r"\b(?:because|since|as|so that)\b", re.I)
_REMOVE = re.compile(r"^\s*(?:rm\s+(?:-\w+\s+)*|git\s+(?:checkout\s+--|restore)\s+)(.+)$")
_UNINSTALL = re.compile(
    r"\b(?:pip3?|npm|pnpm|yarn|cargo|poetry|uv)\s+(?:uninstall|remove|rm)\s+(?:-\S+\s+)*([\w@/.\-]+)"
)
_INSTALL = re.compile(
    r"\b(?:pip3?|npm|pnpm|yarn|cargo|poetry|uv)\s+(?:install|add|i)\s+(?:-\S+\s+)*([\w@/.\-=<>]+)"
)


def _troubled(call: s.ToolCall) -> bool:
    return call.status in (s.ERROR, s.REJECTED, s.INTERRUPTED, s.BLOCKED) or call.failed


def corrections(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """A typed prompt right after a failure, rejection or interrupt that redirects the agent."""
    for sess in sessions:
        stream = main_stream(sess)
        turn: list[s.Event] = []
        interrupts = 0
        for event in stream:
            if event.kind == s.INTERRUPT:
                interrupts += 1
            if event.kind != s.PROMPT:
                turn.append(event)
                continue
            trouble = [e for e in turn if (e.tool and _troubled(e.tool)) or e.kind == s.INTERRUPT]
            if trouble and turn and _REDIRECT.search(event.text):
                last = trouble[-1]
                what = (tool_of(last).command or tool_of(last).name) if last.tool else "interrupted"
                data = {
                    "quote": fmt.clip(event.text, 300),
                    "after": fmt.clip(what, 160),
                    "after_status": tool_of(last).status if last.tool else s.INTERRUPTED,
                }
                yield Finding(
                    "correction",
                    evidence_key("correct", sess.session_id, event.uuid or event.at.line),
                    sess.session_id,
                    [last.at, event.at],
                    event.ts,
                    4,
                    data,
                )
            turn = []
        if interrupts:
            yield Finding(
                "interrupts",
                evidence_key("interrupts", sess.session_id, interrupts),
                sess.session_id,
                [e.at for e in stream if e.kind == s.INTERRUPT][:6],
                None,
                1,
                {"count": interrupts},
            )


def unfinished(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Todos still open at the end, and sessions that ended on a failed command."""
    for sess in sessions:
        todos = [t for t in sess.final_todos() if t.get("status") in ("pending", "in_progress")]
        done = s.completed_later(sess, sessions) if todos else set()  # finished later: not open
        todos = [t for t in todos if t.get("content") not in done]
        if todos:
            last = [e for e in sess.events if e.kind == s.TODOS and e.subagent is None][-1]
            open_todos = [fmt.clip(t["content"], 160) for t in todos]
            yield Finding(
                "unfinished_todos",
                evidence_key("todos", sess.session_id, *sorted(open_todos)),
                sess.session_id,
                [last.at],
                last.ts,
                3,
                {"todos": open_todos, "statuses": [t["status"] for t in todos]},
            )
        tools = [e for e in main_stream(sess) if e.tool is not None]
        if (
            tools
            and tools[-1].tool
            and tools[-1].tool.status == s.ERROR
            and tools[-1].tool.is_shell
        ):
            call = tools[-1].tool
            data = {
                "command": call.command,
                "exit_code": call.exit_code,
                "error": shell.error_line(call.output),
            }
            yield Finding(
                "ended_on_error",
                evidence_key("ended", sess.session_id, call.id),
                sess.session_id,
                [tools[-1].at],
                tools[-1].ts,
                2,
                data,
                untrusted=("error",),
            )


def decisions(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """The agent's stated choices with their reason, and assumptions it corrected."""
    for sess in sessions:
        stream = main_stream(sess)
        shells = shell_events(stream)
        ended_well = not shells or not tool_of(shells[-1]).failed
        for event in stream:
            if event.kind != s.ASSISTANT:
                continue
            lowered = event.text.lower()
            if not any(hint in lowered for hint in _DECISION_HINTS):
                continue
            # Sentence by sentence: one pattern over a whole long text backtracks badly.
            for match in _SENTENCE.finditer(event.text):
                if not _DECISION.search(match.group(0)):
                    continue
                sentence = fmt.clip(match.group(0).strip(" -*"), 300)
                if len(sentence) < 20:
                    continue
                reasoned = bool(_BECAUSE.search(sentence))
                data = {"sentence": sentence, "reasoned": reasoned, "stuck": ended_well}
                yield Finding(
                    "decision",
                    evidence_key(
                        "decision", sess.session_id, event.uuid or event.at.line, match.start()
                    ),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    3 if reasoned and ended_well else 2,
                    data,
                    untrusted=("sentence",),
                )


def abandoned(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Approaches tried and dropped: a file written then removed or reverted, a library swapped."""
    for sess in sessions:
        written: dict[str, s.Event] = {}
        uninstalled: list[tuple[str, s.Event]] = []
        for event in main_stream(sess):
            call = event.tool
            if call is None or call.status != s.OK:
                continue
            if call.name in ("Write", "write_file") and isinstance(
                call.input.get("file_path"), str
            ):
                written[str(call.input["file_path"])] = event
            command = call.command or ""
            removed = _REMOVE.match(command) if "rm " in command or "git " in command else None
            if removed:
                for arg in removed.group(1).split():
                    for path, wrote in list(written.items()):
                        if path == arg or path.endswith("/" + arg.lstrip("./")):
                            data = {"path": relative(path, sess.cwd), "how": fmt.clip(command, 120)}
                            yield Finding(
                                "abandoned",
                                evidence_key(
                                    "abandon", sess.session_id, tool_of(wrote).id, call.id
                                ),
                                sess.session_id,
                                [wrote.at, event.at],
                                wrote.ts,
                                2,
                                data,
                            )
                            del written[path]
            gone = (
                _UNINSTALL.search(command)
                if "un" in command or "rem" in command or "rm" in command
                else None
            )
            if gone:
                uninstalled.append((gone.group(1), event))
            added = (
                _INSTALL.search(command)
                if uninstalled and ("install" in command or "add" in command)
                else None
            )
            if added and uninstalled:
                old, when = uninstalled.pop()
                data = {"dropped": old, "adopted": added.group(1), "how": fmt.clip(command, 120)}
                yield Finding(
                    "abandoned",
                    evidence_key("swap", sess.session_id, tool_of(when).id, call.id),
                    sess.session_id,
                    [when.at, event.at],
                    when.ts,
                    2,
                    data,
                )
