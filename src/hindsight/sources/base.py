"""The one Protocol every agent reader implements, and what readers share."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from hindsight.locate import Repo
from hindsight.record import Value
from hindsight.session import Session


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
