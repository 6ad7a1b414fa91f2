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
from hindsight.sources.base import Source, Transcript, Window
from hindsight.state import State

FIRST_RUN_LOOKBACK = timedelta(days=3)
_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$", re.I)
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, now: datetime) -> datetime:
    """``3d``, ``12h``, ``90m``, ``2w`` back from now, or an ISO date or time."""
    match = _RELATIVE.match(text)
    if match:
        try:
            return now - timedelta(**{_UNITS[match.group(2).lower()]: float(match.group(1))})
        except (OverflowError, ValueError):
            raise HindsightError(f"--since {text!r} reaches back before the year 1") from None
    try:
        return clock.parse_iso(text.strip())
    except ValueError:
        raise HindsightError(
            f"--since {text!r}: use 3d, 12h, 90m, 2w or an ISO date such as 2026-11-01"
        ) from None


def horizon(state: State, now: datetime) -> datetime:
    """Files never read count when they changed after this: the first run's window (the last
    3 days), or a watermark saved by an older hindsight (so an upgrade reads no months of
    history). A horizon in the future (the clock moved back) falls back to the last 3 days:
    a clock must never make every run read nothing."""
    start = state.horizon or state.last_scan or now - FIRST_RUN_LOOKBACK
    return start if start <= now else now - FIRST_RUN_LOOKBACK


def window(since: str | None, state: State, now: datetime) -> Window:
    if since:
        return Window(since=parse_since(since, now).timestamp())
    return Window(horizon=horizon(state, now).timestamp(), seen=state.files)


def window_start(since: str | None, state: State, now: datetime) -> datetime:
    """Where the window starts, for people (files read before are judged by their own progress)."""
    return parse_since(since, now) if since else horizon(state, now)


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


def find(ctx: Context, window: Window) -> list[Group]:
    groups: list[Group] = []
    for name in sources.AGENTS:
        home = ctx.home(name)
        if not os.path.isdir(home):  # False too where the home is not ours to read
            continue  # an agent never used here: not even its reader is imported
        source = sources.load(name)
        found = source.discover(ctx.repo, home, window)
        by_session: dict[str, list[Transcript]] = {}
        for transcript in found:
            by_session.setdefault(transcript.session_id, []).append(transcript)
        for files in by_session.values():
            main = next((t for t in files if not t.subagent), None)
            groups.append(Group(source, main, [t for t in files if t.subagent]))
    groups.sort(key=lambda g: min(t.mtime for t in g.files))
    return groups


def read(groups: list[Group]) -> Iterator[Session]:
    """Sessions in the groups' order (oldest first); a record copied into a later session (a
    resume copies the history it continues) counts once, in the session that wrote it first."""
    from hindsight.secret_context import token_output

    seen: set[str] = set()
    for group in groups:
        sess = group.source.read(group.main, group.subagents, seen)
        for call in sess.tools():
            if call.is_shell and call.command and call.output:
                # `heroku auth:token` prints its token alone: no pattern knows a UUID is one.
                call.output = token_output(call.command, call.output)
        yield sess
