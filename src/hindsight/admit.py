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
    return REASON if any(not known(t) for t in random_tokens(text)) else None
