"""Which transcripts a run reads: every agent's files of this repo changed inside the window."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import datetime, timedelta

from hindsight import clock, sources
from hindsight.context import Context
from hindsight.errors import HindsightError
from hindsight.record import Value
from hindsight.session import Session
from hindsight.sources.base import Source, Transcript
from hindsight.state import State

FIRST_RUN_LOOKBACK = timedelta(days=3)
_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$", re.I)
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, now: datetime) -> datetime:
    """``3d``, ``12h``, ``90m``, ``2w`` back from now, or an ISO date or time."""
    match = _RELATIVE.match(text)
    if match:
        return now - timedelta(**{_UNITS[match.group(2).lower()]: float(match.group(1))})
    try:
        return clock.parse_iso(text.strip())
    except ValueError:
        raise HindsightError(
            f"--since {text!r}: use 3d, 12h, 90m, 2w or an ISO date such as 2026-11-01"
        ) from None


def window_start(since: str | None, state: State, now: datetime) -> datetime:
    if since:
        return parse_since(since, now)
    if state.last_scan is not None:
        return state.last_scan
    return now - FIRST_RUN_LOOKBACK


class Group(Value):
    """The files of one session: its main transcript (absent when only subagents remain)."""

    _fields = ("source", "main", "subagents")
    source: Source
    main: Transcript | None
    subagents: list[Transcript]

    def __init__(
        self, source: Source, main: Transcript | None, subagents: list[Transcript]
    ) -> None:
        self.source = source
        self.main = main
        self.subagents = subagents

    @property
    def files(self) -> list[Transcript]:
        return ([self.main] if self.main else []) + self.subagents


def find(ctx: Context, since: datetime | None) -> list[Group]:
    groups: list[Group] = []
    for name in sources.AGENTS:
        home = ctx.home(name)
        if not os.path.isdir(home):  # False too where the home is not ours to read
            continue  # an agent never used here: not even its reader is imported
        source = sources.load(name)
        found = source.discover(ctx.repo, home, since)
        by_session: dict[str, list[Transcript]] = {}
        for transcript in found:
            by_session.setdefault(transcript.session_id, []).append(transcript)
        for files in by_session.values():
            main = next((t for t in files if not t.subagent), None)
            groups.append(Group(source, main, [t for t in files if t.subagent]))
    groups.sort(key=lambda g: min(t.mtime for t in g.files))
    return groups


def read(groups: list[Group]) -> Iterator[Session]:
    for group in groups:
        yield group.source.read(group.main, group.subagents)
