"""Lay a development-set source out as a user's machine has it: a git repo and a Claude home.

The recorded project root is replaced by the repo's path everywhere in the records (cwd, tool
inputs, tool outputs), whatever its spelling: POSIX, Windows with either case of drive letter,
backslashes plain or JSON-escaped. The files the sessions read or edited are recreated (empty) and
committed, so hindsight's checks against the repository behave as they would for the user.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from hindsight.sources.claude_files import claude_folder_name  # noqa: E402

FILE_KEYS = ("file_path", "notebook_path")
FILE_TOOLS = {"Read", "Edit", "MultiEdit", "Write", "NotebookEdit", "NotebookRead"}
_WINDOWS = re.compile(r"^[A-Za-z]:[\\/]")


class Transcript:
    """One recorded file: its lines, sessions, first cwd and time span."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name
        self.lines = path.read_text(encoding="utf-8").splitlines()
        self.cwds: list[str] = []
        stamps: list[str] = []
        for line in self.lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(record, dict):
                continue
            cwd = record.get("cwd")
            if isinstance(cwd, str) and cwd and cwd not in self.cwds:
                self.cwds.append(cwd)
            stamp = record.get("timestamp")
            if isinstance(stamp, str):
                stamps.append(stamp)
        self.started = min(stamps, default="")
        self.ended = max(stamps, default="")


def read_source(folder: Path) -> list[Transcript]:
    """The source's transcripts in the order their sessions ended (the order hooks fire in)."""
    return sorted((Transcript(p) for p in folder.glob("*.jsonl")), key=lambda t: t.ended)


def _pure(path: str) -> PurePosixPath | PureWindowsPath:
    return PureWindowsPath(path) if _WINDOWS.match(path) else PurePosixPath(path)


def _key(path: str) -> tuple[str, ...]:
    parts = _pure(path).parts
    return tuple(p.lower() for p in parts) if _WINDOWS.match(path) else parts


def recorded_root(transcripts: list[Transcript]) -> str:
    """The first cwd; where later cwds leave it, the folder they share (when deeper than a top
    folder such as /home or C:\\): for sources whose cwd moves around one project."""
    cwds = [c for t in sorted(transcripts, key=lambda t: t.started) for c in t.cwds]
    if not cwds:
        raise ValueError("no record carries a cwd")
    first = cwds[0]
    common = list(_key(first))
    for cwd in cwds[1:]:
        other = _key(cwd)
        n = 0
        while n < min(len(common), len(other)) and common[n] == other[n]:
            n += 1
        common = common[:n]
    if len(common) == len(_key(first)):
        return first
    if len(common) < 3:  # "/", "/home", "C:\\Users": not a project
        return first
    return str(_pure(first).parents[len(_key(first)) - len(common) - 1])


def root_pattern(root: str) -> re.Pattern[str]:
    """The root as it may appear inside a raw JSON line, with the rest of a path that follows it.

    A separator is ``/``, ``\\`` or a JSON-escaped backslash (two or four characters raw);
    Windows paths match in any case. The tail (``\\src\\app.py``) is captured so its separators
    can be turned into ``/``. The root must end a path component: ``/a/proj2`` is not ``/a/proj``.
    """
    windows = bool(_WINDOWS.match(root))
    sep = r"(?:\\\\\\\\|\\\\|/)" if windows else "/"
    parts = [re.escape(p) for p in re.split(r"[\\/]+", root.rstrip("\\/"))]
    body = sep.join(parts) if windows else "/".join(parts)
    segment = r"[^\\/\s\"'`<>|*?:]+"
    tail = rf"(?P<tail>(?:{sep}{segment})*)" if windows else ""
    end = r"(?![A-Za-z0-9_\-]|\.[A-Za-z0-9_])"
    return re.compile(body + end + tail, re.I if windows else 0)


def rewrite_line(line: str, pattern: re.Pattern[str], new_root: str) -> str:
    def swap(match: re.Match[str]) -> str:
        tail = match.groupdict().get("tail") or ""
        return new_root + re.sub(r"(?:\\\\\\\\|\\\\)", "/", tail)

    return pattern.sub(swap, line)


def _blocks(record: Any, kind: str) -> Iterator[dict[str, Any]]:
    """The record's message content blocks of one type (``tool_use``, ``tool_result``)."""
    message = record.get("message") if isinstance(record, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == kind:
            yield block


def _touched_files(record: Any, out: set[str]) -> None:
    """Paths the record's tool calls read or edited."""
    for block in _blocks(record, "tool_use"):
        if block.get("name") not in FILE_TOOLS:
            continue
        tool_input = block.get("input")
        if not isinstance(tool_input, dict):
            continue
        for key in FILE_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str):
                out.add(value)


def _listed_files(record: Any, out: set[str]) -> None:
    """The files a Glob or Grep result listed (``toolUseResult.filenames``): Claude Code found
    them on the user's disk, so they exist in the repository there."""
    result = record.get("toolUseResult") if isinstance(record, dict) else None
    names = result.get("filenames") if isinstance(result, dict) else None
    if isinstance(names, list):
        out.update(n for n in names if isinstance(n, str))


