"""Plain words that would make an agent weaken a check, destroy or publish, or handle
credentials ("no need to wait for CI", "only run the fast tests before pushing").

The words are capabilities' lists (verbs, the checks they act on, needless-phrases); here they
are only assembled. A phrase governed by a real negation ("never skip the tests", "don't force
push") asks for the opposite and opens nothing.
"""

from __future__ import annotations

import functools
import re

from hindsight.guard import capabilities as cap
from hindsight.guard.classify import Opening

_NEG = r"never|don't|do not|dont|must not|mustn't|should not|shouldn't|not|no|stop|avoid|without"
_DET = r"(?:(?:the|any|all|a|an|these|those|our|its|their|every|for|on)\s+)?"
_GAP = r"(?:[\w'-]+\s+){0,2}?"


@functools.cache
def _patterns() -> tuple[tuple[str, re.Pattern[str], str], ...]:
    def rule(body: str) -> re.Pattern[str]:
        return re.compile(body, re.I)

    checks = rf"(?:{cap.CHECKS})(?![\w-])"
    negated = rf"(?:(?<![\w'])({_NEG})\s+(?:(?:ever|again|just|even)\s+)?)?"
    return (
        (cap.WEAKEN_CHECK, rule(rf"{negated}(?<![\w-])(?:{cap.WEAKEN_VERBS})\s+{_DET}{_GAP}{checks}"), "weakens a check"),
        (cap.WEAKEN_CHECK, rule(rf"()(?<![\w-])(?:{cap.NEEDLESS})\s+{_DET}{_GAP}{checks}"), "says a check need not run"),
        (cap.WEAKEN_CHECK, rule(rf"()(?<![\w-]){cap.NARROWING}\s+{_DET}(?:{cap.NARROW_WORDS})\b\s*{_GAP}{checks}"), "narrows the checks that run"),
        (cap.DESTROY_PUBLISH, rule(rf"{negated}(?<![\w-])(?:{cap.DESTROY_WORDS})"), "asks to destroy or publish"),
        (cap.CREDENTIALS, rule(rf"{negated}(?<![\w-])(?:(?:use|read|copy|paste|print|share|export|send|store|put|add|commit)\w*\s+{_DET}{_GAP})(?:{cap.CREDENTIAL_WORDS})(?![\w-])"), "handles credentials"),
    )  # fmt: skip


def openings(text: str) -> list[Opening]:
    """What the plain words of ``text`` (code spans left out) would make an agent do."""
    text = text.replace("\u2019", "'").replace("\u02bc", "'")
    out: list[Opening] = []
    for capability, pattern, why in _patterns():
        for hit in pattern.finditer(text):
            if hit.group(1):
                continue  # "never skip the tests": the opposite of weakening
            out.append(Opening(capability, f'{why} in plain words ("{hit.group(0).strip()}")'))
    return out
