"""Detectors: plain functions over sessions, each yielding findings with their evidence.

A finding is what the transcript proves (a command failed with exit 2, the next `make` worked
40 s later); whether it is a lesson is the judge's call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from hindsight.record import Record
from hindsight.redact import redact_json
from hindsight.session import Session, Where

DEFAULT_SLOW_SECONDS = 60.0


class Options(Record):
    _fields = ("slow_seconds", "triggers")
    slow_seconds: float
    # Triggers met in earlier runs (detect/triggers.py): trigger key -> sessions and hashes.
    triggers: dict[str, dict[str, Any]]

    def __init__(
        self,
        slow_seconds: float = DEFAULT_SLOW_SECONDS,
        triggers: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.slow_seconds = slow_seconds
        self.triggers = {} if triggers is None else triggers


class Finding(Record):
    _fields = ("kind", "key", "session_id", "where", "ts", "strength", "data", "untrusted")
    kind: str
    key: str  # evidence key: a hash of ids, stable across runs and judges' wording
    session_id: str
    where: list[Where]
    ts: datetime | None
    strength: int  # 1 (trivia) .. 5 (seen again and again)
    data: dict[str, Any]
    untrusted: tuple[str, ...]

    def __init__(
        self,
        kind: str,
        key: str,
        session_id: str,
        where: list[Where],
        ts: datetime | None,
        strength: int,
        data: dict[str, Any] | None = None,
        untrusted: tuple[str, ...] = (),
    ) -> None:
        self.kind = kind
        self.key = key
        self.session_id = session_id
        self.where = where
        self.ts = ts
        self.strength = strength
        # Redact before anything downstream clips a value: half a token is still a leak.
        self.data = dict(redact_json(_with_commands(data or {})))  # type: ignore[call-overload]
        # Names of the data fields that hold text from tool output, files or the web.
        self.untrusted = untrusted

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "key": self.key,
            "session_id": self.session_id,
            "where": [f"{w.path}:{w.line}" for w in self.where],
            "time": self.ts.isoformat() if self.ts else None,
            "strength": self.strength,
            "data": self.data,
            "untrusted": list(self.untrusted),
        }


# The fields that hold a whole command: every other field is redacted with them as context.
_COMMANDS = ("command", "fix_command")


def _with_commands(data: dict[str, Any]) -> dict[str, Any]:
    """The string fields of ``data`` redacted as parts of its commands (a step, the flags that
    differed): a secret the whole command shows by its slot is gone from its pieces too."""
    context = "\n".join(str(data[k]) for k in _COMMANDS if isinstance(data.get(k), str))
    if not context:
        return data
    from hindsight.redact import redact_with

    return {
        k: redact_with(v, context) if isinstance(v, str) and k not in _COMMANDS else v
        for k, v in data.items()
    }


def evidence_key(kind: str, *parts: object) -> str:
    text = "\x1f".join([kind, *(str(p) for p in parts)])
    digest: str = _sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return "k" + digest[:20]


def _load_sha256() -> Callable[[bytes], Any]:
    """SHA-256 from CPython's built-in module: hashlib loads OpenSSL first, ~2 ms of every start,
    for the same digest. hashlib where the built-in one is missing (other Pythons)."""
    import importlib

    for name in ("_sha2", "_sha256"):  # CPython 3.12+, 3.11 and before
        try:
            return importlib.import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256

    return sha256


_sha256 = _load_sha256()


Detector = Callable[[list[Session], Options], Iterable[Finding]]


def detectors() -> list[Detector]:
    from hindsight.detect import (
        checks,
        conversation,
        failures,
        folders,
        globbing,
        missing,
        navigation,
        recommend,
        timeouts,
    )

    return [
        failures.failed_then_fixed,
        failures.repeated_failures,
        failures.tool_errors,
        failures.repeated_refusals,
        failures.slow_commands,
        folders.stale_folders,
        globbing.unquoted_patterns,
        missing.hidden_missing_programs,
        timeouts.repeated_timeouts,
        navigation.long_searches,
        navigation.references,
        checks.check_commands,
        conversation.corrections,
        conversation.unfinished,
        conversation.decisions,
        conversation.abandoned,
        recommend.repeated_sequences,
        recommend.skill_friction,
    ]


def run_all(sessions: list[Session], options: Options | None = None) -> list[Finding]:
    opts = options or Options()
    found: list[Finding] = []
    seen: set[str] = set()
    for detector in detectors():
        for finding in detector(sessions, opts):
            if finding.key not in seen:
                seen.add(finding.key)
                found.append(finding)
    found.sort(key=lambda f: (-f.strength, f.ts.timestamp() if f.ts else 0.0))
    return found
