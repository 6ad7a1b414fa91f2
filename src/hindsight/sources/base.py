"""The one Protocol every agent reader implements, and what readers share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from hindsight.locate import Repo
from hindsight.record import Value
from hindsight.session import ReadStats, Session

if TYPE_CHECKING:
    from hindsight.sources.lines import Skim, SkipRules


class Transcript(Value):
    """One file on disk that belongs to the repo."""

    _fields = ("path", "agent", "session_id", "size", "mtime", "subagent", "cwd")
    path: Path
    agent: str
    session_id: str
    size: int
    mtime: float
    subagent: bool  # a subagent (sidechain) file of session_id
    cwd: str | None

    def __init__(
        self,
        path: Path,
        agent: str,
        session_id: str,
        size: int,
        mtime: float,
        subagent: bool = False,
        cwd: str | None = None,
    ) -> None:
        self.path = path
        self.agent = agent
        self.session_id = session_id
        self.size = size
        self.mtime = mtime
        self.subagent = subagent
        self.cwd = cwd


def file_key(path: str) -> str:
    """A transcript's key in state.json: its path, with bytes that are not UTF-8 escaped (a name
    that is not valid UTF-8 must neither crash the JSON nor collide with another)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class Window:
    """Which transcripts a run reads: per-file progress, not one timestamp.

    Without ``since``: a file read before is read again when its size or mtime changed; a file
    never read is read when it changed after ``horizon`` (the first run's start minus 3 days, or
    a migrated watermark). With ``since`` (the user's ``--since``): every file changed after it,
    read before or not; files outside it stay pending, since only files read are recorded.
    Files that cannot be listed or statted are collected in ``problems``, never skipped silently.
    """

    def __init__(
        self,
        since: float | None = None,
        horizon: float | None = None,
        seen: dict[str, tuple[int, float]] | None = None,
    ) -> None:
        self.since = since
        self.horizon = horizon
        self.seen = {} if seen is None else seen
        self.problems: list[tuple[str, str]] = []
        # Transcripts in a folder named for this repository whose records say they ran
        # elsewhere (a copied file, another project encoding to the same name): (path, cwd).
        self.elsewhere: list[tuple[str, str]] = []

    def wants(self, path: str, size: int, mtime: float) -> bool:
        if self.since is not None:
            return mtime > self.since
        known = self.seen.get(file_key(path)) if self.seen else None
        if known is not None:
            return known != (size, mtime)
        return self.horizon is None or mtime > self.horizon

    def problem(self, path: str, reason: str) -> None:
        self.problems.append((path, reason))


class Source(Protocol):
    """An agent's transcripts: where they are for a repo, and how to read one session."""

    agent: str

    def discover(self, repo: Repo, home: Path, window: Window) -> list[Transcript]:
        """Transcripts of the repo and its worktrees the window wants; what could not be
        looked at goes to ``window.problem``."""
        ...

    def read(
        self, main: Transcript | None, subagents: list[Transcript], seen: set[str] | None = None
    ) -> Session:
        """One session from its main file and its subagent files; never raises on bad content.

        ``seen`` holds the ids of records read before in this run (shared across sessions, read
        oldest first): a record copied into a resumed session counts once, where it was first."""
        ...


def why_invalid(raw: bytes, ended: bool = True) -> str:
    """Why a line did not parse: a last line still being written, bad UTF-8, or bad JSON."""
    if not ended:
        return "truncated"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "invalid_utf8"
    return "invalid_json"


def json_objects(
    path: Path,
    stats: ReadStats,
    rules: SkipRules | None = None,
    on_skim: Callable[[int, Skim, ReadStats], None] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) for each JSON object line of a file; every other line is counted in
    ``stats`` by why (a line too long to hold, a truncated last line, bad UTF-8 or JSON, not an
    object). Each record yielded is counted as read; a reader that cannot use one takes it back.
    A line too long to parse goes to ``on_skim`` when given (a reader that can still use its
    head), else it is counted and passed over."""
    from hindsight.sources import lines

    for number, line, ended in lines.scan(path, stats, rules):
        if isinstance(line, lines.Skim):
            if on_skim is not None:
                on_skim(number, line, stats)
            else:
                # A huge output or prompt: nothing these readers decide rests on it.
                stats.skipped["truncated" if not line.complete else "too_long"] += 1
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            stats.skipped[why_invalid(bytes(line), ended)] += 1
            continue
        if not isinstance(record, dict):
            stats.skipped["not_an_object"] += 1
            continue
        stats.records += 1
        yield number, record


def timestamp(value: Any) -> datetime | None:
    """An ISO 8601 time as the agents write them (``...Z``), or None."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def text_of(content: Any) -> str:
    """The text of a message's content: a string, or the ``text`` of each part of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p["text"])
            for p in content
            if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def read_files(
    agent: str,
    main: Transcript | None,
    subagents: list[Transcript],
    read_one: Callable[[Session, Path, ReadStats], None],
) -> Session:
    """One session from its files, each read by ``read_one`` and counted on its own."""
    anchor = main or subagents[0]
    session = Session(agent, anchor.session_id, anchor.path, cwd=anchor.cwd)
    for transcript in ([main] if main else []) + subagents:
        stats = ReadStats()
        read_one(session, transcript.path, stats)
        session.file_stats[transcript.path] = stats
        session.stats.merge(stats)
    return session