def _read_whole(record: Any, out: dict[str, str]) -> None:
    """A file's text where a Read result holds all of it (``toolUseResult.file``)."""
    result = record.get("toolUseResult") if isinstance(record, dict) else None
    seen = result.get("file") if isinstance(result, dict) else None
    if not isinstance(seen, dict):
        return
    path, text = seen.get("filePath"), seen.get("content")
    whole = seen.get("startLine") == 1 and seen.get("numLines") == seen.get("totalLines")
    if isinstance(path, str) and isinstance(text, str) and whole:
        out[path] = text


_SPAWN_FAILED = re.compile(r"Failed to spawn|No such file or directory|can't open file", re.I)


def _hook_scripts(record: Any, root: str, out: set[str]) -> None:
    """The repository's hook scripts that ran: a hook that refused a call in its own words
    ("BLOCKED: ...") was a file on the user's disk; one that failed to start is not."""
    from hindsight.detect.failures import hook_script
    from hindsight.sources.claude_outcomes import refusing_hook

    for block in _blocks(record, "tool_result"):
        text = block.get("content")
        if not isinstance(text, str) or "hook" not in text[:200] or _SPAWN_FAILED.search(text):
            continue
        script = hook_script(refusing_hook(text), root)
        if script is not None:
            out.add(f"{root}/{script}")


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=bench@hindsight", "-c", "user.name=bench", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


# A home folder as the sessions' root: /home/<user>, /Users/<user>, C:\Users\<user>.
_HOME_FOLDER = re.compile(r"^(?:/home/[^/]+|/Users/[^/]+|[A-Za-z]:\\Users\\[^\\]+)/?$")


class Layout:
    """A source laid out under ``base``: ``repo/`` (git), ``claude/`` (home), ``memory/``."""

    def __init__(self, folder: Path, base: Path) -> None:
        self.source = folder.name
        self.transcripts = read_source(folder)
        self.recorded_root = recorded_root(self.transcripts)
        self.repo = base / "repo"
        self.repo.mkdir(parents=True)
        self.repo = Path(os.path.realpath(self.repo))
        self.home = base / "claude"
        self.memory = base / "memory"
        # The user's home folder, as `~` resolves on their machine: the repository itself where
        # the sessions ran in the home folder (/home/pook: `~/ralph/...` names its files), else
        # an empty folder (never this machine's home).
        if _HOME_FOLDER.match(self.recorded_root):
            self.user_home = self.repo
        else:
            self.user_home = base / "home"
            self.user_home.mkdir(parents=True, exist_ok=True)
        self.pattern = root_pattern(self.recorded_root)
        self.rewritten: dict[str, list[str]] = {}
        files: set[str] = set()
        folders: set[str] = set()
        contents: dict[str, str] = {}
        for t in self.transcripts:
            new = [rewrite_line(line, self.pattern, str(self.repo)) for line in t.lines]
            self.rewritten[t.name] = new
            for line in new:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                _touched_files(record, files)
                _listed_files(record, files)
                _hook_scripts(record, str(self.repo), files)
                _read_whole(record, contents)
                if isinstance(record, dict) and isinstance(record.get("cwd"), str):
                    folders.add(record["cwd"])
        self.files = sorted(self._recreate(files, contents))
        # The folders the shell stood in existed on the user's machine too (`cd sub` worked).
        for folder in folders:
            if folder.startswith(str(self.repo) + "/") and "/.git" not in folder:
                with contextlib.suppress(OSError):
                    Path(folder).mkdir(parents=True, exist_ok=True)
        git("init", "-q", "-b", "main", ".", cwd=self.repo)
        (self.repo / ".gitkeep").write_text("")
        git("add", "-A", cwd=self.repo)
        git("commit", "-qm", "the files the sessions touched", cwd=self.repo)

    def _recreate(self, paths: set[str], contents: dict[str, str]) -> list[str]:
        made = []
        prefix = str(self.repo) + "/"
        for path in sorted(paths):
            if not path.startswith(prefix) or "/.git/" in path or path.endswith("/.git"):
                continue
            target = Path(path)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    # As the agent last read it whole, else empty: a Makefile's targets and a
                    # package.json's scripts are the repository's own words (taint clears them).
                    target.write_text(contents.get(path, ""))
                made.append(path[len(prefix) :])
            except OSError:
                continue  # a path that is a folder elsewhere in the sessions, or not valid here
        return made

    def folder_of(self, name: str) -> Path:
        """The projects folder Claude Code would have written this transcript to (its first cwd)."""
        lines = self.rewritten[name]
        cwd = next(
            (c for t in self.transcripts if t.name == name for c in _first_cwd(lines)),
            str(self.repo),
        )
        return self.home / "projects" / claude_folder_name(cwd)

    def lay(self, name: str) -> Path:
        """Write one transcript into the Claude home, modified now (a first run reads it)."""
        folder = self.folder_of(name)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text("\n".join(self.rewritten[name]) + "\n", encoding="utf-8")
        now = time.time()
        os.utime(path, (now, now))
        return path

    def unmap(self, text: str) -> str:
        """Text as the labels see it: the repo's path back to the recorded root."""
        return text.replace(str(self.repo), self.recorded_root)


def _first_cwd(lines: list[str]) -> list[str]:
    for line in lines:
        match = re.search(r'"cwd":\s*"((?:[^"\\]|\\.)*)"', line)
        if match:
            return [json.loads('"' + match.group(1) + '"')]
    return []
