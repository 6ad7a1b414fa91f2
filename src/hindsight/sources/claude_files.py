"""Where Claude Code keeps a repo's transcripts: ``<home>/projects/<encoded cwd>/<session>.jsonl``,
subagent files in both layouts, and the cwd fallback for folders whose name no rule gives."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from hindsight.locate import Repo
from hindsight.sources.base import Transcript, Window
from hindsight.sources.lines import peek

AGENT = "claude-code"
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
_MAX_FOLDER = 200
_DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def java_hash(text: str) -> int:
    """Java's String.hashCode over UTF-16 code units, as a signed 32-bit int."""
    h = 0
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (h * 31 + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def base36(number: int) -> str:
    if number == 0:
        return "0"
    digits = []
    while number:
        number, rest = divmod(number, 36)
        digits.append(_DIGITS36[rest])
    return "".join(reversed(digits))


def claude_folder_name(path: str) -> str:
    """The folder Claude Code keeps a cwd's transcripts in (FORMATS.md, checked against 2.1.328)."""
    name = _NOT_ALNUM.sub("-", path)
    if len(name) <= _MAX_FOLDER:
        return name
    return f"{name[:_MAX_FOLDER]}-{base36(abs(java_hash(path)))}"


def default_memory_dir(home: Path, repo: Repo) -> Path:
    """Claude Code's auto-memory folder of the main root, shared by every worktree."""
    return home / "projects" / claude_folder_name(str(repo.root)) / "memory"


_CWD = re.compile(rb'"cwd":\s*"((?:[^"\\]|\\.)*)"')
_SESSION = re.compile(rb'"sessionId":\s*"([^"]+)"')


def find(repo: Repo, home: Path, window: Window) -> list[Transcript]:
    """Transcripts of the repo and its worktrees the window wants: by the folder Claude Code
    names for each root, else by the cwd its records carry (renamed paths).

    Nothing is skipped in silence: a folder or file that cannot be listed or statted (a link
    loop, no permission) is handed to ``window.problem`` and the rest is still read.
    """
    projects = home / "projects"
    folders = [name for name, _ in _entries(str(projects), window, want_dirs=True)]
    exact = {claude_folder_name(str(root)) for root in repo.roots}
    found: list[Transcript] = []
    for name in folders:
        # Every project of the user passes here, each run: a folder where nothing changed costs
        # a listing and a stat a file, nothing more (no Path, no peek).
        files = _listing(os.path.join(projects, name), window)
        if not any(window.wants(path, st.st_size, st.st_mtime) for _, path, _, st in files):
            continue
        sessions = [
            (sid or peek(Path(path), _SESSION), path, sub, st) for sid, path, sub, st in files
        ]
        pending = {
            sid
            for sid, path, _, st in sessions
            if sid is not None and window.wants(path, st.st_size, st.st_mtime)
        }
        cwds: dict[str, str | None] = {}  # each file peeked once
        if name not in exact:
            # Renamed paths or other encodings: the folder belongs when its records' cwd does.
            mains = [(st.st_mtime, path) for sid, path, sub, st in sessions if not sub]
            newest = max(mains)[1] if mains else sessions[0][1]
            cwd = cwds[newest] = peek(Path(newest), _CWD)
            if cwd is None or not repo.owns(cwd):
                continue
        for sid, path, sub, st in sessions:
            if sid is None or sid not in pending:
                continue
            cwd = cwds[path] if path in cwds else peek(Path(path), _CWD)
            if cwd is not None and not repo.owns(cwd):
                if name in exact:  # said by `scan`: the folder is this repository's
                    window.elsewhere.append((path, cwd))
                continue  # another project whose path encodes to the same name
            found.append(Transcript(Path(path), AGENT, sid, st.st_size, st.st_mtime, sub, cwd))
    return found


def _listing(folder: str, window: Window) -> list[tuple[str | None, str, bool, os.stat_result]]:
    """(session id, path, is subagent, stat) of every transcript in one project folder, in name
    order; the id is None for 2.0.x subagent files (beside the sessions), whose records name it."""
    out: list[tuple[str | None, str, bool, os.stat_result]] = []
    for name, st in _entries(folder, window):
        path = os.path.join(folder, name)
        if name.endswith(".jsonl") and stat.S_ISREG(st.st_mode):
            sub = name.startswith("agent-")
            out.append((None if sub else name[:-6], path, sub, st))
        elif stat.S_ISDIR(st.st_mode):
            # 2.1.x: <session>/subagents/agent-*.jsonl
            agents = os.path.join(path, "subagents")
            if not os.path.isdir(agents):
                continue
            for agent, ast in _entries(agents, window):
                if (
                    agent.startswith("agent-")
                    and agent.endswith(".jsonl")
                    and stat.S_ISREG(ast.st_mode)
                ):
                    out.append((name, os.path.join(agents, agent), True, ast))
    return out


def _entries(
    folder: str, window: Window, want_dirs: bool = False
) -> list[tuple[str, os.stat_result]]:
    """(name, stat following links) of a folder's entries in name order; what cannot be statted
    (a link loop, a dangling link to a transcript, no permission) is a problem, not a silence."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except OSError as exc:
        window.problem(folder, exc.strerror or type(exc).__name__)
        return []
    out: list[tuple[str, os.stat_result]] = []
    for entry in entries:
        try:
            st = entry.stat()
        except FileNotFoundError:
            if entry.name.endswith(".jsonl") and entry.is_symlink():
                window.problem(entry.path, "a link to nothing")
            continue  # gone since the listing
        except OSError as exc:
            if want_dirs or entry.name.endswith(".jsonl") or entry.is_symlink():
                window.problem(entry.path, exc.strerror or type(exc).__name__)
            continue
        if want_dirs and not stat.S_ISDIR(st.st_mode):
            continue
        out.append((entry.name, st))
    return out
