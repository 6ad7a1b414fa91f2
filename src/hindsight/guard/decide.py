"""The one decision for a candidate memory lesson, by consequence.

What would the next session do on reading the lesson? Each action (``actions.parse``) is checked
against what the repository defines (``repository``) and what the user typed, by the policy in
``capabilities``. Where a word first appeared is not the question: it only makes the reason
clearer to the person who decides. Order: text that tries to instruct is quarantined; weak
evidence goes to the report; an action that opens a capability waits for the person; the rest
enters memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from hindsight.guard import actions, prose, verdict
from hindsight.guard.classify import Context, Opening, action_openings, hosts
from hindsight.guard.manifests import url_hosts
from hindsight.guard.repository import Repository

# Levels of what the repository defines that are looked into: a target's recipe or a script's
# body (one), and what those run in turn (two: `make setup` -> `./scripts/bootstrap.sh`), so a
# download cannot hide one file further down.
DEPTH = 2
MAX_REASONS = 3  # the reasons a waiting lesson shows; the first names its capability
WEAK = "weak evidence: kept in the report, not in memory"


class LessonLike(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def body(self) -> str: ...
    @property
    def kind(self) -> str: ...


class Evidence(NamedTuple):
    """What the decision knows besides the lesson's text."""

    # a verified fix, the same failure in 2+ sessions, the user's standing rule, a refusal
    # rule, a tracked file that took several searches to find
    strong: bool
    typed: tuple[str, ...] = ()  # what the user typed in the cited sessions: their hosts
    instructs: str | None = None  # the screen's reason when the text tries to instruct
    # where a word first appeared ("the output of `npm test`"), for the reason only
    provenance: Callable[[str], str | None] | None = None


def decide(lesson: LessonLike, evidence: Evidence, repository: Repository) -> verdict.Decision:
    """admit | wait(reason, capability) | report(reason) | quarantine(reason)."""
    if evidence.instructs:
        return verdict.quarantine(evidence.instructs)
    if not evidence.strong:
        return verdict.report(WEAK)
    found = openings(lesson, evidence, repository)
    if not found:
        return verdict.admit()
    return verdict.wait(_reason(found, evidence), found[0].capability)


def openings(lesson: LessonLike, evidence: Evidence, repository: Repository) -> list[Opening]:
    """Every capability the lesson's actions open, in the order the text names them."""
    typed = frozenset(h for text in evidence.typed for h in url_hosts(text))
    ctx = Context(repository, typed, DEPTH)
    out: list[Opening] = []
    for action in actions.parse(lesson.title, lesson.body):
        if action.kind == actions.FOLLOW:
            out += prose.openings(action.text)
            out += hosts(action.text, ctx)
        else:  # avoid opens nothing: the lesson tells the agent to stay away from it
            out += action_openings(action, ctx)
    return list(dict.fromkeys(out))


def _reason(found: list[Opening], evidence: Evidence) -> str:
    parts: list[str] = []
    for opening in found:
        text = opening.reason
        where = evidence.provenance(opening.word) if evidence.provenance and opening.word else None
        if where:
            text += f"; the name first appeared in {where}"
        if text not in parts:
            parts.append(text)
    shown = "; and ".join(parts[:MAX_REASONS])
    more = len(parts) - MAX_REASONS
    return shown + (f" (and {more} more)" if more > 0 else "")
