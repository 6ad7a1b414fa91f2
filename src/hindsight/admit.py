"""Default-deny for memory: a token that looks random and is not in the repository's files
never enters MEMORY.md or its archive, whatever the secret patterns say.

Patterns find the secrets someone thought of; memory loads with the trust of the user's notes, so
there the rule turns around: a random-looking token (a key no pattern knows, a hex or UUID-shaped
credential) must be found in the repository's tracked files, by content or name, to enter.
hindsight's own MEMORY files never count as the repository's text. A lesson holding such a token
goes to the report only (redacted), with the reason.
"""

from __future__ import annotations

import contextlib
import functools
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hindsight.randomness import looks_random

if TYPE_CHECKING:
    pass

REASON = "kept out of memory: holds a random-looking token that is not in the repository's files"
CREDENTIAL = "kept out of memory: names a credential next to a literal value"
_TOKEN = functools.cache(lambda: re.compile(r"[A-Za-z0-9+/=_\-.~%]{16,}"))
# A key typed in groups ("q8Zr 2VtL m9Xw Pc4H"): the groups joined are the token.
_GROUPS = functools.cache(
    lambda: re.compile(
        r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]{3,8}[ -]){3,}[A-Za-z0-9]{3,8}(?![A-Za-z0-9])"
    )
)


def random_tokens(text: str) -> list[str]:
    """Tokens of ``text`` that look generated (hex and UUIDs included); a path's pieces apart."""
    out = []
    for match in _TOKEN().finditer(text):
        for piece in match.group(0).split("/"):
            piece = piece.strip(".-_~=")
            # A file's name is its stem: "requirements.txt" is a word and an extension.
            stem, dot, ext = piece.rpartition(".")
            if dot and stem and ext.isalpha() and len(ext) <= 5:
                piece = stem
            if looks_random(piece, 16, hex_counts=True):
                out.append(piece)
    for match in _GROUPS().finditer(text):
        joined = re.sub(r"[ -]", "", match.group(0))
        mixed = any(c.isdigit() for c in joined) or joined.lower() != joined != joined.upper()
        if mixed and looks_random(joined, 16, hex_counts=False):
            out.append(match.group(0))
    return out


def in_repository(root: Path | None, memory_dir: Path | None = None) -> Callable[[str], bool]:
    """Whether a token occurs in the repository's tracked files (content or path), cached; with
    no repository, nothing is known. MEMORY files and the memory folder never count."""
    cache: dict[str, bool] = {}
    names: list[str] = []
    excludes = [":(exclude,glob)**/MEMORY.md", ":(exclude,glob)**/MEMORY.archive.md"]
    if root is not None and memory_dir is not None:
        with contextlib.suppress(ValueError):
            excludes.append(f":(exclude){memory_dir.resolve().relative_to(root.resolve())}")

    def git(*args: str) -> subprocess.CompletedProcess[bytes] | None:
        try:
            return subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, timeout=20, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None

    def known(token: str) -> bool:
        if root is None:
            return False
        if token not in cache:
            if not names:
                listed = git("ls-files", "-z", "--", ".", *excludes)
                names.append(listed.stdout.decode(errors="replace") if listed else "")
            found = git("grep", "-q", "-I", "-F", "-e", token, "--", ".", *excludes)
            cache[token] = token in names[0] or bool(found and found.returncode == 0)
        return cache[token]

    return known


def denial(text: str, known: Callable[[str], bool]) -> str | None:
    """The reason ``text`` may not enter memory, or None."""
    if credential_context(text):
        return CREDENTIAL
    return REASON if any(not known(t) for t in random_tokens(text)) else None


# A credential word, then a literal value within a few words ("always log in as admin / x",
# "the staging password is x"): memory, loaded into every session, never holds such an entry,
# whether or not redaction found the value (the report keeps it, redacted).
_CREDENTIAL_WORD = functools.cache(
    lambda: re.compile(
        r"(?<![\w\-./$])(?:password|passphrase|passwd|passcode|pw|secret|token|api[ _\-]?key|apikey|"
        r"cookie|credentials?|creds|login|log(?:ged|ging)?[ \t]?in|sign(?:ed|ing)?[ \t]?in)"
        r"(?:'s)?(?![\w\-/])",
        re.I,
    )
)
_VERB = frozenset(["is", "was", "are", "were", "=", ":", "-"])
_SKIP = frozenset(
    [
        "for",
        "of",
        "the",
        "a",
        "an",
        "to",
        "as",
        "with",
        "using",
        "use",
        "our",
        "this",
        "that",
        "its",
        "it",
    ]
)
_PLACE = frozenset(
    [
        "in",
        "at",
        "from",
        "see",
        "under",
        "via",
        "inside",
        "into",
        "within",
        "by",
        "behind",
        "through",
    ]
)
_NOT_LITERAL = functools.cache(
    lambda: re.compile(
        r"[$%{<~./\-].*|.*://.*|[A-Z][A-Z0-9_]*_[A-Z0-9_]*|[\w\-]+\.[A-Za-z]{1,5}|v?\d+(?:\.\d+)+\w*|"
        r".*(?:x{3,}|X{3,}|\*{3}|your[-_]|[-_]here).*|\d{1,5}"
    )
)


def credential_context(text: str) -> bool:
    """Whether ``text`` names a credential next to a literal value (a redaction marker counts:
    a value was there)."""
    text = re.sub(r"\[REDACTED:[\w\-]+\]", "[REDACTED]", text)
    for m in _CREDENTIAL_WORD().finditer(text):
        line_end = text.find("\n", m.end())
        after = text[m.end() : len(text) if line_end < 0 else line_end]
        ready = True  # right after the word or its verb: any literal; further on, a strong one
        for n, raw in enumerate(after.split()[:6]):
            if "[REDACTED]" in raw:
                return True
            if raw == "/" and n > 0:
                continue  # "as admin / x": the value comes next
            value = raw.strip("`'\"()[]{},;.!?")
            user, slash, rest = value.partition("/")
            if slash and user.isalnum() and rest and n > 0 and _literal(rest):
                return True  # "as admin/x"
            lower = value.lower()
            if lower in _PLACE:
                break
            if lower in _VERB:
                ready = True
                continue
            if lower in _SKIP or not value:
                continue
            if _literal(value) and (ready or _strong(value)):
                return True
            if not value.replace("-", "").replace("'", "").isalpha():
                break
            ready = False
    return False


def _strong(value: str) -> bool:
    symbols = any(not c.isalnum() and c not in "-_'" for c in value)
    digits = any(c.isdigit() for c in value)
    return (symbols and digits) or looks_random(value, 12, mean_run=3.0)


def _literal(value: str) -> bool:
    if len(value) < 4 or _NOT_LITERAL().fullmatch(value):
        return False
    letters = any(c.isalpha() for c in value)
    digits = any(c.isdigit() for c in value)
    symbols = any(not c.isalnum() and c not in "-_'" for c in value)
    return (letters and (digits or symbols)) or looks_random(value, 12, mean_run=3.0)
