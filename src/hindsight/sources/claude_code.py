"""Claude Code transcripts read into sessions (FORMATS.md); where they are is claude_files.py."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from hindsight import session as s
from hindsight.clock import parse_iso
from hindsight.locate import Repo
from hindsight.redact import bare_token
from hindsight.session import ReadStats
from hindsight.sources import claude_files, claude_skim, lines
from hindsight.sources.base import Transcript, why_invalid
from hindsight.sources.claude_files import AGENT
from hindsight.sources.claude_skim import META_TYPES

OUTPUT_HEAD = 6000  # what detection needs of a tool result: the first error lines...
OUTPUT_TAIL = 2000  # ...and the last ones (test summaries, tracebacks end there)

_NOT_TYPED = re.compile(r"^\s*(<[a-z][a-z0-9_-]*>|Caveat: )")
_EXIT = re.compile(r"^(?:Error: )?Exit code (-?\d+)")
_INTERRUPTED = "[Request interrupted by user"
_REJECTED = "The user doesn't want to proceed with this tool use"
_BACKGROUND = "was moved to the background"
# Harness refusals ("Blocked: sleep 65 ...") and hook denials ("PreToolUse:Bash hook error: ...").
_BLOCKED = re.compile(
    r"^(?:<tool_use_error>)?(?:Blocked: |[^\n]{0,80}\bhook\b[^\n]{0,80}\b(?:denied|blocked|error)\b)",
    re.I,
)
_TASK_ID = re.compile(r"Task #?(\w+)")


class ClaudeCodeSource:
    agent = AGENT

    def discover(self, repo: Repo, home: Path, since: datetime | None) -> list[Transcript]:
        return claude_files.find(repo, home, since)

    def read(self, main: Transcript | None, subagents: list[Transcript]) -> s.Session:
        anchor = main or subagents[0]
        session = s.Session(AGENT, anchor.session_id, anchor.path)
        if main is not None:
            _Reader(session, None).read(main.path)
        for sub in subagents:
            session.subagent_files.append(sub.path)
            _Reader(session, _agent_id(sub.path)).read(sub.path)
        session.events.sort(key=lambda e: (e.ts is None, e.ts or datetime.min, e.subagent or ""))
        return session


def _agent_id(path: Path) -> str:
    return path.stem.removeprefix("agent-")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", ""))
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        )
    return ""


def cap_output(text: str) -> str:
    if len(text) <= OUTPUT_HEAD + OUTPUT_TAIL:
        return text
    return f"{text[:OUTPUT_HEAD]}\n[... {len(text) - OUTPUT_HEAD - OUTPUT_TAIL} characters cut ...]\n{text[-OUTPUT_TAIL:]}"


class _Reader:
    """Turns one file's records into events of ``session``."""

    def __init__(self, session: s.Session, agent_id: str | None) -> None:
        self.session = session
        self.agent_id = agent_id
        self.tools: dict[str, tuple[s.ToolCall, datetime | None]] = {}
        self.messages: dict[str, s.Event] = {}
        self.tasks: dict[str, dict[str, str]] = {}
        self.path = session.path
        self.stats = ReadStats()

    def read(self, path: Path) -> None:
        self.path = path
        stats = self.stats = ReadStats()
        self._read(path, stats)
        self.session.file_stats[path] = stats
        self.session.stats.merge(stats)

    def _read(self, path: Path, stats: ReadStats) -> None:
        for number, line, ended in lines.scan(path, stats, claude_skim.SKIP):
            if isinstance(line, lines.Skim):
                self._skimmed(number, line, stats)
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
            self._dispatch(record, number, stats)

    def _skimmed(self, number: int, skim: lines.Skim, stats: ReadStats) -> None:
        if not skim.complete:
            stats.skipped["truncated"] += 1
            return
        kind = claude_skim.skim_type(skim)
        if kind in META_TYPES:
            stats.records += 1
            return
        record = claude_skim.rebuild_user(skim) if kind == "user" else None
        stats.records += 1
        if record is not None:  # else an image-only message or a huge record detection never reads
            self._dispatch(record, number, stats)

    def _dispatch(self, record: dict[str, Any], number: int, stats: ReadStats) -> None:
        kind = record.get("type")
        if kind == "assistant":
            self._assistant(record, number)
        elif kind == "user":
            self._user(record, number)
        elif kind == "system":
            self._system(record, number)
        elif kind not in META_TYPES:
            stats.skipped["unknown_type"] += 1
            stats.records -= 1

    # -- helpers -------------------------------------------------------------------------------
    def _meta(self, record: dict[str, Any]) -> datetime | None:
        ts = _ts(record.get("timestamp"))
        sess = self.session
        if self.agent_id is None:
            if sess.cwd is None:
                sess.cwd = _str(record.get("cwd"))
            version, branch = record.get("version"), record.get("gitBranch")
            if version and version != sess.version and isinstance(version, str):
                sess.version = version  # a resumed session may run on a newer CLI
            if branch and branch != sess.git_branch and isinstance(branch, str):
                sess.git_branch = branch
        return ts

    def _event(
        self, kind: str, ts: datetime | None, line: int, record: dict[str, Any], **kw: Any
    ) -> s.Event:
        sub = self.agent_id or ("sidechain" if record.get("isSidechain") else None)
        event = s.Event(
            kind, ts, s.Where(self.path, line), _str(record.get("uuid")), subagent=sub, **kw
        )
        self.session.events.append(event)
        return event

    # -- records -------------------------------------------------------------------------------
    def _assistant(self, record: dict[str, Any], line: int) -> None:
        ts = self._meta(record)
        message = record.get("message")
        if not isinstance(message, dict):
            self.stats.skipped["malformed"] += 1
            return
        msg_id = _str(message.get("id")) or _str(record.get("uuid")) or f"line{line}"
        content = message.get("content")
        blocks = (
            content if isinstance(content, list) else [{"type": "text", "text": str(content or "")}]
        )
        for block in blocks:
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype == "thinking":
                continue  # most assistant records are thinking blocks: nothing detection reads
            if btype == "text" and str(block.get("text", "")).strip():
                text = str(block["text"])
                grouped = self.messages.get(msg_id)
                if grouped is None:
                    self.messages[msg_id] = self._event(s.ASSISTANT, ts, line, record, text=text)
                else:
                    grouped.text += "\n" + text
            elif btype == "tool_use":
                self._tool_use(block, record, ts, line)

    def _tool_use(
        self, block: dict[str, Any], record: dict[str, Any], ts: datetime | None, line: int
    ) -> None:
        name = str(block.get("name", ""))
        raw_input = block.get("input")
        tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
        tool_id = str(block.get("id", f"line{line}"))
        command = tool_input.get("command") if name in s.SHELL_TOOLS else None
        call = s.ToolCall(
            tool_id, name, tool_input, command=str(command) if command is not None else None
        )
        self._event(s.TOOL, ts, line, record, tool=call)
        self.tools[tool_id] = (call, ts)

    def _user(self, record: dict[str, Any], line: int) -> None:
        ts = self._meta(record)
        message = record.get("message")
        if not isinstance(message, dict):
            self.stats.skipped["malformed"] += 1
            return
        content = message.get("content")
        if record.get("isCompactSummary"):
            self._event(s.COMPACTION, ts, line, record, text="summary")
            return
        if isinstance(content, list):
            results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if results:
                top = record.get("toolUseResult") if len(results) == 1 else None
                for block in results:
                    self._tool_result(block, top, ts, line)
                return
        text = _text_of(content)
        if _INTERRUPTED in text[:60]:
            self._event(s.INTERRUPT, ts, line, record, text=text.strip())
            return
        if record.get("isMeta") or not text.strip() or _NOT_TYPED.match(text):
            return
        if record.get("isSidechain") or self.agent_id is not None:
            return  # the prompt a parent agent gave its subagent, not the user's words
        # A prompt that is only a pasted key is redacted here: it reaches the digest, findings
        # and a model judge as typed text, which no later rule would recognise as a secret.
        self._event(s.PROMPT, ts, line, record, text=bare_token(text.strip()))

    def _tool_result(self, block: dict[str, Any], top: Any, ts: datetime | None, line: int) -> None:
        tool_id = str(block.get("tool_use_id", ""))
        pair = self.tools.pop(tool_id, None)
        if pair is None:
            self.stats.skipped["orphan_result"] += 1
            return
        call, started = pair
        text = _text_of(block.get("content"))
        call.output = cap_output(text)
        call.is_error = bool(block.get("is_error"))
        call.result_at = s.Where(self.path, line)
        call.result_ts = ts
        if started and ts:
            call.duration_s = max(0.0, (ts - started).total_seconds())
        call.status = _status(call, text, top)
        if call.is_shell:
            exit_match = _EXIT.match(text) or (_EXIT.match(top) if isinstance(top, str) else None)
            if exit_match:
                call.exit_code = int(exit_match.group(1))
            elif call.status == s.OK:
                call.exit_code = (
                    None if isinstance(top, dict) and top.get("returnCodeInterpretation") else 0
                )
            if isinstance(top, dict) and top.get("returnCodeInterpretation"):
                call.interpretation = str(top["returnCodeInterpretation"])
        if call.status == s.OK:
            self._todos(call, text, ts, line)

    def _todos(self, call: s.ToolCall, text: str, ts: datetime | None, line: int) -> None:
        """Todo state as the agent left it; only calls that succeeded change it."""
        todos: list[dict[str, str]] | None = None
        items = call.input.get("todos")
        if call.name == "TodoWrite" and isinstance(items, list):
            todos = [_todo(t) for t in items if isinstance(t, dict)]
        elif call.name == "TaskCreate":
            match = _TASK_ID.search(text)
            task_id = match.group(1) if match else str(len(self.tasks) + 1)
            subject = call.input.get("subject") or call.input.get("description") or ""
            self.tasks[task_id] = {"content": str(subject), "status": "pending"}
            todos = [dict(t) for t in self.tasks.values()]
        elif call.name == "TaskUpdate":
            task = self.tasks.get(str(call.input.get("taskId", "")))
            if task is not None and isinstance(call.input.get("status"), str):
                task["status"] = str(call.input["status"])
                todos = [dict(t) for t in self.tasks.values()]
        if todos is not None:
            where = s.Where(self.path, line)
            self.session.events.append(
                s.Event(s.TODOS, ts, where, todos=todos, subagent=self.agent_id)
            )

    def _system(self, record: dict[str, Any], line: int) -> None:
        ts = self._meta(record)
        if record.get("subtype") == "compact_boundary":
            self._event(s.COMPACTION, ts, line, record, text="boundary")


def _status(call: s.ToolCall, text: str, top: Any) -> str:
    head = text[:200]
    if head.startswith(_REJECTED) or top == "User rejected tool use":
        return s.REJECTED
    if _BACKGROUND in head:
        return s.BACKGROUND
    if call.is_error and _BLOCKED.match(head):
        return s.BLOCKED
    if isinstance(top, dict) and top.get("interrupted"):
        return s.INTERRUPTED
    if call.is_error:
        return s.ERROR
    return s.OK


def _todo(item: dict[str, Any]) -> dict[str, str]:
    return {"content": str(item.get("content", "")), "status": str(item.get("status", ""))}


def _ts(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        if value.endswith("Z"):  # how every record is stamped: one parse, no second object
            return datetime.fromisoformat(value[:-1] + "+00:00")
        return parse_iso(value)
    except ValueError:
        return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
