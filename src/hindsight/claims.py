"""What a model judge's lesson may say about a session (the trust gate's rules for `apply`).

A fooled judge quotes real pieces, cut or dressed so they say something else (red team of #11,
class f): a clean command with the words that made it safe dropped (``terraform apply`` from
``terraform apply --dry-run``), the user's words with the negation cut off ("push to main" from
"never push to main"), a negation added around them, a host behind ideographic or defanged
dots, look-alike letters. So a command must be a clean command exactly (or whole segments of its
chain), a quote of the user whole clauses, a negation neither dropped nor added, and the prose
between hindsight's words or the session's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from hindsight import taint
from hindsight.randomness import lazy

_CURLY = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'"}
    | {c: '"' for c in "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"}
)
# Chain operators, spaced so ``a&&b`` and ``a && b`` split alike.
_CHAIN = lazy(r"(&&|\|\||;|\||\n)")
_BOUNDARY = ".!?;:,\n\u3002\uff01\uff1f\uff1b\uff0c\u3001"
# Negations of the languages screen.py knows: en, es, fr, de, pt, it, ru, zh, ja, ko.
_NEGATION = lazy(
    r"\b(?:never|not|no|nor|none|avoid(?:s|ed|ing)?|without|cannot|\w+n't"
    r"|(?:do|does|did|wo|ca|should|is|are|was|must|could|would)nt"
    r"|nunca|jam[aá]i?s|sin|ni|tampoco|evit[aeo]r?|ne|n'|pas|sans|[ée]vite[rz]?|aucune?"
    r"|nicht|nie|niemals|kein(?:e[nrs]?)?|ohne|vermeide[n]?|n[aã]o|sem|nem|non|mai|senza"
    r"|не|нет|никогда|без|избегай(?:те)?|нельзя|ни)\b"
    r"|不|别|勿|没|无|無|禁止|避免|ない|なく|決して|않|안\s|말[고아]|금지|절대|없이|마세요",
    re.I,
)
# Words a judge writes around the session's own, on top of hindsight's templates: function words,
# neutral lesson verbs and the nouns of a build, nothing that gives a rule, a capability or a
# name ("convention", "mirror", "token", "pipe", "directly", "optional", "sh" are not here).
_LESSON_WORDS = """
    a about after again all also an and any are as at be because been before both but by can
    cannot could did didn do does doesn done don each either else even first for from had has
    have how i if in into is isn it its it's just last later let like lists may more most much
    neither next no nor not now of off ok on once one only or other our out over per same
    so some than that the their them then there these they this those through to too two under
    until up upon us was wasn we were what when where whether which while who why will with
    won would yet t s
    add adds added ask asks asked build builds built call calls check checks checked clear
    clears come comes create creates does fail fails failed fetch fetches fetched fix fixes fixed
    get gets go goes instead keep keeps kept list lists listed lets need needs needed pass passes
    passed prints print remove removes removed return returns ran run runs set sets show shows
    shown start starts stop stops take takes try tries tried undo undoes use used uses wait
    work works worked write writes written prefer prefers want wants wanted
    change changes code command commands file files first folder line lines name output path
    repo step steps test tests time way error errors
    machine system local project package packages dependency dependencies version versions
    profile config configuration setup script scripts service services server database branch
    commit commits deploy deploys deployed deploying staging production dev environment tool
    tools installed broken succeed succeeds succeeded fast faster slow slower second separate
    correct correctly wrong right required requires require present missing exists available
    different another new old current latest default manual directory module modules import
    library type value values option options argument arguments variable variables port process
    job task issue problem cause reason result message warning log logs note doc docs page
    suite lint format compile runtime shell terminal session user hook hooks plain makefile
    exit code status since during
