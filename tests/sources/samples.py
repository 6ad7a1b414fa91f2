"""One small valid session per registered agent, in the shape its real CLI writes (FORMATS.md),
filed where that agent keeps it: the material of the contract suite and the end-to-end test.

Each session is the same story: the user asks to run the tests, the agent runs `make test`, which
fails with exit code 2. A new reader adds one ``Sample`` here; the contract suite then runs on it.
"""

from __future__ import annotations

import json
import uuid as uuidlib
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from hindsight.sources.claude_files import AGENT as CLAUDE
from hindsight.sources.claude_files import claude_folder_name

PROMPT = "run the tests"
COMMAND = "make test"
ERROR = "make: *** No rule to make target 'test'.  Stop."


class Sample(NamedTuple):
    records: Callable[[str, str], list[dict]]  # (cwd, session id) -> records
    unknown: dict  # a record of a type the reader does not know
    place: Callable[[Path, str, str], Path]  # (home, cwd, session id) -> where the file goes


def _claude(cwd: str, sid: str) -> list[dict]:
    base = {
        "sessionId": sid,
        "cwd": cwd,
        "version": "2.1.328",
        "timestamp": "2026-11-30T10:00:00.000Z",
    }
    return [
        {**base, "type": "user", "uuid": "u1", "message": {"role": "user", "content": PROMPT}},
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "timestamp": "2026-11-30T10:00:01.000Z",
            "message": {
                "id": "m1",
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": COMMAND}}
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u2",
            "timestamp": "2026-11-30T10:00:02.000Z",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": f"Exit code 2\n{ERROR}",
                        "is_error": True,
                    }
                ],
            },
            "toolUseResult": f"Error: Exit code 2\n{ERROR}",
        },
    ]


def _codex(cwd: str, sid: str) -> list[dict]:
    def rec(ts: str, kind: str, payload: dict) -> dict:
        return {"timestamp": f"2026-11-30T10:00:{ts}.000Z", "type": kind, "payload": payload}

    return [
        rec("00", "session_meta", {"id": sid, "cwd": cwd, "cli_version": "0.171.0"}),
        rec("00", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": f"<environment_context>\n  <cwd>{cwd}</cwd>\n</environment_context>"}]}),
        rec("00", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": PROMPT}]}),
        rec("01", "response_item", {"type": "function_call", "name": "exec_command",
            "arguments": json.dumps({"cmd": COMMAND, "workdir": cwd}), "call_id": "call_1"}),
        rec("02", "response_item", {"type": "function_call_output", "call_id": "call_1",
            "output": f"Chunk ID: 1\nWall time: 0.0100 seconds\nProcess exited with code 2\nOutput:\n{ERROR}\n"}),
    ]  # fmt: skip


def _gemini(cwd: str, sid: str) -> list[dict]:
    call = {
        "id": "run_shell_command_1",
        "name": "run_shell_command",
        "args": {"command": COMMAND, "description": "Run tests"},
        "status": "success",
        "timestamp": "2026-11-30T10:00:02.000Z",
        "result": [{"functionResponse": {"id": "run_shell_command_1", "name": "run_shell_command",
            "response": {"output": f"<untrusted_context>\nOutput: {ERROR}\nExit Code: 2\nProcess Group PGID: 1\n</untrusted_context>"}}}],
    }  # fmt: skip
    gemini = {"id": "g1", "timestamp": "2026-11-30T10:00:01.000Z", "type": "gemini", "content": ""}
    return [
        {"sessionId": sid, "projectHash": "x", "startTime": "2026-11-30T10:00:00.000Z"},
        {"id": "p1", "timestamp": "2026-11-30T10:00:00.000Z", "type": "user",
         "content": [{"text": PROMPT}]},
        gemini,
        {"$set": {"lastUpdated": "2026-11-30T10:00:01.000Z"}},
        {**gemini, "toolCalls": [call]},
    ]  # fmt: skip


def _place_claude(home: Path, cwd: str, sid: str) -> Path:
    return home / "projects" / claude_folder_name(cwd) / f"{sid}.jsonl"


def _place_codex(home: Path, cwd: str, sid: str) -> Path:
    return home / "sessions" / "2026" / "11" / "30" / f"rollout-2026-11-30T10-00-00-{sid}.jsonl"


def _place_gemini(home: Path, cwd: str, sid: str) -> Path:
    registry = home / "projects.json"
    doc = json.loads(registry.read_text()) if registry.exists() else {"projects": {}}
    slug = doc["projects"].setdefault(cwd, f"project-{len(doc['projects'])}")
    registry.parent.mkdir(parents=True, exist_ok=True)
    registry.write_text(json.dumps(doc))
    return home / "tmp" / slug / "chats" / f"session-2026-11-30T10-00-{sid[:8]}.jsonl"


SAMPLES: dict[str, Sample] = {
    CLAUDE: Sample(_claude, {"type": "future-record", "uuid": "z"}, _place_claude),
    "codex": Sample(
        _codex, {"timestamp": "2026-11-30T10:00:00Z", "type": "x", "payload": {}}, _place_codex
    ),
    "gemini": Sample(_gemini, {"future": True}, _place_gemini),
}


def lines_of(records: list[dict]) -> list[bytes]:
    return [json.dumps(r).encode() + b"\n" for r in records]


def write(agent: str, home: Path, cwd: str, body: list[bytes] | None = None) -> Path:
    """A session of ``agent`` for ``cwd`` filed in ``home``; ``body`` replaces its lines."""
    sample = SAMPLES[agent]
    sid = str(uuidlib.uuid4())
    path = sample.place(home, cwd, sid)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(body if body is not None else lines_of(sample.records(cwd, sid))))
    return path
