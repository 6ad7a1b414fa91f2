"""The normalized model every agent reader produces and every detector reads."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path

from hindsight.record import Record

# Event kinds, kept as plain strings so JSON output and detectors need no enum import.
PROMPT = "prompt"  # typed by the user
# A prompt the user did not type: an SDK program's (``claude -p``, an automation that built it
# from an issue's body). Shown as the session's request; never the user's words, for trust or
# for a preference (issue #11); its text is untrusted (``Session.untrusted``).
TASK = "task"
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
BLOCKED = "blocked"  # refused before it ran: a hook, a permission rule, a classifier (refused_by)
TIMEOUT = "timeout"  # killed by the harness's time limit: not a verdict on the command itself
PENDING = "pending"  # no result in the transcript (session ended or still running)

# Who refused a BLOCKED call.
BY_HOOK = "hook"  # a PreToolUse hook of the user's
BY_PERMISSION = (
    "permission"  # the user's permission settings, or a directory outside the allowed ones
)
BY_CLASSIFIER = "classifier"  # the auto-mode safety classifier
BY_HARNESS = "harness"  # the agent's own rules ("Blocked: sleep 65 ...")

# Agent-neutral tool kinds (ToolCall.kind): detectors ask these, never an agent's tool names.
SHELL = "shell"
READ = "read"
EDIT = "edit"
SEARCH = "search"
FETCH = "fetch"
SKILL = "skill"
TODO = "todo"
AGENT = "agent"  # a subagent started (Task / Agent)
OTHER = "other"
USER_SHELL_TOOL = "!"  # ToolCall.name of a command the user typed with ! in the prompt

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
_KINDS = {
    **dict.fromkeys(SEARCH_TOOLS, SEARCH),
    **dict.fromkeys(SHELL_TOOLS, SHELL),
    **dict.fromkeys(READ_TOOLS, READ),
    **dict.fromkeys(EDIT_TOOLS, EDIT),
    **dict.fromkeys(("WebFetch", "web_fetch"), FETCH),
    **dict.fromkeys(("WebSearch", "google_web_search", "web_search"), SEARCH),
    **dict.fromkeys(("Skill", "SlashCommand"), SKILL),
    **dict.fromkeys(("TodoWrite", "TaskCreate", "TaskUpdate", "write_todos"), TODO),
    **dict.fromkeys(("Task", "Agent"), AGENT),
    USER_SHELL_TOOL: SHELL,
}


def tool_kind(name: str) -> str:
    return _KINDS.get(name, OTHER)


class Where(Record):
    """Pointer back to the evidence: which file and line."""

    _fields = __slots__ = ("path", "line")
    path: Path
    line: int

    def __init__(self, path: Path, line: int) -> None:
        self.path = path
        self.line = line


class ToolCall(Record):
    _fields = __slots__ = (
        "id",
        "name",
        "input",
        "command",
        "status",
        "exit_code",
        "is_error",
        "output",
        "interpretation",
        "duration_s",
        "result_at",
        "result_ts",
        "kind",
        "refused_by",
        "hook",
        "by_user",
        "cwd",
    )
    id: str
    name: str
    input: dict[str, object]
    command: str | None  # shell calls only
    status: str
    exit_code: int | None
    is_error: bool
    output: str  # head of the result text, capped by the reader
    interpretation: str | None  # e.g. "No matches found" for a benign grep exit 1
    duration_s: float | None
    result_at: Where | None
    result_ts: datetime | None
    kind: str  # agent-neutral: shell/read/edit/search/fetch/skill/todo/agent/other
    refused_by: str | None  # BY_HOOK / BY_PERMISSION / BY_CLASSIFIER / BY_HARNESS when BLOCKED
    # The command of the user's hook that refused the call, as the harness names it (from the
    # settings, "uv run .claude/hooks/pre_tool_use.py"), where the reader knows it.
    hook: str | None
    by_user: bool  # typed by the user (! in the prompt): trusted, and a fix he ran counts
    # The shell's folder when the call ran, where the reader knows it and it is not the
    # session's first folder (a `cd` in an earlier Bash call persists in Claude Code, and a
    # file tool's relative path resolves against it too).
    cwd: str | None

    def __init__(
        self,
        id: str,
        name: str,
        input: dict[str, object],
        command: str | None = None,
        status: str = PENDING,
        exit_code: int | None = None,
        is_error: bool = False,
        output: str = "",
        interpretation: str | None = None,
        duration_s: float | None = None,
        result_at: Where | None = None,
        result_ts: datetime | None = None,
        by_user: bool = False,
    ) -> None:
        self.id = id
        self.name = name
        self.input = input
        self.command = command
        self.status = status
        self.exit_code = exit_code
        self.is_error = is_error
        self.output = output
        self.interpretation = interpretation
        self.duration_s = duration_s
        self.result_at = result_at
        self.result_ts = result_ts
        self.by_user = by_user
        self.kind = _KINDS.get(name, OTHER)
        self.refused_by = None
        self.hook = None
        self.cwd = None

    # Agent-neutral views of the input, made when asked (most calls are never asked).
    @property
    def paths(self) -> list[str]:
        """Files the call reads or writes, as the agent wrote them."""
        return _input_paths(self.input)

    @property
    def url(self) -> str | None:
        """A fetch's address."""
        url = self.input.get("url")
        return url if isinstance(url, str) else None

    @property
    def query(self) -> str | None:
        """What a search looked for: a pattern, a web query."""
        query = self.input.get("query") or self.input.get("pattern")
        return query if isinstance(query, str) and self.kind == SEARCH else None

    @property
    def is_shell(self) -> bool:
        return self.command is not None

    @property
    def failed(self) -> bool:
        """Did not do its job: it failed, was refused or ran out of time."""
        return self.status in (ERROR, BLOCKED, TIMEOUT) or (
            self.exit_code not in (None, 0) and not self.interpretation
        )

    @property
    def failed_on_its_own(self) -> bool:
        """A shell command that ran and failed, exit code known or not (older versions wrote only
        the output and an error flag): not refused, not timed out, not a benign exit."""
        return self.is_shell and self.status == ERROR and self.exit_code != 0


