"""A path holding brackets or parentheses that the shell read as a pattern.

zsh (the default shell on macOS, and the one Claude Code runs commands in there) expands an
unquoted word holding ``[...]`` or ``(...)`` as a glob, and a glob that matches no file stops the
command: ``git add src/app/(home)/page.tsx`` fails with "no matches found:" before git runs.
Next.js route groups and dynamic segments (``(home)``, ``[slug]``, ``[locale]``) make such paths
common. The cause is exact: the shell names the word it could not expand, and that word is the
agent's own, typed unquoted in the command; a ``*`` glob that matched nothing is left alone (it
may have meant to match nothing). The lesson is hindsight's own reading of that error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, steps
from hindsight.detect.failures import signature
from hindsight.detect.streams import main_stream, shell_events, tool_of

MAX_EXAMPLES = 3
# zsh's own words, written before the command ran ("zsh:1: no matches found: X", "(eval):1: ...").
_NO_MATCH = re.compile(
    r"^(?:zsh|\(eval\)|-?\w*sh)?(?::\d+)?: (?:no matches found|bad pattern): (.+)$"
)
_BRACKETS = re.compile(r"[\[\]()]")


def _pattern_word(call: s.ToolCall) -> str | None:
    """The word of the agent's command the shell could not expand, when it holds brackets or
    parentheses and stands in the command as typed (so it is the agent's, not the output's)."""
    command = call.command or ""
    for line in call.output.splitlines()[:5]:
        found = _NO_MATCH.match(line.strip())
        if found is None:
            continue
        word = found.group(1).strip()
        if _BRACKETS.search(word) and word in command and "*" not in word:
            return word
    return None


def unquoted_patterns(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Per session, the commands that failed because an unquoted path held ``[]`` or ``()``."""
    for sess in sessions:
        hits: dict[str, s.Event] = {}
        for event in shell_events(main_stream(sess)):
            call = tool_of(event)
            if call.status != s.ERROR or not call.command:
                continue
            word = _pattern_word(call)
            if word is not None and word not in hits:
                hits[word] = event
                if len(hits) >= MAX_EXAMPLES:
                    break
        if not hits:
            continue
        first = next(iter(hits.values()))
        examples = []
        for word, event in hits.items():
            command = tool_of(event).command or ""
            step = next((x for x in steps.split(command) if word in x), command)
            examples.append({"word": word, "program": steps.program_of(step)})
        yield Finding(
            "unquoted_pattern",
            evidence_key("unquoted-pattern", sess.session_id, tool_of(first).id),
            sess.session_id,
            [event.at for event in hits.values()],
            first.ts,
            4,
            {
                "examples": examples,
                "covers": [signature(tool_of(event)) for event in hits.values()],
            },
        )
