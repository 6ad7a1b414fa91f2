"""What a Claude Code tool result says about its call: ran and passed, failed (exit code written
or not), refused before it ran and by whom, timed out, rejected, interrupted, moved to the
background (FORMATS.md); the reader (claude_code.py) calls it for every tool result."""

from __future__ import annotations

import functools
import re
from typing import Any

from hindsight import session as s

_EXIT = re.compile(r"^(?:Error: )?Exit code (-?\d+)")
INTERRUPTED = "[Request interrupted by user"
# "...proceed with this tool use", and in 1.0.x also "...take this action right now. STOP ...".
_REJECTED = "The user doesn't want to "
_BACKGROUND = "was moved to the background"


# Refusals before the command ran, by who refused: a user's hook ("PreToolUse:Bash hook error: ...",
# 1.0.x "Bash operation blocked by hook:"), the user's permission rules ("Permission to use Bash
# with command ... has been denied", "cd to '...' was blocked"), the auto-mode classifier, and the
# harness's own rules ("Blocked: sleep 65 ..."). Anchored at the result's start: the output of a
# command that ran never starts this way.
@functools.cache
def _refusals() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Compiled on first use: most sessions have no error result at all (start-up matters)."""
    return (
        (
            s.BY_HOOK,
            re.compile(
                # Not any "hook ... error": a git pre-commit hook failing is the command failing.
                r"(?:Pre|Post)ToolUse:\S+ hook\b|\S+ operation blocked by hook"
                r"|[^\n]{0,40}\bhook\b[^\n]{0,40}\b(?:denied|blocked)\b",
                re.I,
            ),
        ),
        (
            s.BY_CLASSIFIER,
            re.compile(
                r"[^\n]{0,200}\b(?:auto[- ]mode|classifier)\b[^\n]{0,200}"
                r"\b(?:denied|cannot determine the safety|blocked)",
                re.I,
            ),
        ),
        (
            s.BY_PERMISSION,
            re.compile(
                r"Permission to use [^\n]{1,2000}? has been denied|cd to '[^\n]{1,1000}' was blocked"
                r"|[^\n]{0,80}denied by your permission settings",
                re.I,
            ),
        ),
        (s.BY_HARNESS, re.compile(r"Blocked: ")),
    )


_TIMED_OUT = ("Command timed out after ", "Exit code ")
_TAG = "<tool_use_error>"
# A shell failure whose output is only "Error" (1.0.x wrote no exit code): for these programs a
# non-zero exit with nothing printed is an answer, not a failure, as later versions interpret it.
_BENIGN_SILENT = {
    "grep": "No matches found",
    "egrep": "No matches found",
    "fgrep": "No matches found",
    "rg": "No matches found",
    "ag": "No matches found",
    "ack": "No matches found",
    "pgrep": "No processes matched",
    "pkill": "No processes matched",
    "diff": "Files differ",
    "cmp": "Files differ",
    "test": "Condition is false",
    "[": "Condition is false",
}


def status(call: s.ToolCall, text: str, top: Any) -> str:
    head = text[:300]
    if head.startswith(_REJECTED) or top == "User rejected tool use":
        return s.REJECTED
    if _BACKGROUND in head:
        return s.BACKGROUND
    if isinstance(top, dict) and top.get("interrupted"):
        return s.INTERRUPTED
    if not call.is_error:
        return s.OK
    if head.startswith(INTERRUPTED):  # 2.0.x: an Esc during the call, written as its error
        return s.INTERRUPTED
    bare = head.removeprefix(_TAG)
    if call.name.startswith("mcp__"):
        # An MCP server writes its own error text, tag and all: a "PreToolUse:... hook error:
        # [...]: BLOCKED" there may be the server's, not the harness's (red team of session 8:
        # a server fenced off a file as "a rule of the user's"). Its failures are its own.
        return s.ERROR
    for who, pattern in _refusals():
        if pattern.match(bare):
            call.refused_by = who
            return s.BLOCKED
    # "Command timed out after 2m 0.0s" (1.0.x), "Exit code 143\nCommand timed out after 3m 0s".
    if bare.startswith(_TIMED_OUT[0]) or (
        bare.startswith(_TIMED_OUT[1]) and _TIMED_OUT[0] in bare[:40]
    ):
        return s.TIMEOUT
    return s.ERROR


def shell_outcome(call: s.ToolCall, text: str, top: Any) -> None:
    """Exit code and interpretation of a shell call from its result."""
    exit_match = _EXIT.match(text) or (_EXIT.match(top) if isinstance(top, str) else None)
    interpretation = top.get("returnCodeInterpretation") if isinstance(top, dict) else None
    if exit_match:
        call.exit_code = int(exit_match.group(1))
    elif call.status == s.OK:
        call.exit_code = None if interpretation else 0
    elif call.status == s.ERROR and text.strip() == "Error":
        # 1.0.x: a non-zero exit with no output, no code; grep finding nothing looks like this.
        meaning = _BENIGN_SILENT.get(s.first_program(call.command or ""))
        if meaning:
            call.status, call.is_error, interpretation = s.OK, False, meaning
    if interpretation:
        call.interpretation = str(interpretation)


# A hook's run as the harness records it (1.0.x): a system record "PreToolUse:Read [uv run
# .claude/hooks/pre_tool_use.py] completed successfully"; and, under a head naming a hook ("Stop
# hook feedback:", "Bash operation blocked by hook:") or a tool's feedback ("Bash operation
# feedback:"), one item per hook that failed: "- [<command>]: <what it printed>".
_HOOK_DONE = re.compile(r"[^\n\[]{0,80}\[([^\]\n]+)\] completed successfully\s*$")
_HOOK_HEAD = re.compile(
    r"[^\n]{0,60}\b(?:hook feedback|operation feedback|blocked by hook)\b[^\n]{0,20}:[ \t]*\n", re.I
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # the bold around the hook's event name
_HOOK_ITEM = re.compile(r"^- \[([^\]\n]+)\]: ([^\n]*(?:\n(?!- \[)[^\n]*)*)", re.M)


def unseen_hooks(session: s.Session) -> None:
    """Where the harness records the hook runs that completed (1.0.x), a shell call "refused"
    by a hook never seen running was refused by nothing: 1.0.x writes a failed command's stderr
    alone as its result, and a command can print a hook's refusal word for word (a trap, "a rule
    of the user's", made up by what the command printed). It failed on its own."""
    ran = {run.command for run in session.hooks if run.ok}
    if not ran:
        return  # 2.x records no completed hook: its failures start "Exit code N" instead
    for event in session.events:
        call = event.tool
        if call and call.is_shell and call.refused_by == s.BY_HOOK and call.hook not in ran:
            call.status, call.refused_by, call.hook = s.ERROR, None, None