def _input_paths(tool_input: dict[str, object]) -> list[str]:
    out = []
    for key in ("file_path", "notebook_path", "path"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            out.append(value)
    return out


class Event(Record):
    _fields = __slots__ = ("kind", "ts", "at", "uuid", "text", "tool", "todos", "subagent")
    kind: str
    ts: datetime | None
    at: Where
    uuid: str | None
    text: str
    tool: ToolCall | None
    todos: list[dict[str, str]] | None
    subagent: str | None  # agent id when the event comes from a subagent

    def __init__(
        self,
        kind: str,
        ts: datetime | None,
        at: Where,
        uuid: str | None = None,
        text: str = "",
        tool: ToolCall | None = None,
        todos: list[dict[str, str]] | None = None,
        subagent: str | None = None,
    ) -> None:
        self.kind = kind
        self.ts = ts
        self.at = at
        self.uuid = uuid
        self.text = text
        self.tool = tool
        self.todos = todos
        self.subagent = subagent


class Seen(Record):
    """Text the agent saw that is neither the user's typed words nor its own output, kept for
    taint only (detection never reads it): an attachment, a hook's feedback, a skill's body, a
    continuation summary, the middle of a long tool output, a record copied from another session.
    ``channel`` names where it came from, for the reason a piece is tainted."""

    _fields = __slots__ = ("ts", "at", "text", "channel")
    ts: datetime | None
    at: Where
    text: str
    channel: str

    def __init__(self, ts: datetime | None, at: Where, text: str, channel: str) -> None:
        self.ts = ts
        self.at = at
        self.text = text
        self.channel = channel


class HookRun(Record):
    """A run of one of the user's hooks as the harness recorded it: the hook's command (from the
    settings), whether it completed, what it printed when it did not (tool output: to classify,
    never to quote), and the folder the record says the shell stood in (None: the session's)."""

    _fields = __slots__ = ("command", "ok", "error", "cwd", "at", "ts")
    command: str
    ok: bool
    error: str
    cwd: str | None
    at: Where
    ts: datetime | None

    def __init__(
        self,
        command: str,
        ok: bool,
        error: str,
        cwd: str | None,
        at: Where,
        ts: datetime | None,
    ) -> None:
        self.command = command
        self.ok = ok
        self.error = error
        self.cwd = cwd
        self.at = at
        self.ts = ts


class ReadStats(Record):
    """What a reader saw: records used, and lines it could not use, by reason."""

    _fields = __slots__ = ("records", "skipped", "files_unreadable", "copies")

    def __init__(
        self,
        records: int = 0,
        skipped: Counter[str] | None = None,
        files_unreadable: int = 0,
        copies: int = 0,
    ) -> None:
        self.records = records
        self.skipped: Counter[str] = Counter() if skipped is None else skipped
        self.files_unreadable = files_unreadable
        # Records (or calls) already read: copied into a resumed session, or rewritten by a
        # rewind. Used, counted once, never skipped as unreadable.
        self.copies = copies

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def merge(self, other: ReadStats) -> None:
        self.records += other.records
        self.skipped.update(other.skipped)
        self.files_unreadable += other.files_unreadable
        self.copies += other.copies


class Session(Record):
    _fields = (
        "agent",
        "session_id",
        "path",
        "cwd",
        "version",
        "git_branch",
        "events",
        "subagent_files",
        "stats",
        "file_stats",
        "title",
        "agent_name",
    )
    __slots__ = (*_fields, "streams", "untrusted", "hooks")

    def __init__(
        self,
        agent: str,
        session_id: str,
        path: Path,
        cwd: str | None = None,
        version: str | None = None,
        git_branch: str | None = None,
    ) -> None:
        self.agent = agent
        self.session_id = session_id
        self.path = path
        self.cwd = cwd
        self.version = version
        self.git_branch = git_branch
        self.events: list[Event] = []
        self.subagent_files: list[Path] = []
        self.stats = ReadStats()
        self.file_stats: dict[Path, ReadStats] = {}
        # What the agent or the user named the session (ai-title, custom-title: the user's wins)
        # and the agent's name (agent-name): the agent's words, for the report only.
        self.title: str | None = None
        self.agent_name: str | None = None
        # Events split by agent, made once by detect.streams for every detector to share.
        self.streams: list[list[Event]] | None = None
        # The session's untrusted text beyond its tool outputs' capped heads and tails (``Seen``),
        # in the order read: what taint searches besides ``ToolCall.output``.
        self.untrusted: list[Seen] = []
        # The runs of the user's hooks the harness recorded, in the order read (``HookRun``).
        self.hooks: list[HookRun] = []

    def saw(self, ts: datetime | None, at: Where, text: str, channel: str) -> None:
        """Record untrusted text the agent saw (empty text is dropped)."""
        if text.strip():
            self.untrusted.append(Seen(ts, at, text, channel))

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

    def todo_states(self) -> dict[str, str]:
        """Each todo of the main agent (by its content) and the last status it had in this session,
        in the order they first appeared; a todo dropped from a later list keeps its last status."""
        states: dict[str, str] = {}
        for event in self.events:
            if event.kind == TODOS and event.todos is not None and event.subagent is None:
                for todo in event.todos:
                    states[todo.get("content", "")] = todo.get("status", "")
        return states

    def user_commands(self) -> list[ToolCall]:
        """Shell commands the user typed himself (! in the prompt), in time order."""
        return [t for t in self.tools() if t.by_user]

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


def completed_later(session: Session, sessions: list[Session]) -> set[str]:
    """Contents of todos that a session started after ``session`` marked completed: work left open
    at the end of one session and finished in a later one is not unfinished."""
    start = session.started
    done: set[str] = set()
    if start is None:
        return done
    for other in sessions:
        if other is session:
            continue
        completed = [c for c, status in other.todo_states().items() if status == "completed"]
        later = other.started if completed else None  # a min over events: only when it matters
        if later is not None and later > start:
            done.update(completed)
    return done


def _paths(session: Session, names: frozenset[str]) -> list[str]:
    out: list[str] = []
    for t in session.tools():
        if t.name in names:
            path = t.input.get("file_path") or t.input.get("notebook_path") or t.input.get("path")
            if isinstance(path, str) and path not in out:
                out.append(path)
    return out


_SEARCH_PROGRAMS = frozenset({"grep", "rg", "find", "ls", "fd", "ag", "ack", "locate", "tree"})


def first_program(command: str) -> str:
    """The program a command line starts with, past ``VAR=x``, sudo, env, time and command."""
    words = command.split()
    while words and ("=" in words[0] or words[0] in {"sudo", "env", "time", "command"}):
        words = words[1:]
    return words[0].rsplit("/", 1)[-1] if words else ""


def is_search_command(command: str) -> bool:
    """A shell command whose job is looking for something (first program of the pipeline)."""
    return first_program(command) in _SEARCH_PROGRAMS
