"""The memory gate: a lesson enters MEMORY.md only when it is built from trusted pieces.

Trusted pieces are the user's prompts, the agent's untainted commands, tool inputs, todos and
stated decisions (``taint``), paths that exist in the repository, and hindsight's own words (the
rules judge's templates and its classification of failures). Every code span, quoted string and
path of a lesson must be one of those pieces; every host must come from the user's own words;
no run of words may be copied from tool output. For the built-in rules judge the prose between
must be its template words or the user's or agent's own; a model judge's prose is free (and
screened), but it must cite findings whose trusted evidence supports what it quotes.
Anything else stays in the report, with the reason: report only, never lost.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from hindsight import hosts, taint

if TYPE_CHECKING:
    from hindsight.detect import Finding
    from hindsight.lessons import Lesson
    from hindsight.session import Session

_SEGMENT = functools.cache(
    lambda: re.compile(r"`(?P<code>[^`]+)`|\"(?P<dq>[^\"\n]+)\"|(?<!\w)'(?P<sq>[^'\n]+)'(?!\w)")
)
_QUOTES = "'\""
MAX_SESSIONS = 8  # cited sessions read at most for one lesson
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1"})
# Words detectors put into evidence the rules judge quotes (``edited PATH``, ``ran `CMD```) and
# the units of fmt.duration: hindsight's words too, though not in the judge's own module.
_EXTRA_WORDS = "edited ran s min h ms kb mb gb n a an the"
# A tool call's outcome, as detectors name it (session's constants).
_STATUSES = ("ok", "error", "rejected", "interrupted", "background", "blocked", "pending")


@functools.cache
def own_words() -> frozenset[str]:
    """Every word of the rules judge's templates, read from its code's string constants (so a new
    template is known the moment it is written) plus the failure vocabulary of judges.classify."""
    from types import CodeType, FunctionType

    from hindsight.detect import shell
    from hindsight.judges import classify, fix_lessons, rules, wording

    found: set[str] = set(_EXTRA_WORDS.split())
    # The failure categories a fix lesson names (judges/fix_lessons.py).
    for category in (
        shell.MISSING_DEPENDENCY,
        shell.WRONG_PATH,
        shell.AUTH,
        shell.WRONG_INVOCATION,
    ):
        found.update(taint.words(category).split())

    def walk(code: CodeType) -> None:
        for const in code.co_consts:
            if isinstance(const, str):
                found.update(taint.words(const).split())
            elif isinstance(const, CodeType):
                walk(const)

    judges = {m.__name__ for m in (rules, fix_lessons, wording)}
    values = [v for m in (rules, fix_lessons, wording) for v in vars(m).values()]
    for value in values:
        if isinstance(value, FunctionType) and value.__module__ in judges:
            walk(value.__code__)
        elif isinstance(value, type) and value.__module__ in judges:
            for attr in vars(value).values():
                if isinstance(attr, FunctionType):
                    walk(attr.__code__)
        elif isinstance(value, dict):
            for item in value.values():
                if isinstance(item, str):
                    found.update(taint.words(item).split())
    for phrase in classify.PHRASES:
        found.update(phrase.split())
    found.update(_STATUSES)
    from hindsight.detect import shell

    # The detectors' own names for a failure's category ("missing dependency", "wrong path").
    for category in (
        shell.MISSING_DEPENDENCY,
        shell.WRONG_PATH,
        shell.AUTH,
        shell.WRONG_INVOCATION,
        shell.OTHER,
    ):
        found.update(category.split())
    return frozenset(found)


def _bare(token: str) -> str:
    return token.strip(_QUOTES)


def _subsequence(segment: str, piece: str) -> bool:
    """Whether the words of a span stand in order in a piece: a judge shortens a command (noise,
    redirections and quotes dropped, a program's folder cut, the last word clipped)."""
    want = [_bare(w) for w in segment.split()]
    have = [_bare(w) for w in piece.split()]
    i = 0
    for n, word in enumerate(want):
        last = n == len(want) - 1
        while i < len(have):
            got = have[i]
            i += 1
            if got == word or got.endswith("/" + word) or (last and got.startswith(word)):
                break
            if n == 0 and got.startswith(word):  # python for python3.11
                break
        else:
            return False
    return bool(want)


class Gate:
    """Decides, lesson by lesson, whether the trusted evidence it cites supports it."""

    def __init__(
        self,
        sessions: list[Session],
        findings: list[Finding],
        in_repo: Callable[[str, str | None], bool],
        *,
        own_judge: bool,
    ) -> None:
        self.sessions = {sess.session_id: sess for sess in sessions}
        self.session_of = {f.key: f.session_id for f in findings}
        self.in_repo = in_repo
        self.own_judge = own_judge
        self._trust: dict[str, taint.SessionTrust] = {}

    def _of(self, session_id: str) -> taint.SessionTrust | None:
        sess = self.sessions.get(session_id)
        if sess is None:
            return None
        if session_id not in self._trust:
            self._trust[session_id] = taint.SessionTrust(sess, self.in_repo)
        return self._trust[session_id]

    def check(self, lesson: Lesson) -> str | None:
        """Why ``lesson`` may not enter memory, or None when every piece of it is trusted.

        The cited sessions are read one more at a time, until the lesson is supported: a failure
        seen in forty sessions needs one of them to vouch for it, not forty taint analyses.
        """
        cited = [self.session_of[k] for k in lesson.evidence if k in self.session_of]
        ids = [sid for sid in dict.fromkeys(cited) if sid in self.sessions][:MAX_SESSIONS]
        if not ids:
            return "cites no finding of the scanned sessions"
        reason = None
        for n in range(1, len(ids) + 1):
            reason = self._check(lesson, ids[:n])
            if reason is None:
                return None
        return reason

    def _check(self, lesson: Lesson, ids: list[str]) -> str | None:
        trusts = [t for sid in ids if (t := self._of(sid)) is not None]
        cwds = [self.sessions[sid].cwd for sid in ids]
        text = f"{lesson.title}\n{lesson.body}"
        user = "\x00".join(t.user_norm for t in trusts)
        clean = "\x00".join(t.clean_norm for t in trusts)
        segments = [
            (
                hit.group(0),
                hit.group("code") or hit.group("dq") or hit.group("sq") or "",
                hit.group("code") is None,
            )
            for hit in _SEGMENT().finditer(text)
        ]
        quotes = [span for _, span, quoted in segments if quoted]
        if lesson.kind == "preference":
            if not quotes:
                return "claims a user preference without quoting the user"
            if any(taint.norm(q) not in user for q in quotes):
                return "quotes as the user's words text the user never typed"
        prose = text
        for whole, span, _ in segments:
            prose = prose.replace(whole, " ", 1)
            reason = self._span(span, user, clean, trusts, cwds)
            if reason:
                return reason
        for host in hosts.find(text):
            if host not in _LOOPBACK and host.strip("[]") not in user:
                return "names a host the user never typed"
        for hit in taint._PATH().finditer(prose):
            reason = self._span(hit.group(0), user, clean, trusts, cwds)
            if reason:
                return reason
        trusted_words = " ".join(t.user_words for t in trusts) + " " + taint.words(clean)
        # Code spans are checked above, piece by piece; a copied sentence hides in prose and quotes,
        # each on its own: a run across the join (the template's "the user said" and the quote
        # after it) is no copy, though a continuation summary says "the user said" too.
        parts = [prose, *quotes]
        if any(t.copies(p, trusted_words, common=own_words()) for t in trusts for p in parts):
            return "copies a run of words from tool output"
        if self.own_judge:
            allowed = own_words() | {n.casefold() for t in trusts for n in t.tool_names}
            stray = [
                w
                for w in taint.words(prose).split()
                if w not in allowed and not w.isdigit() and f" {w} " not in f" {trusted_words} "
            ]
            if stray:
                return "prose that is neither hindsight's templates nor the user's or agent's words"
        return None

    def _span(
        self,
        span: str,
        user: str,
        clean: str,
        trusts: list[taint.SessionTrust],
        cwds: list[str | None],
    ) -> str | None:
        want = taint.norm(span)
        if not want or want in user or want in clean:
            return None
        if want in (taint.norm(p) for p in _phrases()):
            return None
        if self.own_judge and set(taint.words(want).split()) <= own_words():
            return None  # `interrupted`: the judge's own word for an outcome
        for t in trusts:
            if any(_subsequence(want, taint.norm(p)) for p in t.clean + t.user):
                return None
        if any(self.in_repo(span.strip(), cwd) for cwd in cwds):
            return None
        for t in trusts:
            for piece, reason in t.tainted:
                if want in taint.norm(piece) or _subsequence(want, taint.norm(piece)):
                    return reason
        return "quotes text that is not in the session's trusted evidence"


@functools.cache
def _phrases() -> tuple[str, ...]:
    from hindsight.judges import classify

    return classify.PHRASES
