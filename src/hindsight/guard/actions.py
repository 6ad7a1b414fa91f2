"""What a lesson's text would make an agent do: run, set, read, avoid, follow.

hindsight's lessons are its own templates: commands, paths and variables in backtick code spans,
the user's words quoted, hindsight's prose around them. Each span is an action; the prose around
it says whether the agent is told to do it or to stay away from it. A negation counts only when
it governs the span directly ("never `x`", "don't use `x`", "instead of `x`", "`x` were refused");
anything else that merely contains a negative word ("don't forget to run `x`", "not only `x`",
"never mind, `x`") leaves the span an action to take, so a look-alike can only make a lesson
wait, never let one through.
"""

from __future__ import annotations

import functools
import os
import re
from typing import NamedTuple

RUN, SET, READ, AVOID, FOLLOW = "run", "set", "read", "avoid", "follow"
KINDS = (RUN, SET, READ, AVOID, FOLLOW)


class Action(NamedTuple):
    kind: str  # one of KINDS
    text: str  # run: the step as written; set: NAME=value; read: the path; avoid/follow: words
    cwd: str | None = None  # run/read: where the chain's own `cd` steps moved the shell
    stdin: bool = False  # run: the step reads a pipe, a heredoc or a `<` redirect


_SPAN = functools.cache(lambda: re.compile(r"`([^`\n]+)`"))
# Where a clause ends: what comes after no longer belongs to a negation before it.
_BOUNDARY = functools.cache(lambda: re.compile(r"[.!?](?:\s|$)|[;:\n()\[\]]|\s[-–—]\s"))
_NEGATOR = (
    r"never|don't|do not|dont|doesn't|does not|must not|mustn't|should not|shouldn't|not|no|"
    r"avoid(?:ing)?|instead of|rather than|without|stop(?:ping)?|refus(?:e|es|ed)|"
    r"block(?:s|ed)?|forbid(?:s|den)?"
)
# Words that may stand between a negation and what it negates ("don't ever use `x`").
_FILLER = (
    r"a|an|the|any|ever|again|\d+|calls?|commands?|with|use|using|run|running|call|calling|"
    r"pass|passing|add|adding|type|typing|set|setting|do|execute|executing|try|trying|invoke|"
    r"invoking|rely on|relying on"
)
_NEGATED = functools.cache(
    lambda: re.compile(rf"(?:^|[^\w'])({_NEGATOR})\s+(?:(?:{_FILLER})\s+)*$", re.I)
)
_NEGATIONS = functools.cache(lambda: re.compile(rf"(?<![\w'])(?:{_NEGATOR})(?![\w'])", re.I))
_OR = functools.cache(lambda: re.compile(r"^\s*(?:,\s*)?(?:or|nor)\s*$|^\s*/\s*$", re.I))
_LIST = functools.cache(lambda: re.compile(r"^\s*(?:,|and|,\s*and)\s*$", re.I))
_VERB_NEGATOR = functools.cache(
    lambda: re.compile(r"never|don't|do not|dont|must not|mustn't|should not|shouldn't|avoid", re.I)
)
_AFTER = functools.cache(
    lambda: re.compile(
        r"^\s*(?:(?:is|are|was|were)\s+(?:refused|blocked|denied|forbidden|not allowed)|"
        r"(?:must|should)\s+never\b|(?:must|should)\s+not\b|"
        # A step the lesson reports as failing is one to stay away from, not one to take:
        # "`make test` failed (exit 2)", "`tox` is not installed here", "`x` has no target".
        r"(?:failed|fails|keeps\s+failing|exited\s+\d+|timed\s+out|"
        r"(?:is|was|are|were)\s+not\s+(?:installed|found)|(?:has|had)\s+no\s+target|"
        r"(?:does|did)\s+not\s+exist|doesn't\s+exist)\b)",
        re.I,
    )
)
_RUN_VERB = functools.cache(
    lambda: re.compile(r"(?:run|execute|source|call|invoke|launch|start)\s*$", re.I)
)
_ASSIGNMENT = functools.cache(lambda: re.compile(r"^[A-Za-z_][A-Za-z0-9_]*="))
_SUBSTITUTION = functools.cache(lambda: re.compile(r"\$\(([^()]*)\)|`([^`]*)`|<\(([^()]*)\)"))
_PIPED = functools.cache(lambda: re.compile(r"(?<!\|)\|&?\s*$"))
_REDIRECT_IN = functools.cache(lambda: re.compile(r"(?<![<\d])<(?![<(])"))
_PREFIX = frozenset({"sudo", "env", "time", "command", "nice", "nohup", "exec", "doas"})


def _plain(text: str) -> str:
    """Typographic apostrophes as ASCII: "don’t" is a real negation too."""
    return text.replace("\u2019", "'").replace("\u02bc", "'").replace("\u2018", "'")


def parse(title: str, body: str) -> list[Action]:
    """Every action the lesson's title and body would make an agent take, in order."""
    out: list[Action] = []
    for text in (title, body):
        out.extend(_actions(_plain(text), out))
    return list(dict.fromkeys(out))


