"""Gemini CLI chats read into sessions (FORMATS.md).

Where: ``<home>/tmp/<project>/chats/session-*.json`` (one JSON object, before 0.39) or ``.jsonl``
(a metadata line, then messages, ``{"$set": ...}`` updates and ``{"$rewindTo": id}``). ``<project>``
was sha256 of the project root, then a slug that ``<home>/projects.json`` maps from the root's
path; each slug folder also holds a ``.project_root`` file naming the root.

A message id is written again as it progresses (its tool calls appear, then their results): the
last write wins, in the place of the first. A tool call's status says ``success`` even when the
command exited non-zero: the exit code lives only in the output text.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from hindsight import session as s
from hindsight.locate import Repo
from hindsight.session import ReadStats
from hindsight.sources.base import (
    Transcript,
    Window,
    json_objects,
    read_files,
    text_of,
    timestamp,
    why_invalid,
)

AGENT = "gemini"
OUTPUT_CAP = 8000
MAX_JSON = 64 << 20  # a pre-0.39 chat is one object: bigger than this is not read whole
_EXIT = re.compile(r"^Exit Code: (-?\d+)\s*$", re.M)
# The wrapper and the harness's own lines around a command's output.
_WRAP = re.compile(
    r"^\s*<untrusted_context>\n?|\n?</untrusted_context>\s*$|^(?:Exit Code: -?\d+|Process Group PGID: \d+)\s*(?:\n|$)",
    re.M,
)
# The harness's own user-role messages (session context, IDE context, memory).
_HARNESS = re.compile(r"^\s*<[a-z_]+>")
_SHELL = "run_shell_command"


class GeminiSource:
    agent = AGENT

    def discover(self, repo: Repo, home: Path, window: Window) -> list[Transcript]:
        found: list[Transcript] = []
        for folder, root in _project_folders(repo, home):
            for entry in _chats(folder / "chats"):
                st = entry.stat()
                if not window.wants(entry.path, st.st_size, st.st_mtime):
                    continue
                path = Path(entry.path)
                found.append(
                    Transcript(
                        path, AGENT, path.name.split(".")[0], st.st_size, st.st_mtime, cwd=root
                    )
                )
        return found

    def read(
        self, main: Transcript | None, subagents: list[Transcript], seen: set[str] | None = None
    ) -> s.Session:  # --resume appends to the same chat file: no copies to count once
        return read_files(AGENT, main, subagents, _read_file)


def _read_file(session: s.Session, path: Path, stats: ReadStats) -> None:
    json_file = path.suffix == ".json"
    messages = _read_json(path, stats) if json_file else _read_jsonl(path, stats)
    for line, message in messages:
        _Message(session, path, line).add(message, stats)


def _project_folders(repo: Repo, home: Path) -> list[tuple[Path, str]]:
    """(folder under tmp/, the project root it belongs to) for every folder of this repo."""
    tmp = home / "tmp"
    try:
        with os.scandir(tmp) as listing:
            names = sorted(e.name for e in listing if e.is_dir())
    except OSError:
        return []
    owners: dict[str, str] = {}
    registry = _registry(home)
    for path, slug in registry.items():
        if repo.owns(path):
            owners[slug] = path
    import hashlib  # only where Gemini CLI has been used: ~2 ms of import

    for top in repo.roots:
        owners.setdefault(hashlib.sha256(str(top).encode()).hexdigest(), str(top))
    out: list[tuple[Path, str]] = []
    for name in names:
        root = owners.get(name)
        if root is None and name not in registry.values():
            marker = _read_small(tmp / name / ".project_root")
            if marker and repo.owns(marker):
                root = marker
        if root is not None:
            out.append((tmp / name, root))
    return out


def _registry(home: Path) -> dict[str, str]:
    """projects.json: project root -> slug; a missing or broken file is no mapping."""
    raw = _read_small(home / "projects.json")
    try:
        doc = orjson.loads(raw) if raw else None
    except orjson.JSONDecodeError:
        return {}
    projects = doc.get("projects") if isinstance(doc, dict) else None
    if not isinstance(projects, dict):
        return {}
    return {k: v for k, v in projects.items() if isinstance(k, str) and isinstance(v, str)}


def _read_small(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()[:4096] or None
    except (OSError, UnicodeDecodeError):
        return None


def _chats(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return sorted(
                (
                    e
                    for e in listing
                    if e.name.startswith("session-")
                    and e.name.endswith((".json", ".jsonl"))
                    and e.is_file()
                ),
                key=lambda e: e.name,
            )
    except OSError:
        return []


def _read_jsonl(path: Path, stats: ReadStats) -> list[tuple[int, Any]]:
    """The messages as the file leaves them: updates applied, rewinds honoured."""
    messages: dict[str, tuple[int, Any]] = {}
    for number, record in json_objects(path, stats):
        if "$rewindTo" in record:
            target = record["$rewindTo"]
            if target in messages:
                keys = list(messages)
                for key in keys[keys.index(target) :]:
                    del messages[key]
        elif "$set" in record:
            update = record["$set"]
            if isinstance(update, dict) and isinstance(update.get("messages"), list):
                messages = {}
                for msg in update["messages"]:
                    if isinstance(msg, dict):
                        messages[str(msg.get("id", len(messages)))] = (number, msg)
        elif "type" in record and "id" in record:
            key = str(record["id"])
            first = messages[key][0] if key in messages else number
            messages[key] = (first, record)
        elif "sessionId" in record:
            pass  # the metadata line: the file name already names the session
        else:
            stats.records -= 1
            stats.skipped["unknown_type"] += 1
    return list(messages.values())


def _read_json(path: Path, stats: ReadStats) -> list[tuple[int, Any]]:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_JSON + 1)
    except OSError:
        stats.files_unreadable += 1
        return []
    if len(raw) > MAX_JSON:
        stats.skipped["too_long"] += 1
        return []
    if not raw.strip():
        return []
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        stats.skipped[why_invalid(raw, raw.rstrip().endswith(b"}"))] += 1
        return []
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        stats.skipped["not_an_object"] += 1
        return []
    stats.records += 1
    return [(1, m) for m in doc["messages"]]


# What the CLI writes before the content of the files a prompt @-mentions (the user typed the
# mention, not the content: a file's text is untrusted like any other).
_INCLUDED = "--- Content from referenced files ---"


class _Message:
    """One message's events: a typed prompt, the model's text, its tool calls with results."""

    def __init__(self, session: s.Session, path: Path, line: int) -> None:
        self.session = session
        self.where = s.Where(path, line)

    def add(self, msg: Any, stats: ReadStats) -> None:
        if not isinstance(msg, dict):
            stats.skipped["malformed"] += 1
            return
        kind = msg.get("type")
        ts = timestamp(msg.get("timestamp"))
        uuid = msg.get("id") if isinstance(msg.get("id"), str) else None
        text = text_of(msg.get("content"))
        if kind == "user":
            if _INCLUDED in text:  # @file: the CLI appends the file's content to the prompt
                typed, _, included = text.partition(_INCLUDED)
                self.session.saw(ts, self.where, included, "a file the prompt @-included")
                text = typed
            if text.strip() and not _HARNESS.match(text):
                self._event(s.PROMPT, ts, uuid=uuid, text=text.strip())
            else:  # the harness's context (a file's content, GEMINI.md): untrusted, for taint
                self.session.saw(ts, self.where, text, "harness text in the user's turn")
        elif kind == "gemini":
            if text.strip():
                self._event(s.ASSISTANT, ts, uuid=uuid, text=text)
            for call in msg.get("toolCalls") or []:
                if isinstance(call, dict):
                    self._tool(call, ts)
        elif kind in ("info", "error", "warning"):
            self.session.saw(ts, self.where, text, f"the CLI's {kind} message")
        else:
            stats.skipped["unknown_message"] += 1

    def _event(self, kind: str, ts: datetime | None, **kw: Any) -> None:
        self.session.events.append(s.Event(kind, ts, self.where, **kw))

    def _tool(self, raw: dict[str, Any], ts: datetime | None) -> None:
        name = str(raw.get("name", ""))
        raw_args = raw.get("args")
        args: dict[str, Any] = dict(raw_args) if isinstance(raw_args, dict) else {}
        if "absolute_path" in args and "file_path" not in args:
            args["file_path"] = args["absolute_path"]  # read_file's older name for the same path
        command = str(args["command"]) if name == _SHELL and "command" in args else None
        call = s.ToolCall(str(raw.get("id", "")), name, args, command=command)
        output, error = _result(raw.get("result"))
        raw_text = error or output
        match = _EXIT.search(raw_text)
        text = _WRAP.sub("", raw_text).removeprefix("Output: ").rstrip("\n")
        status = raw.get("status")
        call.output = text[:OUTPUT_CAP]
        done = timestamp(raw.get("timestamp"))
        # What the cap cut, and an output beside an error: the agent read them all the same.
        rest = text[OUTPUT_CAP - 512 :] if len(text) > OUTPUT_CAP else ""
        self.session.saw(done or ts, self.where, rest + (output if error else ""), "tool output")
        if command is not None:
            call.exit_code = int(match.group(1)) if match else (0 if status == "success" else None)
        call.status = (
            s.REJECTED
            if status == "cancelled"
            else s.ERROR
            if status == "error" or error or call.exit_code not in (None, 0)
            else s.OK
            if status == "success"
            else s.PENDING
        )
        call.is_error = call.status == s.ERROR
        call.result_ts, call.result_at = done, self.where
        if done and ts and done >= ts:
            call.duration_s = (done - ts).total_seconds()
        self._event(s.TOOL, ts, uuid=call.id, tool=call)
        if name == "write_todos" and isinstance(args.get("todos"), list) and call.status == s.OK:
            todos = [
                {"content": str(t.get("description", "")), "status": str(t.get("status", ""))}
                for t in args["todos"]
                if isinstance(t, dict)
            ]
            self._event(s.TODOS, ts, todos=todos)


def _result(result: Any) -> tuple[str, str]:
    """(output, error) of a tool call's functionResponse parts."""
    output, error = [], []
    for part in result if isinstance(result, list) else []:
        response = (
            part.get("functionResponse", {}).get("response") if isinstance(part, dict) else None
        )
        if isinstance(response, dict):
            if isinstance(response.get("output"), str):
                output.append(response["output"])
            if isinstance(response.get("error"), str):
                error.append(response["error"])
    return "\n".join(output), "\n".join(error)