# 2.x names the refusing hook in the result's head: "PreToolUse:Bash hook error: [<command>]: ..."
_HOOK_ERROR = re.compile(r"\bhook\b[^\[\n]*\[([^\]\n]+)\]", re.I)


def refusing_hook(text: str) -> str | None:
    """The command of the hook that refused a call, as its result names it: 1.0.x's item under
    "Bash operation blocked by hook:", 2.x's "PreToolUse:Bash hook error: [<command>]"."""
    runs = hook_runs(text)
    if runs:
        return runs[0][0]
    found = _HOOK_ERROR.search(text[:2000])
    return found.group(1) if found else None


def hook_runs(text: str, system: bool = False) -> list[tuple[str, bool, str]]:
    """The hook runs a harness text records: (the hook's command, completed, what it printed).
    Only a system record says a hook completed; a tool's result or a user turn says one failed."""
    # Literal gates first: the reader asks this of every user and system record's text.
    if system and "completed successfully" in text[:600]:
        done = _HOOK_DONE.match(_ANSI.sub("", text[:600]))
        if done:
            return [(done.group(1), True, "")]
    opening = text[:100].casefold()
    if "hook" not in opening and "feedback" not in opening:
        return []
    head = text[:4000]
    if not _HOOK_HEAD.match(head):
        return []
    return [(m.group(1), False, m.group(2)[:500]) for m in _HOOK_ITEM.finditer(head)]
