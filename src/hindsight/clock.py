"""Current time and date, overridable so tests and the selfcheck can pin a day."""

from __future__ import annotations

import os
from datetime import date, datetime, timezone

from hindsight.errors import HindsightError


def now() -> datetime:
    """Aware UTC now; HINDSIGHT_NOW (ISO 8601) pins it for tests and reproducible runs."""
    pinned = os.environ.get("HINDSIGHT_NOW")
    if pinned:
        try:
            value = datetime.fromisoformat(pinned.replace("Z", "+00:00"))
        except ValueError as exc:
            raise HindsightError(f"HINDSIGHT_NOW={pinned!r} is not an ISO 8601 time") from exc
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.now(timezone.utc)


def today() -> date:
    """The user's local calendar day (entries and reports are dated for people)."""
    return now().astimezone().date()


def parse_iso(text: str) -> datetime:
    """Parse the ISO timestamps transcripts and state files carry (``...Z`` included)."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def iso(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def from_timestamp(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)
