"""OpenAI Codex CLI rollouts read into sessions (FORMATS.md).

Where: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`` and ``archived_sessions/``;
rollouts idle for a week are compressed to ``.jsonl.zst``. The first record, ``session_meta``,
names the cwd that ties a rollout to a repository or one of its worktrees. A resumed session
appends to its rollout in the folder of the day it began, so day folders are never pruned by date.

Exit codes and durations live in tool output text whose shape changed with every tool version
(old ``shell`` JSON, ``shell_command`` "Exit code: N", ``exec_command`` "Process exited with code
N"); newer versions also write them as structured events (``exec_command_end``, ``item_completed``
CommandExecution items), which win over the text when both are there.
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
from hindsight.sources import lines
from hindsight.sources.base import Transcript, Window, json_objects, read_files, text_of, timestamp

AGENT = "codex"
OUTPUT_CAP = 8000  # head of a tool's output kept for detection
_CWD = re.compile(rb'"cwd":\s*"((?:[^"\\]|\\.)*)"')
_UUID = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$")
# token_count records are a third of a rollout and carry nothing detection reads.
SKIP = lines.SkipRules(early=b'"payload":{"type":"token_count"')

_EXIT = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d+)\s*$", re.M)
_WALL = re.compile(r"^Wall time:? ([\d.]+) seconds?\s*$", re.M)
_RUNNING = re.compile(r"^Process running with session ID", re.M)
_REJECTED = ("exec command rejected by user", "patch rejected by user")
# Records with nothing detection reads: per-turn settings, token accounting, 0.171's world state.
_IGNORED = frozenset({"turn_context", "token_usage_record", "world_state"})
_SHELLS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh", "/usr/bin/bash"})
_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.M)
# The harness's own user-role messages: environment context, AGENTS.md, instructions.
_HARNESS = re.compile(r"^\s*(?:<[a-zA-Z_][\w -]*>|# AGENTS\.md instructions|# Context from my IDE)")


class CodexSource:
    agent = AGENT

    def discover(self, repo: Repo, home: Path, window: Window) -> list[Transcript]:
        found: list[Transcript] = []
        for path, st in _rollouts(home):
            if not window.wants(str(path), st.st_size, st.st_mtime):
                continue
            cwd = lines.peek(path, _CWD)
            if cwd is None or not repo.owns(cwd):
                continue
            found.append(
                Transcript(path, AGENT, session_id(path), st.st_size, st.st_mtime, cwd=cwd)
            )
        return found

    def read(
        self, main: Transcript | None, subagents: list[Transcript], seen: set[str] | None = None
    ) -> s.Session:  # a rollout resumed appends to itself: no copies to count once
        return read_files(
            AGENT, main, subagents, lambda sess, path, stats: _Reader(sess, path, stats).read()
        )


def session_id(path: Path) -> str:
    stem = path.name.split(".", 1)[0]
    match = _UUID.search(stem)
    return match.group(1) if match else stem


def _rollouts(home: Path) -> list[tuple[Path, os.stat_result]]:
    """Every rollout under sessions/ (any depth: YYYY/MM/DD) and archived_sessions/."""
    out: list[tuple[Path, os.stat_result]] = []
    stack = [str(home / "sessions"), str(home / "archived_sessions")]
    while stack:
        try:
            with os.scandir(stack.pop()) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir():
                stack.append(entry.path)
            elif entry.name.endswith((".jsonl", ".jsonl.zst")) and entry.is_file():
                try:
                    out.append((Path(entry.path), entry.stat()))
                except OSError:  # gone since the listing
                    continue
    out.sort(key=lambda pair: pair[0].name)
    return out


class _Reader:
    """One rollout's records turned into events of ``session``."""

    def __init__(self, session: s.Session, path: Path, stats: ReadStats) -> None:
        self.session = session
        self.path = path
        self.stats = stats
        self.calls: dict[str, tuple[s.ToolCall, datetime | None]] = {}
        self.ended: dict[str, dict[str, Any]] = {}  # structured ends seen before their output
        self.exec = False  # a codex exec session: its prompts are a program's

    def read(self) -> None:
        stats = self.stats
        for number, record in json_objects(self.path, stats, SKIP):
            payload = record.get("payload")
            if not isinstance(payload, dict):
                stats.records -= 1
                stats.skipped["malformed"] += 1
                continue
            ts = timestamp(record.get("timestamp"))
            if not self._dispatch(str(record.get("type")), payload, ts, number):
                stats.records -= 1
                stats.skipped["unknown_type"] += 1

    def _dispatch(self, kind: str, p: dict[str, Any], ts: datetime | None, line: int) -> bool:
        ptype = p.get("type")
        if kind == "response_item":
            if ptype == "message":
                self._message(p, ts, line)
            elif ptype in ("function_call", "custom_tool_call", "local_shell_call"):
                self._call(p, ts, line)
            elif ptype in ("function_call_output", "custom_tool_call_output"):
                self._output(p, ts, line)
            elif ptype == "web_search_call":
                action = p.get("action")
                query = action.get("query") if isinstance(action, dict) else None
                call = s.ToolCall(_str(p.get("id")) or f"line{line}", "WebSearch",
                                  {"query": str(query or "")}, status=s.OK)  # fmt: skip
                self._event(s.TOOL, ts, line, tool=call)
            return True
        if kind == "event_msg":
            if ptype == "turn_aborted" and p.get("reason") == "interrupted":
                self._event(s.INTERRUPT, ts, line, text="[turn aborted: interrupted]")
            elif ptype == "exec_command_end":
                self._ended(str(p.get("call_id", "")), p)
            elif ptype == "item_completed":
                item = p.get("item")
                if isinstance(item, dict) and item.get("type") == "CommandExecution":
                    self._ended(str(item.get("id", "")), item)
            return True
        if kind == "session_meta":
            self._meta(p)
            return True
        if kind in _IGNORED:
            return True
        if kind == "compacted":
            self._event(s.COMPACTION, ts, line, text="compacted")
            self._saw(ts, line, text_of(p.get("message")), "a continuation summary")
            return True
        return False

    def _saw(self, ts: datetime | None, line: int, text: str, channel: str) -> None:
        self.session.saw(ts, s.Where(self.path, line), text, channel)

    def _event(self, kind: str, ts: datetime | None, line: int, **kw: Any) -> s.Event:
        event = s.Event(kind, ts, s.Where(self.path, line), **kw)
        self.session.events.append(event)
        return event

    def _meta(self, p: dict[str, Any]) -> None:
        sess = self.session
        sess.cwd = sess.cwd or _str(p.get("cwd"))
        sess.version = _str(p.get("cli_version")) or sess.version
        git = p.get("git")
        if isinstance(git, dict):
            sess.git_branch = _str(git.get("branch")) or sess.git_branch
        # ``codex exec``: a program's prompt (a CI job's, built from an issue's body), not words
        # the user typed into the TUI, as Claude Code's SDK prompts (issue #11)
        self.exec = self.exec or p.get("originator") == "codex_exec"

    def _message(self, p: dict[str, Any], ts: datetime | None, line: int) -> None:
        role = p.get("role")
        text = text_of(p.get("content"))
        if not text.strip():
            return
        if role == "user" and not _HARNESS.match(text):
            kind = s.TASK if self.exec else s.PROMPT
            self._event(kind, ts, line, uuid=_str(p.get("id")), text=text.strip())
            if self.exec:
                self._saw(ts, line, text, "a prompt the user did not type (codex exec)")
        elif role == "user":  # AGENTS.md (the repo's text), environment context: for taint
            self._saw(ts, line, text, "harness text in the user's turn")
        elif role == "assistant":
            self._event(s.ASSISTANT, ts, line, uuid=_str(p.get("id")), text=text)

    def _call(self, p: dict[str, Any], ts: datetime | None, line: int) -> None:
        call_id = _str(p.get("call_id")) or _str(p.get("id")) or f"line{line}"
        name = _str(p.get("name")) or str(p.get("type"))
        args: dict[str, Any] = {}
        if p.get("type") == "local_shell_call":
            action = p.get("action")
            args = {"command": action.get("command")} if isinstance(action, dict) else {}
        elif isinstance(p.get("arguments"), str):
            try:
                loaded = orjson.loads(p["arguments"])
            except orjson.JSONDecodeError:
                loaded = None
            args = loaded if isinstance(loaded, dict) else {}
        elif isinstance(p.get("input"), str):  # custom tools (apply_patch) take raw text
            raw = p["input"]
            args = {"input": raw[:OUTPUT_CAP]}
            files = _FILE.findall(raw)
            if files:
                args["path"], args["paths"] = files[0].strip(), [f.strip() for f in files]
        command = _command(args.get("cmd", args.get("command"))) if name in s.SHELL_TOOLS else None
        if name == "local_shell_call":
            name, command = "local_shell", _command(args.get("command"))
        if command is not None:
            # Under the key every agent's shell input is read by (exec_command says "cmd", the
            # old shell an argv list): what the agent ran is its own words wherever it is read.
            args["command"] = command
        call = s.ToolCall(call_id, name, args, command=command)
        self._event(s.TOOL, ts, line, uuid=call_id, tool=call)
        self.calls[call_id] = (call, ts)
        if name == "update_plan" and isinstance(args.get("plan"), list):
            todos = [
                {"content": str(step.get("step", "")), "status": str(step.get("status", ""))}
                for step in args["plan"]
                if isinstance(step, dict)
            ]
            self._event(s.TODOS, ts, line, todos=todos)

    def _output(self, p: dict[str, Any], ts: datetime | None, line: int) -> None:
        call_id = str(p.get("call_id", ""))
        pair = self.calls.get(call_id)
        text = text_of(p.get("output"))
        if pair is None:
            self.stats.skipped["orphan_result"] += 1
            self._saw(ts, line, text, "tool output")
            return
        call, started = pair
        call.result_at = s.Where(self.path, line)
        call.result_ts = ts
        exit_code, duration, body = _parse_output(text)
        if started and ts and duration is None:
            duration = max(0.0, (ts - started).total_seconds())
        call.output = body[:OUTPUT_CAP]
        if len(body) > OUTPUT_CAP:  # what the cap cut: the agent read it all the same
            self._saw(ts, line, body[OUTPUT_CAP - 512 :], "tool output")
        if call.exit_code is None:
            call.exit_code = exit_code
        if call.duration_s is None:
            call.duration_s = duration
        head = text[:200]
        if any(head.startswith(r) for r in _REJECTED):
            call.status = s.REJECTED
        elif _RUNNING.search(text[:400]) and call.exit_code is None:
            call.status = s.BACKGROUND
        elif call.status == s.PENDING:
            call.status = s.ERROR if call.exit_code not in (None, 0) else s.OK
        call.is_error = call.status == s.ERROR
        ended = self.ended.pop(call_id, None)
        if ended is not None:
            self._ended(call_id, ended)

    def _ended(self, call_id: str, end: dict[str, Any]) -> None:
        """A structured end (exit code, duration) of a shell call: authoritative over the text."""
        pair = self.calls.get(call_id)
        if pair is None:
            self.ended[call_id] = end  # 0.171 writes it before the call's output
            return
        call = pair[0]
        code = end.get("exit_code")
        if isinstance(code, int):
            call.exit_code = code
            call.status = s.ERROR if code != 0 else s.OK
            call.is_error = code != 0
        duration = end.get("duration")
        if isinstance(duration, dict):
            secs, nanos = duration.get("secs", 0), duration.get("nanos", 0)
            if isinstance(secs, (int, float)) and isinstance(nanos, (int, float)):
                call.duration_s = secs + nanos / 1e9
        if call.command is None:
            call.command = _command(end.get("command"))
        if not call.output and isinstance(end.get("aggregated_output"), str):
            call.output = end["aggregated_output"][:OUTPUT_CAP]


def _parse_output(text: str) -> tuple[int | None, float | None, str]:
    """(exit code, seconds, the output itself) from a tool's output text, any known version."""
    if text.startswith("{") and '"metadata"' in text[-300:]:
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("metadata"), dict):
            meta = doc["metadata"]
            code, secs = meta.get("exit_code"), meta.get("duration_seconds")
            return (
                code if isinstance(code, int) else None,
                float(secs) if isinstance(secs, (int, float)) else None,
                str(doc.get("output", "")),
            )
    header, sep, body = text.partition("\nOutput:\n")
    if not sep:
        header, body = text[:400], text
    exit_match = _EXIT.search(header)
    wall = _WALL.search(header)
    return (
        int(exit_match.group(1)) if exit_match else None,
        float(wall.group(1)) if wall else None,
        body,
    )


def _command(value: Any) -> str | None:
    """A shell call's command line: the script of ``bash -lc <script>``, else the argv joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) == 3 and value[0] in _SHELLS and value[1] in ("-lc", "-c"):
            return str(value[2])
        import shlex  # argv-form commands only (old `shell`, CommandExecution items)

        return shlex.join(value)
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
