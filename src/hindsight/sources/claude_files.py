"""Where Claude Code keeps a repo's transcripts: ``<home>/projects/<encoded cwd>/<session>.jsonl``,
subagent files in both layouts, and the cwd fallback for folders whose name no rule gives."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

import orjson

from hindsight.locate import Repo, claude_folder_name
from hindsight.sources.base import Transcript

AGENT = "claude-code"
_PEEK_BYTES = 256 * 1024
_CWD = re.compile(rb'"cwd":\s*"((?:[^"\\]|\\.)*)"')
_SESSION = re.compile(rb'"sessionId":\s*"([^"]+)"')


def peek(path: Path, pattern: re.Pattern[bytes]) -> str | None:
    """The first value of a string field near the top of a file, without parsing any record.

    ``pattern`` starts with the field's literal key: a plain byte search finds it, the regex only
    confirms (a regex scan over the first records, often a 200 KB request blob, costs far more).
    """
    needle = pattern.pattern[: pattern.pattern.index(b":") + 1]
    head = bytearray()
    match = None
    try:
        with path.open("rb", buffering=0) as handle:
            # Small steps: the field is almost always in the first record, whatever follows it.
            while len(head) < _PEEK_BYTES and match is None:
                step = handle.read(16 << 10)
                if not step:
                    break
                # Look again at the previous step's end: a key or value cut by the boundary.
                pos = max(0, len(head) - 4096)
                head += step
                while match is None:
                    pos = head.find(needle, pos)
                    if pos < 0:
                        break
                    match = pattern.match(head, pos)
                    pos += 1

    except OSError:
        return None
    if not match:
        return None
    try:
        value = orjson.loads(b'"' + match.group(1) + b'"')
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, str) else None


def find(repo: Repo, home: Path, since: datetime | None) -> list[Transcript]:
    """Transcripts of the repo and its worktrees changed after ``since`` (all when None): by the folder
    Claude Code names for each root, else by the cwd its records carry (renamed paths)."""
    projects = home / "projects"
    try:
        folders = sorted(p for p in projects.iterdir() if p.is_dir())
    except OSError:
        return []
    exact = {claude_folder_name(str(root)) for root in repo.roots}
    cutoff = since.timestamp() if since else None
    found: list[Transcript] = []
    for folder in folders:
        files = _session_files(folder)
        if not files:
            continue
        stats = {path: _stat(path) for _, path, _ in files}  # one stat a file, used twice
        pending = {
            sid
            for sid, path, _ in files
            if stats[path] is not None
            and (cutoff is None or getattr(stats[path], "st_mtime", 0.0) > cutoff)
        }
        if not pending:
            continue
        if folder.name not in exact:
            # Renamed paths or other encodings: the folder belongs when its records' cwd does.
            newest = max(
                (p for _, p, sub in files if not sub),
                key=lambda p: getattr(stats[p], "st_mtime", 0.0),
                default=files[0][1],
            )
            cwd = peek(newest, _CWD)
            if cwd is None or not repo.owns(cwd):
                continue
        for sid, path, sub in files:
            st = stats[path]
            if sid not in pending or st is None:
                continue
            cwd = peek(path, _CWD)
            if cwd is not None and not repo.owns(cwd):
                continue  # another project whose path encodes to the same name
            found.append(Transcript(path, AGENT, sid, st.st_size, st.st_mtime, sub, cwd))
    return found


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _session_files(folder: Path) -> list[tuple[str, Path, bool]]:
    """(session id, path, is subagent) for every transcript in one project folder."""
    out: list[tuple[str, Path, bool]] = []
    try:
        # scandir: the entry's type comes with the listing, no stat per file.
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        path = folder / entry.name
        if entry.name.endswith(".jsonl") and entry.is_file():
            if entry.name.startswith("agent-"):
                # 2.0.x: subagent files beside the sessions; their records name the session.
                sid = peek(path, _SESSION)
                if sid:
                    out.append((sid, path, True))
            else:
                out.append((path.stem, path, False))
        elif entry.is_dir():
            sub = path / "subagents"
            if sub.is_dir():
                out.extend((entry.name, p, True) for p in sorted(sub.glob("agent-*.jsonl")))
    return out
