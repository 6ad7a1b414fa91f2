"""The normalized model every agent reader produces and every detector reads."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

# Event kinds, kept as plain strings so JSON output and detectors need no enum import.
PROMPT = "prompt"  # typed by the user
ASSISTANT = "assistant"  # the agent's own text
TOOL = "tool"  # a tool call with its result
INTERRUPT = "interrupt"  # the user pressed Esc / rejected a tool
COMPACTION = "compaction"  # context compacted here
TODOS = "todos"  # the todo list as written at this point

# Tool-call outcomes.
OK = "ok"
ERROR = "error"
REJECTED = "rejected"  # the user refused the call
INTERRUPTED = "interrupted"
BACKGROUND = "background"  # outlived its timeout, moved to the background
BLOCKED = "blocked"  # refused by the harness or a hook
PENDING = "pending"  # no result in the transcript (session ended or still running)

SEARCH_TOOLS = frozenset(
    {"Grep", "Glob", "LS", "grep_search", "glob", "search_file_content", "list_directory"}
)
SHELL_TOOLS = frozenset(
    {"Bash", "shell", "shell_command", "exec_command", "local_shell", "run_shell_command"}
)
READ_TOOLS = frozenset({"Read", "NotebookRead", "read_file", "read_many_files"})
EDIT_TOOLS = frozenset(
    {"Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "replace", "write_file"}
)


@dataclass(slots=True)
class Where:
    """Pointer back to the evidence: which file and line."""

    path: Path
    line: int


@dataclass(slots=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, object]
    command: str | None = None  # shell calls only
    status: str = PENDING
    exit_code: int | None = None
    is_error: bool = False
    output: str = ""  # head of the result text, capped by the reader
    interpretation: str | None = None  # e.g. "No matches found" for a benign grep exit 1
    duration_s: float | None = None
    result_at: Where | None = None
    result_ts: datetime | None = None

    @property
    def is_shell(self) -> bool:
        return self.command is not None

    @property
    def failed(self) -> bool:
        return self.status in (ERROR, BLOCKED) or (
            self.exit_code not in (None, 0) and not self.interpretation
        )


@dataclass(slots=True)
class Event:
    kind: str
    ts: datetime | None
    at: Where
    uuid: str | None = None
    text: str = ""
    tool: ToolCall | None = None
    todos: list[dict[str, str]] | None = None
    subagent: str | None = None  # agent id when the event comes from a subagent


@dataclass
class ReadStats:
    """What a reader saw: records used, and lines it could not use, by reason."""

    records: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    files_unreadable: int = 0

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def merge(self, other: ReadStats) -> None:
        self.records += other.records
        self.skipped.update(other.skipped)
        self.files_unreadable += other.files_unreadable


@dataclass
class Session:
    agent: str
    session_id: str
    path: Path
    cwd: str | None = None
    version: str | None = None
    git_branch: str | None = None
    events: list[Event] = field(default_factory=list)
    subagent_files: list[Path] = field(default_factory=list)
    stats: ReadStats = field(default_factory=ReadStats)
    file_stats: dict[Path, ReadStats] = field(default_factory=dict)

    @property
    def started(self) -> datetime | None:
        return min((e.ts for e in self.events if e.ts is not None), default=None)

    @property
    def ended(self) -> datetime | None:
        return max((e.ts for e in self.events if e.ts is not None), default=None)

    def tools(self) -> list[ToolCall]:

        return [e.tool for e in self.events if e.tool is not None]

    def prompts(self) -> list[str]:
        return [e.text for e in self.events if e.kind == PROMPT]

    def shell_calls(self) -> list[ToolCall]:
        return [t for t in self.tools() if t.is_shell]

    def final_todos(self) -> list[dict[str, str]]:
        lists = [
            e.todos
            for e in self.events
            if e.kind == TODOS and e.todos is not None and e.subagent is None
        ]
        return lists[-1] if lists else []

    def files_read(self) -> list[str]:
        return _paths(self, READ_TOOLS)

    def files_edited(self) -> list[str]:
        return _paths(self, EDIT_TOOLS)

    def urls_fetched(self) -> list[str]:
        return [
            str(t.input["url"]) for t in self.tools() if t.name == "WebFetch" and "url" in t.input
        ]

    def searches(self) -> list[str]:
        found = []
        for t in self.tools():
            if t.name == "WebSearch" and "query" in t.input:
                found.append(str(t.input["query"]))
            elif t.name in SEARCH_TOOLS:
                found.append(str(t.input.get("pattern") or t.input.get("path") or ""))
            elif t.command and is_search_command(t.command):
                found.append(t.command)
        return found


def _paths(session: Session, names: frozenset[str]) -> list[str]:
    out: list[str] = []
    for t in session.tools():
        if t.name in names:
            path = t.input.get("file_path") or t.input.get("notebook_path") or t.input.get("path")
            if isinstance(path, str) and path not in out:
                out.append(path)
    return out


_SEARCH_PROGRAMS = frozenset({"grep", "rg", "find", "ls", "fd", "ag", "ack", "locate", "tree"})


def is_search_command(command: str) -> bool:
    """A shell command whose job is looking for something (first program of the pipeline)."""
    words = command.strip().split()
    while words and ("=" in words[0] or words[0] in {"sudo", "env", "time", "command"}):
        words = words[1:]
    return bool(words) and words[0].rsplit("/", 1)[-1] in _SEARCH_PROGRAMS
