"""Claude Code transcripts read into sessions (FORMATS.md); where they are is claude_files.py."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from hindsight import fmt
from hindsight import session as s
from hindsight.clock import parse_iso
from hindsight.locate import Repo
from hindsight.redact import bare_token
from hindsight.session import ReadStats
from hindsight.sources import claude_channels as ch
from hindsight.sources import claude_files, claude_skim, lines
from hindsight.sources import claude_outcomes as outcomes
from hindsight.sources.base import Transcript, Window, json_objects
from hindsight.sources.claude_files import AGENT
from hindsight.sources.claude_skim import META_TYPES, NAMED_TYPES

OUTPUT_HEAD = 6000  # what detection needs of a tool result: the first error lines...
OUTPUT_TAIL = 2000  # ...and the last ones (test summaries, tracebacks end there)
COMMAND_BODY_SECONDS = 2  # a slash command's body is written with the command
_OVERLAP = 512  # the middle kept for taint reaches over each cut, so no token is split by it

_TASK_ID = re.compile(r"Task #?(\w+)")
_BASH_INPUT = r"^\s*<bash-input>(.*)</bash-input>\s*$"
_BASH_OUTPUT = r"^\s*<bash-stdout>(.*)</bash-stdout>\s*<bash-stderr>(.*)</bash-stderr>\s*$"
_USER_SHELL_FAILED = r"command not found|No such file or directory|^(?:error|fatal|Error)\b"
_SUBAGENT_TOOLS = frozenset({"Task", "Agent"})


class ClaudeCodeSource:
    agent = AGENT

    def discover(self, repo: Repo, home: Path, window: Window) -> list[Transcript]:
        return claude_files.find(repo, home, window)

    def read(
        self, main: Transcript | None, subagents: list[Transcript], seen: set[str] | None = None
    ) -> s.Session:
        anchor = main or subagents[0]
        session = s.Session(AGENT, anchor.session_id, anchor.path)
        # Record uuids read before: a copy (a resume's, in this session or a later one) counts once.
        seen = set() if seen is None else seen
        own: set[str] = set()  # this session's records: a copy is credited to it once
        if main is not None:
            _Reader(session, None, seen, own).read(main.path)
        for sub in subagents:
            session.subagent_files.append(sub.path)
            _Reader(session, _agent_id(sub.path), seen, own).read(sub.path)
        session.events.sort(key=lambda e: (e.ts is None, e.ts or datetime.min, e.subagent or ""))
        outcomes.unseen_hooks(session)
        return session


def _agent_id(path: Path) -> str:
    return path.stem.removeprefix("agent-")


def cap_output(text: str) -> str:
    if len(text) <= OUTPUT_HEAD + OUTPUT_TAIL:
        return text
    head, tail = fmt.whole_words(text[:OUTPUT_HEAD]), text[-OUTPUT_TAIL:]
    tail = tail[_first_break(tail) :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut ...]\n{tail}"


def _first_break(tail: str) -> int:
    found = [at for at in (tail.find(c) for c in fmt.BREAKS) if at >= 0]
    return min(found) + 1 if found and min(found) < 1024 else 0


class _Reader:
    """Turns one file's records into events of ``session``."""

    def __init__(
        self, session: s.Session, agent_id: str | None, seen: set[str], own: set[str]
    ) -> None:
        self.session = session
        self.agent_id = agent_id
        self.seen = seen
        self.own = own
        self.tools: dict[str, tuple[s.ToolCall, datetime | None]] = {}
        self.known_tools: set[tuple[str, datetime | None]] = set()
        self.paired: set[str] = set()
        self.messages: dict[str, s.Event] = {}
        self.tasks: dict[str, dict[str, str]] = {}
        self.prompts: set[tuple[str, str]] = set()
        # 1.0.x inline sidechains: uuid -> stream, and the prompts of Task calls awaiting theirs.
        self.chains: dict[str, str] = {}
        self.task_prompts: dict[str, str] = {}
        self.user_shell: tuple[s.ToolCall, datetime | None] | None = None
        self.command: tuple[str, datetime | None] | None = None  # the slash command just typed
        self.custom_title: str | None = None
        self.path = session.path
        self.stats = ReadStats()

    def read(self, path: Path) -> None:
        self.path = path
        stats = self.stats = ReadStats()
        self._read(path, stats)
        self.session.file_stats[path] = stats
        self.session.stats.merge(stats)

    def _read(self, path: Path, stats: ReadStats) -> None:
        for number, record in json_objects(path, stats, claude_skim.SKIP, self._skimmed):
            self._dispatch(record, number, stats)

    def _skimmed(self, number: int, skim: lines.Skim, stats: ReadStats) -> None:
        if not skim.complete:
            stats.skipped["truncated"] += 1
            return
        kind = claude_skim.skim_type(skim)
        stats.records += 1
        if kind == "attachment":
            self._saw_skim(skim, number, "an attachment")
        if kind in META_TYPES:
            return
        record = claude_skim.rebuild_user(skim) if kind == "user" else None
        if kind == "user" and (record is None or not ch.is_prompt(record)):
            # A huge tool result or meta record: taint searches what it holds of it.
            self._saw_skim(skim, number, "tool output")
        if record is not None:  # else an image-only message or a huge record detection never reads
            self._dispatch(record, number, stats)

    def _saw_skim(self, skim: lines.Skim, line: int, channel: str) -> None:
        ts = _ts(claude_skim.skim_field(skim, b"timestamp"))
        self.session.saw(ts, s.Where(self.path, line), claude_skim.raw_text(skim), channel)

    def _dispatch(self, record: dict[str, Any], number: int, stats: ReadStats) -> None:
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            if uuid in self.seen:  # copied into a resumed session: the first one counts...
                stats.copies += 1
                if uuid not in self.own:  # ...but the agent of this one saw it too
                    self.own.add(uuid)
                    self._copied(record, number)
                return
            self.seen.add(uuid)
            self.own.add(uuid)
        kind = record.get("type")
        if kind == "assistant":
            self._assistant(record, number)
        elif kind == "user":
            self._user(record, number)
        elif kind == "system":
            self._system(record, number)
        elif kind == "attachment":
            self._saw(record, number, ch.attachment_text(record), "an attachment")
        elif kind in NAMED_TYPES:
            self._named(record)
        elif kind not in META_TYPES:
            stats.skipped["unknown_type"] += 1
            stats.records -= 1

    def _named(self, record: dict[str, Any]) -> None:
        sess = self.session
        custom, ai, agent = (
            _str(record.get("customTitle")),
            _str(record.get("aiTitle")),
            _str(record.get("agentName")),
        )
        if custom:  # the user's own name for the session beats the agent's
            sess.title = self.custom_title = custom
        elif ai and self.custom_title is None:
            sess.title = ai
        if agent:
            sess.agent_name = agent

    def _copied(self, record: dict[str, Any], line: int) -> None:
        """A record another session (or file) holds too: its events count there, once; the text
        it showed the agent is untrusted text of this session as well (a fork or a resume starts
        from it). The user's typed words and the agent's own are not."""
        kind = record.get("type")
        if kind == "attachment":
            self._saw(record, line, ch.attachment_text(record), "an attachment (copied)")
            return
        message = record.get("message")
        if kind != "user" or not isinstance(message, dict):
            return
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        ):
            texts = [
                ch.seen_of(b.get("content")) if b.get("type") == "tool_result" else ch.seen_of([b])
                for b in content
                if isinstance(b, dict)
            ]
            self._saw(record, line, "\n".join(texts), "tool output (copied)")
        elif record.get("isCompactSummary") or not ch.is_prompt(record):
            self._saw(record, line, ch.seen_of(content), "a copied record")
        else:
            reminders = "\n".join(ch.REMINDER.findall(ch.text_of(content)))
            self._saw(record, line, reminders, "a system reminder (copied)")

    def _saw(self, record: dict[str, Any], line: int, text: str, channel: str) -> None:
        if text:
            ts = _ts(record.get("timestamp"))
            self.session.saw(ts, s.Where(self.path, line), text, channel)

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

    def _stream(self, record: dict[str, Any]) -> str | None:
        """Who acted: None for the main agent, else the subagent. A subagent file names it; inline
        sidechains (1.0.x) are told apart by their parent chain, each rooted at the prompt a Task
        call gave it, so parallel subagents never share a stream."""
        if self.agent_id is not None:
            return self.agent_id
        if not record.get("isSidechain"):
            return None
        uuid, parent = _str(record.get("uuid")), _str(record.get("parentUuid"))
        if uuid in self.chains:
            return self.chains[uuid]
        stream = self.chains.get(parent) if parent else None
        if stream is None:
            stream = _str(record.get("agentId"))
            message = record.get("message")
            prompt = ch.text_of(message.get("content")) if isinstance(message, dict) else ""
            task = self.task_prompts.pop(prompt, None) if prompt else None
            if task is not None:
                stream = f"task:{task}"
            elif stream is None:
                stream = f"sidechain:{(uuid or parent or 'unknown')[:8]}"
        if uuid:
            self.chains[uuid] = stream
        return stream

    def _event(
        self, kind: str, ts: datetime | None, line: int, record: dict[str, Any], **kw: Any
    ) -> s.Event:
        # The main agent's records (most) need no stream lookup.
        sub = (
            self.agent_id
            if self.agent_id is not None or not record.get("isSidechain")
            else self._stream(record)
        )
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
        if record.get("isSidechain") and self.agent_id is None:
            self._stream(record)  # a thinking-only record still links its chain
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
                elif text not in grouped.text:  # a rewound copy writes the same block again
                    grouped.text += "\n" + text
            elif btype == "tool_use":
                self._tool_use(block, record, ts, line)

    def _tool_use(
        self, block: dict[str, Any], record: dict[str, Any], ts: datetime | None, line: int
    ) -> None:
        name = str(block.get("name", ""))
        raw_input = block.get("input")
        tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
        tool_id = str(
            block.get("id") or f"{self.path.stem}:{line}"
        )  # the default made only if needed
        # A rewound copy: a new record uuid, the same call at the same moment (an id alone may
        # repeat where ids are scripted).
        key = (tool_id, ts)
        if key in self.known_tools:
            self.stats.copies += 1
            return
        self.known_tools.add(key)
        command = tool_input.get("command") if name in s.SHELL_TOOLS else None
        call = s.ToolCall(
            tool_id, name, tool_input, command=str(command) if command is not None else None
        )
        folder = record.get("cwd")
        if isinstance(folder, str) and folder != self.session.cwd:
            # The shell moved (a `cd` of an earlier call persists); a file tool's relative path
            # resolves against the same folder.
            call.cwd = folder
        if name in _SUBAGENT_TOOLS and isinstance(tool_input.get("prompt"), str):
            self.task_prompts[tool_input["prompt"]] = tool_id
        self._event(s.TOOL, ts, line, record, tool=call)
        self.tools[tool_id] = (call, ts)

    def _user(self, record: dict[str, Any], line: int) -> None:
        ts = self._meta(record)
        message = record.get("message")
        if not isinstance(message, dict):
            self.stats.skipped["malformed"] += 1
            return
        content = message.get("content")
        if record.get("isSidechain") and self.agent_id is None:
            self._stream(record)
        if record.get("isCompactSummary"):
            self._event(s.COMPACTION, ts, line, record, text="summary")
            self._saw(record, line, ch.seen_of(content), "a continuation summary")
            return
        if isinstance(content, list):
            results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if results:
                top = record.get("toolUseResult") if len(results) == 1 else None
                for block in results:
                    self._tool_result(block, top, ts, line, record)
                beside = [
                    b for b in content if isinstance(b, dict) and b.get("type") != "tool_result"
                ]
                self._saw(record, line, ch.seen_of(beside), "text beside a tool result")
                return
        text = ch.text_of(content)
        self._hooks(record, line, ts, text)
        if outcomes.INTERRUPTED in text[:60]:
            self._event(s.INTERRUPT, ts, line, record, text=text.strip())
            return
        if "<bash-" in text[:24] and self._user_shell(text, record, ts, line):
            return
        if "<system-reminder>" in text:  # the harness's, appended to the user's turn
            self._saw(record, line, "\n".join(ch.REMINDER.findall(text)), "a system reminder")
            text = ch.REMINDER.sub("", text)
        if not text.strip():
            return
        if record.get("isMeta"):
            self._saw(record, line, text, "a meta record (a skill, a caveat)")
            return
        if ch.NOT_TYPED.match(text):
            if not ch.USERS_OWN.match(text):
                self._saw(record, line, text, "harness text in the user's turn")
            elif "<command-name>" in text and isinstance(uuid := record.get("uuid"), str):
                self.command = (uuid, ts)
            return
        if self._command_body(record, ts):
            # A slash command's prompt, read from its file (older versions don't mark it meta).
            self._saw(record, line, text, "a slash command's body")
            return
        if ch.HARNESS.match(text):
            if text.lstrip().startswith(ch.CONTINUED):
                self._event(s.COMPACTION, ts, line, record, text="summary")
            self._saw(record, line, text, "harness text in the user's turn")
            return
        if not ch.typed(record):
            if not (record.get("isSidechain") or self.agent_id is not None):
                self._event(s.TASK, ts, line, record, text=bare_token(text.strip()))
            self._saw(record, line, text, "a prompt the user did not type (SDK)")
            return
        if record.get("isSidechain") or self.agent_id is not None:
            return  # the prompt a parent agent gave its subagent, not the user's words
        key = (str(record.get("timestamp")), text)
        if key in self.prompts:  # a rewound copy under a new uuid
            self.stats.copies += 1
            return
        self.prompts.add(key)
        # A prompt that is only a pasted key is redacted here: it reaches the digest, findings
        # and a model judge as typed text, which no later rule would recognise as a secret.
        self._event(s.PROMPT, ts, line, record, text=bare_token(text.strip()))

    def _command_body(self, record: dict[str, Any], ts: datetime | None) -> bool:
        """Whether a user record is the body of the slash command just typed: its child, written
        in the same second or two (the user's next prompt comes later, after an answer)."""
        if self.command is None:
            return False
        uuid, at = self.command
        self.command = None
        return (
            record.get("parentUuid") == uuid
            and ts is not None
            and at is not None
            and abs((ts - at).total_seconds()) <= COMMAND_BODY_SECONDS
        )

    def _user_shell(
        self, text: str, record: dict[str, Any], ts: datetime | None, line: int
    ) -> bool:
        """A command the user ran with ! (``<bash-input>``) and its output (``<bash-stdout>``)."""
        typed = re.match(_BASH_INPUT, text, re.S)  # re caches it: rare, so not at import
        if typed:
            command = typed.group(1).strip()
            call = s.ToolCall(
                _str(record.get("uuid")) or f"{self.path.stem}:{line}",
                s.USER_SHELL_TOOL,
                {"command": command},
                command=command,
                by_user=True,
            )
            self._event(s.TOOL, ts, line, record, tool=call)
            self.user_shell = (call, ts)
            return True
        shown = re.match(_BASH_OUTPUT, text, re.S)
        if shown is None or self.user_shell is None:
            return shown is not None
        call, started = self.user_shell
        self.user_shell = None
        stdout, stderr = shown.group(1), shown.group(2)
        call.result_at, call.result_ts = s.Where(self.path, line), ts
        self._output(call, "\n".join(p for p in (stdout, stderr) if p), ts, line)
        if started and ts:
            call.duration_s = max(0.0, (ts - started).total_seconds())
        # No exit code is written: output on stderr alone that reads as an error is a failure.
        failed = not stdout.strip() and re.search(_USER_SHELL_FAILED, stderr, re.M)
        call.status = s.ERROR if failed else s.OK
        if "manually backgrounded" in stdout[:200]:
            call.status = s.BACKGROUND
        call.is_error = bool(failed)
        return True

    def _tool_result(
        self,
        block: dict[str, Any],
        top: Any,
        ts: datetime | None,
        line: int,
        record: dict[str, Any],
    ) -> None:
        tool_id = str(block.get("tool_use_id", ""))
        pair = self.tools.pop(tool_id, None)
        if pair is None:
            if tool_id in self.paired:
                self.stats.copies += 1  # the result of a call already paired
            else:
                self.stats.skipped["orphan_result"] += 1
                self._saw(record, line, ch.seen_of(block.get("content")), "tool output")
            return
        call, started = pair
        self.paired.add(tool_id)
        content = block.get("content")
        text = ch.text_of(content)
        call.is_error = bool(block.get("is_error"))
        call.result_at = s.Where(self.path, line)
        call.result_ts = ts
        self._output(call, text, ts, line)
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") not in ("text", "image") for b in content
        ):  # a document, an MCP server's embedded resource: shown to the agent beside the text
            self._saw(record, line, ch.seen_of(content), "tool output")
        if started and ts:
            call.duration_s = max(0.0, (ts - started).total_seconds())
        call.status = outcomes.status(call, text, top)
        if call.refused_by == s.BY_HOOK:
            said = text.removeprefix("<tool_use_error>")
            call.hook = outcomes.refusing_hook(said)
            self._hooks(record, line, ts, said)
        if call.is_shell:
            outcomes.shell_outcome(call, text, top)
        if call.status == s.OK:
            self._todos(call, text, ts, line, record)

    def _output(self, call: s.ToolCall, text: str, ts: datetime | None, line: int) -> None:
        """A call's output, capped for detection; the middle a cap cuts out is untrusted text the
        agent read all the same (a suggestion hidden there is followed as readily)."""
        call.output = cap_output(text)
        if len(text) > OUTPUT_HEAD + OUTPUT_TAIL:
            middle = text[OUTPUT_HEAD - _OVERLAP : len(text) - OUTPUT_TAIL + _OVERLAP]
            self.session.saw(ts, s.Where(self.path, line), middle, "tool output")

    def _todos(
        self, call: s.ToolCall, text: str, ts: datetime | None, line: int, record: dict[str, Any]
    ) -> None:
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
            self._event(s.TODOS, ts, line, record, todos=todos)

    def _system(self, record: dict[str, Any], line: int) -> None:
        ts = self._meta(record)
        if record.get("isSidechain") and self.agent_id is None:
            self._stream(record)
        if record.get("subtype") == "compact_boundary":
            self._event(s.COMPACTION, ts, line, record, text="boundary")
        elif isinstance(content := record.get("content"), str):
            # A hook's output, a status line, a summary: text the agent may be shown.
            self._saw(record, line, content, "a system message")
            self._hooks(record, line, ts, content, system=True)

    def _hooks(
        self,
        record: dict[str, Any],
        line: int,
        ts: datetime | None,
        text: str,
        system: bool = False,
    ) -> None:
        """The hook runs a record tells of, with the folder the record says the shell stood in."""
        if record.get("isSidechain") or self.agent_id is not None:
            return
        folder = record.get("cwd")
        cwd = folder if isinstance(folder, str) and folder != self.session.cwd else None
        for command, ok, error in outcomes.hook_runs(text, system):
            run = s.HookRun(command, ok, error, cwd, s.Where(self.path, line), ts)
            self.session.hooks.append(run)


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
