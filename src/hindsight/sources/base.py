"""The one Protocol every agent reader implements, and the line reader they share."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import orjson

from hindsight.locate import Repo
from hindsight.session import ReadStats, Session


@dataclass(frozen=True)
class Transcript:
    """One file on disk that belongs to the repo."""

    path: Path
    agent: str
    session_id: str
    size: int
    mtime: float
    subagent: bool = False  # a subagent (sidechain) file of session_id
    cwd: str | None = None


class Source(Protocol):
    """An agent's transcripts: where they are for a repo, and how to read one session."""

    agent: str

    def discover(self, repo: Repo, home: Path, since: datetime | None) -> list[Transcript]:
        """Transcripts of the repo and its worktrees changed after ``since`` (all when None)."""
        ...

    def read(self, main: Transcript | None, subagents: list[Transcript]) -> Session:
        """One session from its main file and its subagent files; never raises on bad content."""
        ...


def iter_records(path: Path, stats: ReadStats) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) for every usable JSON object line; the rest is counted, not raised.

    A last line without a newline that does not parse is a session still being written.
    """
    try:
        handle = path.open("rb")
    except OSError:
        stats.files_unreadable += 1
        return
    with handle:
        number = 0
        try:
            for raw in handle:
                number += 1
                if not raw.strip():
                    continue
                try:
                    record = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    stats.skipped[_why_invalid(raw)] += 1
                    continue
                if not isinstance(record, dict):
                    stats.skipped["not_an_object"] += 1
                    continue
                stats.records += 1
                yield number, record
        except OSError:
            # Deleted or unreadable mid-read: keep what was read, count the file.
            stats.files_unreadable += 1


def _why_invalid(raw: bytes) -> str:
    if not raw.endswith(b"\n"):
        return "truncated"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "invalid_utf8"
    return "invalid_json"
