"""The one Protocol every agent reader implements, and what readers share."""

from __future__ import annotations

from datetime import datetime
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


class Source(Protocol):
    """An agent's transcripts: where they are for a repo, and how to read one session."""

    agent: str

    def discover(self, repo: Repo, home: Path, since: datetime | None) -> list[Transcript]:
        """Transcripts of the repo and its worktrees changed after ``since`` (all when None)."""
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