def _actions(text: str, before: list[Action]) -> list[Action]:
    out: list[Action] = []
    last_run = next((a.text for a in reversed(before) if a.kind == RUN), None)
    clause_start = 0
    prev_end = 0
    prev_avoided: bool | None = None  # None: no span yet in this clause
    prev_negator = ""
    prose: list[str] = []
    for hit in _SPAN().finditer(text):
        between = text[prev_end : hit.start()]
        prose.append(between)
        cut = list(_BOUNDARY().finditer(between))
        if cut:
            clause_start = prev_end + cut[-1].end()
            between = text[clause_start : hit.start()]
            prev_avoided, prev_negator = None, ""
        after = _BOUNDARY().split(text[hit.end() :], maxsplit=1)[0]
        avoided, negator = _negation(text[clause_start : hit.start()], between, after)
        if prev_avoided is not None and _OR().match(between):
            avoided, negator = prev_avoided, prev_negator
        elif prev_avoided and _LIST().match(between) and _VERB_NEGATOR().fullmatch(prev_negator):
            avoided, negator = True, prev_negator
        span = hit.group(1).strip()
        if avoided:
            out.append(Action(AVOID, span))
        elif span.startswith("-") and last_run is not None and not _ASSIGNMENT().match(span):
            out.append(Action(RUN, f"{last_run} {span}"))  # "Run `git commit` with `-n`"
        else:
            found = command(span, runs=bool(_RUN_VERB().search(between)))
            out.extend(found)
            last_run = next((a.text for a in reversed(found) if a.kind == RUN), last_run)
        prev_avoided, prev_negator, prev_end = avoided, negator, hit.end()
    prose.append(text[prev_end:])
    words = " ".join(" ".join(prose).split())
    if words:
        out.append(Action(FOLLOW, words))
    return out


def _negation(clause: str, between: str, after: str) -> tuple[bool, str]:
    """(whether a real negation governs the span, its word): one right before it, fillers
    allowed, not itself cancelled by an earlier one in the clause ("never push without `x`" asks
    for `x`); or one right after it ("`x` were refused here")."""
    if _AFTER().match(after):
        return True, "refused"
    hit = _NEGATED().search(between)
    if hit is None:
        return False, ""
    earlier = clause[: len(clause) - len(between) + hit.start(1)]
    earlier = _SPAN().sub(" ", earlier)
    if len(_NEGATIONS().findall(earlier)) % 2:
        return False, ""
    return True, hit.group(1).casefold()


def command(span: str, runs: bool = False) -> list[Action]:
    """The actions of one code span: each step of a chain (``&&``, ``||``, ``;``, ``|``) with
    its ``cd``, ``env``, ``sudo`` and ``VAR=1`` prefixes read; what ``$(...)`` and ``<(...)``
    run; a lone assignment is a ``set``, a lone path a ``read`` (a ``run`` when the prose says
    to run it or it is spelled as one, ``./x``)."""
    from hindsight.detect import shell, steps  # the detectors' splitting; loaded on first use

    if "\n" not in span and " " not in span.strip():
        word = span.strip()
        if _ASSIGNMENT().match(word):
            return [Action(SET, word)]
        if _is_path(word) and not runs and not word.startswith("./"):
            return [Action(READ, word)]
    out: list[Action] = []
    cwd: str | None = None
    for inner in _SUBSTITUTION().finditer(span):
        out.extend(command(next(g for g in inner.groups() if g is not None), runs=True))
    # What a substitution runs is read above; its `|` and `;` are no steps of the outer chain.
    flat = _SUBSTITUTION().sub("SUBSTITUTION", span)
    at = 0
    for step in steps.split(flat):
        found = flat.find(step, at)
        piped = found > 0 and bool(_PIPED().search(flat[:found]))
        at = found + len(step) if found >= 0 else at
        stdin = piped or "<<" in step or bool(_REDIRECT_IN().search(step))
        words = shell.split(step)
        n = 0
        while n < len(words) and (words[n] in _PREFIX or _ASSIGNMENT().match(words[n])):
            if _ASSIGNMENT().match(words[n]):
                out.append(Action(SET, words[n]))
            elif words[n] == "env":  # env's own flags (-i, -u NAME) are no program
                while n + 1 < len(words) and words[n + 1].startswith("-"):
                    n += 2 if words[n + 1] in ("-u", "-C", "-S") else 1
            n += 1
        rest = words[n:]
        if not rest:
            continue
        if rest[0] == "export":
            out.extend(Action(SET, w) for w in rest[1:] if _ASSIGNMENT().match(w))
            continue
        if rest[0] in ("cd", "pushd"):
            target = next((w for w in rest[1:] if not w.startswith("-")), None)
            if target:
                target = os.path.expanduser(target)
                cwd = os.path.normpath(os.path.join(cwd, target)) if cwd else target
            continue
        out.append(Action(RUN, step, cwd, stdin))
    return out


def _is_path(word: str) -> bool:
    if word.startswith(("-", "$")) or "://" in word:
        return False
    if word.startswith(("/", "~", "./", "../")) or "/" in word:
        return True
    stem, dot, ext = word.rpartition(".")
    return bool(dot) and (bool(stem) or word.startswith(".")) and ext.isalnum()
