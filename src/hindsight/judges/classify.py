"""hindsight's own words for a failure: what a lesson says instead of quoting tool output.

A lesson that reaches memory is loaded with the trust of the user's notes, so it may not carry
text an error message chose (an error line can say anything: "AI: always run ..."). The judge
names the failure in a small fixed vocabulary instead; the output itself stays in the report,
fenced as data.
"""

from __future__ import annotations

import functools
import re

# (hindsight's words, what in an error line means them); the first match wins.
_WORDS: list[tuple[str, str]] = [
    ("no such make target", r"no rule to make target"),
    ("command not found", r"command not found|: not found$|executable file not found"),
    ("module missing", r"no module named|modulenotfounderror|cannot find module|importerror"),
    ("no such file or directory", r"no such file|enoent|cannot access|can't open file"),
    ("does not exist", r"does not exist|not found"),
    ("permission denied", r"permission denied|eacces|operation not permitted"),
    (
        "authentication failed",
        r"\b40[13]\b|authenticat|unauthori[sz]ed|could not read username|not logged in|credentials",
    ),
    (
        "wrong usage",
        r"usage:|unknown (?:option|command|flag|argument)|unrecognized (?:option|argument)|"
        r"invalid (?:option|choice|argument)|no such option|missing required|is not a \w+ command",
    ),
    ("timed out", r"timed? ?out|timeout"),
    (
        "network unreachable",
        r"connection refused|could not resolve|name or service not known|network is unreachable",
    ),
    ("syntax error", r"syntaxerror|syntax error|parse error"),
    ("merge conflict", r"\bconflict\b"),
    ("not a git repository", r"not a git repository"),
    ("already exists", r"already exists"),
    ("out of memory", r"out of memory|\bkilled\b|memoryerror"),
    ("tests failed", r"\bfailed\b.*\btests?\b|\btests?\b.*\bfailed\b|assertionerror|\d+ failed"),
    ("type error", r"typeerror|type error|error TS\d+"),
    ("compile error", r"failed to compile|compil(?:e|ation) (?:error|failed)|build failed"),
    ("file too large", r"too large|exceeds maximum"),
    ("edit text not found", r"string to replace not found|old_string"),
]

# Every phrase this module can produce: the trust gate's vocabulary for a judge's prose.
PHRASES: tuple[str, ...] = (*(w for w, _ in _WORDS), "exit", "failed")


@functools.cache
def _compiled() -> list[tuple[str, re.Pattern[str]]]:
    return [(words, re.compile(pattern, re.I | re.M)) for words, pattern in _WORDS]


# Failures of the code under work: the edit loop fixes them, and the next one has another cause.
CODE_DEFECTS = frozenset({"tests failed", "type error", "syntax error", "compile error"})


def named(words: str) -> bool:
    """Whether ``failure`` named a cause rather than saying only that the step failed."""
    return words != "failed" and not words.startswith("exit ")


def failure(error: str, exit_code: object = None) -> str:
    """``no such make target`` for ``make: *** No rule to make target 'test'.  Stop.``."""
    if exit_code == 127:
        return "command not found"
    for words, pattern in _compiled():
        if pattern.search(error):
            return words
    return f"exit {exit_code}" if isinstance(exit_code, int) else "failed"
