"""A model's pick, hindsight's words: the fallback for a model judge's memory lesson the trust
gate holds.

A model judge decides well which lessons are worth loading into every session, but writes them
in its own words, and memory takes only trusted pieces (trust.py): on the development set a model
picked 69 lessons for memory, 91% of them right by the labels, and the gate admitted 3. Where the
gate holds such a lesson, the findings it cites are worded by the rules judge instead (the user's
words quoted whole, a command as run, hindsight's own templates) and that wording, checked by the
gate as the rules judge's own, may enter memory in its place: the decision is the model's, every
word is hindsight's or the session's. The model's lesson stays in the report.
"""

from __future__ import annotations

import re
import unicodedata

from hindsight import fmt
from hindsight.detect import Finding, conversation
from hindsight.lessons import Lesson
from hindsight.screen import visible

_WORD = re.compile(r"[a-z0-9][a-z0-9_.-]{2,}")
_QUOTE = re.compile(r'"([^"]+)"')
_SPAN = re.compile(r"`([^`]+)`")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def about(worded: Lesson, picked: Lesson) -> bool:
    """Whether the model's lesson is about what the rules worded: it holds most words of the
    user's quote (a preference), or of each command the rules title names. A model citing five
    findings for one lesson picks the one it wrote about, not the strongest of the five."""
    said = _words(f"{picked.title} {picked.body}")
    quote = _QUOTE.search(worded.body) if worded.kind == "preference" else None
    parts = [quote.group(1)] if quote else _SPAN.findall(worded.title) or [worded.title]
    for part in parts:
        want = _words(part)
        if not want or len(want & said) < 0.6 * len(want):
            return False
    return True


def _said(lesson: Lesson) -> str | None:
    """The user's words a preference lesson quotes in its body, folded for comparing."""
    found = _QUOTE.search(lesson.body) if lesson.kind == "preference" else None
    return " ".join(found.group(1).casefold().split()) if found else None


def whole_of(worded: Lesson, held: Lesson) -> bool:
    """Whether the rules' quote holds the user's words a model quoted cut short: the model
    wanted those words in memory ("non fare polling") and the gate held them for a quote that
    is not whole clauses; the rules' quote is the whole sentence they come from."""
    part, whole = _said(held), _said(worded)
    return bool(part and whole and part != whole and part in whole)


def _with_body(lesson: Lesson, body: str) -> Lesson:
    return Lesson(
        lesson.title, body, lesson.kind, lesson.strength, lesson.evidence, lesson.memory,
        lesson.where,
    )  # fmt: skip


def reword(lesson: Lesson, findings: dict[str, Finding]) -> Lesson | None:
    """The rules judge's strongest instructing lesson of the findings ``lesson`` cites, or None."""
    from hindsight.judges.rules import RulesJudge

    cited = [
        f
        for k in dict.fromkeys(lesson.evidence)
        if k in findings and not (f := findings[k]).data.get("task")
    ]
    if not cited:
        return None
    # What the rules would remember anyway, and the user's own words typed aside in a prompt:
    # whether such words stand beyond that task is the judgement the rules cannot make and a
    # model can. A fix the rules could not verify, a refusal or a failure seen once, a slow
    # command, a search, the agent's prose stay the report's, whoever picks them.
    worded = [
        x
        for x in RulesJudge().judge(cited).lessons
        if (x.memory or x.kind == "preference") and about(x, lesson)
    ]
    if not worded:
        return None
    best = max(worded, key=lambda x: x.strength)  # the first of the strongest: sorted stably
    best.memory = True  # a lesson of this call's own rules judgement: nobody else holds it
    return best


def quoted(lesson: Lesson) -> Lesson | None:
    """The memory entry of a model's lesson that named the user's words it rests on (``quote``):
    those words in the rules' template for the user's words ('User preference: "..."'), or None.
    The gate then checks them as a model's quote (pipeline._quoted_entries): the choice of
    words is the model's, every word the user's."""
    # As every check reads them: what a reader sees (screen.visible), compatibility forms folded
    # (fullwidth letters); zero-width characters inside "it" or "Can you" hide nothing then.
    words = unicodedata.normalize("NFKC", visible(lesson.quote))
    words = " ".join(words.split()).replace('"', "'")
    if not words or conversation.points_back(words):
        # "test it with curl", "Do that every time": loaded into a session that never saw what
        # "it" was, the words instruct whatever it is taken to be (the model's prose named it).
        return None
    if conversation.asks_or_assigns(words):
        return None  # "Can you make the homepage responsive": this turn's task, no rule
    if conversation.discloses(words):
        return None  # "my email is ...": a detail the task needed, no rule
    title = f'User preference: "{fmt.clip_words(words, 90)}"'
    return Lesson(
        title, f'The user said: "{words}".', "preference", lesson.strength, lesson.evidence, True,
        lesson.where,
    )  # fmt: skip


_AFTER = re.compile(r'^After `[^`]*` \([^)]*\), (the user said: ".*"\.?)$', re.S)
_POINTS_BACK = re.compile(r"\b(?:it|its|this|that|these|those|them|they|here|there)\b", re.I)
_HOOK = re.compile(r"^(A hook of the user's) \(`[^`]*`\)( refused .*)$", re.S)


def without_context(lesson: Lesson) -> Lesson | None:
    """A lesson without the context the gate held it for: a correction without the command it
    followed (``After `cmd` (error), the user said: "..."`` as ``The user said: "..."``), a
    refusal without the hook's script. Where the context is tainted (the agent took a word of the
    command from tool output) or not the repository's, the rest still stands on its own."""
    hook = _HOOK.match(lesson.body) if lesson.kind == "trap" else None
    if hook is not None:
        return _with_body(lesson, hook.group(1) + hook.group(2))
    found = _AFTER.match(lesson.body) if lesson.kind == "preference" else None
    if found is None or _POINTS_BACK.search(found.group(1)):
        # "No, run it with sudo instead.": without the command, "it" is anything (red team).
        return None
    body = found.group(1)
    return _with_body(lesson, body[0].upper() + body[1:])