"""
LESSON_WORDS = frozenset(_LESSON_WORDS.split())


def fold(text: str) -> str:
    """``text`` as compared: NFKC (fullwidth letters and dots to plain ones), format characters
    gone, curly quotes straight. Look-alike letters stay: a command that only looks like a clean
    one is not that command."""
    text = unicodedata.normalize("NFKC", text.replace("\u2026", " "))
    if text.isascii():
        return text
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return text.translate(_CURLY)


def _bare(word: str) -> str:
    return word.strip("'\"`")


def tokens(text: str) -> list[str]:
    """The words of a command as compared: casefolded, quotes dropped, chain operators apart."""
    spaced = _CHAIN().sub(r" \1 ", fold(text).casefold().replace("`", "'"))
    return [w for w in (_bare(w) for w in spaced.split()) if w]


def whole_segments(span: str, piece: str) -> bool:
    """Whether ``span`` is ``piece`` exactly, or a run of whole segments of its chain
    (``b && c`` of ``a && b && c``), whitespace and quotes aside; never words dropped between."""
    want, have = tokens(span), tokens(piece)
    if not want:
        return False
    ops = {"&&", "||", ";", "|"}
    starts = [0] + [i + 1 for i, w in enumerate(have) if w in ops]
    for start in starts:
        end = start + len(want)
        if have[start:end] == want and (end == len(have) or have[end] in ops):
            return True
    return False


def negated(text: str) -> bool:
    """Whether ``text`` holds a negation (``never``, ``don't``, ``nunca``, ``nicht``, ``не`` ...)."""
    from hindsight.screen import normalize

    folded = fold(text).casefold()
    # Look-alike letters too ("nоt" with a Cyrillic o); the raw form keeps Cyrillic words whole.
    return bool(_NEGATION().search(folded) or _NEGATION().search(normalize(folded).casefold()))


def _clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of ``text``: between sentence or clause punctuation."""
    out, start = [], 0
    for i, c in enumerate(text + "\n"):
        if c in _BOUNDARY:
            out.append((start, i))
            start = i + 1
    return out


def _norm(text: str) -> str:
    return " ".join(fold(text).casefold().replace("`", "'").replace('"', "'").split())


def whole_clauses(quote: str, texts: Iterable[str]) -> bool:
    """Whether ``quote`` is one or more whole clauses of one of ``texts`` (the user's prompts):
    it starts where a clause starts and ends where one ends, so no word of it is cut away."""
    want = _norm(quote).strip(_BOUNDARY + " '")
    if not want:
        return False
    kept_negation = negated(want)
    for text in texts:
        norm = _norm(text)
        bounds = _clauses(norm)
        starts = {
            s + len(norm[s:e]) - len(norm[s:e].lstrip(" '"))
            for n, (s, e) in enumerate(bounds)
            # "never, ever push to main": a clause that is a negation alone belongs to the next
            if kept_negation or n == 0 or not _lone_negation(norm[slice(*bounds[n - 1])])
        }
        ends = {e - (len(norm[s:e]) - len(norm[s:e].rstrip(" '"))) for s, e in bounds}
        at = norm.find(want)
        while at >= 0:
            if at in starts and at + len(want) in ends:
                return True
            at = norm.find(want, at + 1)
    return False


_ANSWERS = frozenset({"no", "nope", "nah", "non", "nein", "нет"})
_FILLERS = frozenset({"ever", "repeat", "please", "really", "absolutely", "just", "but", "and"})


def _lone_negation(clause: str) -> bool:
    """A clause of negations alone, not a bare answer: "never, ever do X" and "not, repeat not,
    X" negate what follows; "No, use X" answers the agent, "don't use tox, use X" is two."""
    words = clause.strip(" '").split()
    return (
        bool(words)
        and not set(words) <= _ANSWERS
        and any(negated(w) for w in words)
        and all(negated(w) or w in _FILLERS for w in words)
    )


def negation_dropped(span: str, texts: Iterable[str]) -> bool:
    """Whether every place ``span`` stands in ``texts`` (the user's prompts) follows a negation
    in its clause that the span leaves out: "use --force" of "don't use --force"."""
    want = _norm(span)
    if not want or negated(want):
        return False
    found = False
    for text in texts:
        norm = _norm(text)
        bounds = _clauses(norm)
        for n, (start, end) in enumerate(bounds):
            clause = norm[start:end]
            lead = norm[slice(*bounds[n - 1])] if n else ""
            lead = lead if _lone_negation(lead) else ""
            at = clause.find(want)
            while at >= 0:
                found = True
                if not negated(lead + " " + clause[:at]):
                    return False
                at = clause.find(want, at + 1)
    return found


def negated_before(span: str, text: str) -> bool:
    """Whether every place ``span`` stands in ``text`` (a lesson) follows a negation in its own
    clause: "Never run `make release` ..." but not "Do not wait: run `make release`"."""
    found = False
    for hit in re.finditer(re.escape(span), text):
        found = True
        start = max((text.rfind(c, 0, hit.start()) for c in _BOUNDARY), default=-1) + 1
        if not negated(text[start : hit.start()]):
            return False
    return found


def whole_in(want: str, text: str) -> bool:
    """Whether ``want`` stands in ``text`` as whole words (not ``--force`` of ``--force-x``)."""
    return re.search(rf"(?<![\w-]){re.escape(want)}(?![\w-])", text) is not None


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def only_asked(want: str, said: list[str]) -> bool:
    """Whether the user's words hold ``want`` only inside questions ("what does X do?"): a
    question is no instruction, and quoting it as one turns it around (red team of #11, fourth
    pass)."""
    from hindsight.detect import conversation

    found = False
    for text in said:
        for sentence in _SENTENCE.findall(text):
            if whole_in(want, taint.norm(fold(sentence))):
                # "?" or a question's shape without it ("..., right", "I wonder, we should ...")
                if not sentence.rstrip().endswith("?") and not conversation.asks(sentence):
                    return False
                found = True
    return found


def negation_added(prose: str, quotes: list[str], said: list[str]) -> str | None:
    """A negation around the user's words that none of them holds ("Avoid: 'use the staging
    database'") turns them around."""
    if not quotes or not negated(prose) or any(negated(q) for q in quotes):
        return None
    if any(whole_clauses(q, said) for q in quotes):
        return "adds a negation the user's words do not hold"
    return None


def forms(word: str, own_judge: bool) -> tuple[str, ...]:
    """``word`` and, for a model judge's prose, its stems: "pushes", "asking" as "push", "ask"."""
    if own_judge or len(word) < 5:
        return (word,)
    out = [word]
    for end, add in (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ing", ""),
        ("ing", "e"),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
    ):
        if word.endswith(end) and len(word) - len(end) >= 3:
            out.append(word[: -len(end)] + add)
    return tuple(out)


def flag_dropped(span: str, texts: Iterable[str]) -> bool:
    """Whether every place ``span`` stands in ``texts`` (the user's prompts) goes on with a flag
    the span leaves out: ``make deploy`` of "run `make deploy --dry-run`"."""
    want = _norm(span)
    found = False
    for text in texts:
        norm = _norm(text)
        at = norm.find(want)
        while at >= 0:
            found = True
            if not norm[at + len(want) :].lstrip(" ").startswith("-"):
                return False
            at = norm.find(want, at + 1)
    return found


def restated_without_negation(prose: str, quoted: Iterable[str]) -> bool:
    """Whether the prose says a negated clause of ``quoted`` (the lesson's quotes, the user's
    prompts) again with its negation gone: "Push to main" over the user's "never push to main",
    "Force push to main" when the user said "don't force push to main"."""
    from hindsight.taint import words

    if negated(prose):
        return False
    said = f" {words(prose)} "
    for text in quoted:
        norm = fold(text).casefold()
        for start, end in _clauses(norm):
            clause = norm[start:end]
            if not negated(clause):
                continue
            core = words(_NEGATION().sub(" ", clause))
            if core.count(" ") >= 1 and f" {core} " in said:
                return True
    return False
