"""Triggers met in earlier runs: "the same trigger in two or more sessions" across runs.

A SessionEnd hook's run reads one session, so a failure or a refusal met in every session is
never seen twice within one run. Each run records the triggers it met (a hash of the trigger,
the ids of the sessions, how many times, and hashes of the words a refusal's calls shared) in
state.json; the next run counts those sessions too. Only ids and hashes, never transcript text.

A trigger as stored (and as passed to the detectors in ``Options.triggers``)::

    {"sessions": {"<session id>": <times>, ...}, "seen": "<ISO time of the last run>",
     "programs": ["<hash>", ...], "words": ["<hash>", ...]}   # the last two: refusals only
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hindsight.detect import evidence_key

FAILURE = "failure"
REFUSAL = "refusal"


def key(kind: str, signature: str) -> str:
    """A trigger's key: a hash of its kind and signature (normalized command and error line,
    or the refusing rule), stable across runs."""
    return evidence_key("trigger", kind, signature)


def hashed(words: Iterable[str]) -> list[str]:
    """Words as short hashes: a refusal's shared words are matched later, never stored."""
    return sorted({evidence_key("word", w)[:13] for w in words})


def earlier(
    triggers: Mapping[str, Mapping[str, Any]], kind: str, signature: str, now: Iterable[str]
) -> dict[str, int]:
    """The sessions of earlier runs that met this trigger, those of this run left out (a session
    read again counts once): session id -> times."""
    seen = triggers.get(key(kind, signature))
    if not seen:
        return {}
    ids = set(now)
    return {str(k): int(v) for k, v in dict(seen.get("sessions") or {}).items() if k not in ids}


def shared(
    triggers: Mapping[str, Mapping[str, Any]], signature: str, field: str, words: set[str]
) -> set[str]:
    """Of this run's ``words``, those every earlier session of a refusal's rule shared too."""
    seen = triggers.get(key(REFUSAL, signature)) or {}
    known = set(seen.get(field) or ())
    return {w for w in words if hashed([w])[0] in known}


def record(
    kind: str,
    signature: str,
    sessions: Mapping[str, int],
    seen: str,
    programs: set[str] | None = None,
    words: set[str] | None = None,
) -> tuple[str, dict[str, Any]]:
    """One trigger met in this run, as state.json will merge it."""
    out: dict[str, Any] = {"sessions": dict(sessions), "seen": seen}
    if programs is not None:
        out["programs"] = hashed(programs)
    if words is not None:
        out["words"] = hashed(words)
    return key(kind, signature), out
