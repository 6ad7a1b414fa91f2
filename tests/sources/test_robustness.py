"""Nothing on disk crashes a read: bad lines are skipped and counted, the rest is used."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hindsight import session as s
from hindsight.sources.base import Transcript
from hindsight.sources.claude_code import ClaudeCodeSource

PROMPT = {
    "type": "user",
    "uuid": "u1",
    "timestamp": "2026-11-30T10:00:00.000Z",
    "cwd": "/r",
    "sessionId": "sid",
    "message": {"role": "user", "content": "fix the build"},
}
CALL = {
    "type": "assistant",
    "uuid": "a1",
    "timestamp": "2026-11-30T10:00:01.000Z",
    "message": {
        "id": "m1",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}],
    },
}
RESULT = {
    "type": "user",
    "uuid": "u2",
    "timestamp": "2026-11-30T10:01:06.500Z",
    "message": {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "is_error": True,
                "content": "Exit code 2\nmake: *** oops",
            }
        ],
    },
    "toolUseResult": "Error: Exit code 2\nmake: *** oops",
}


def line(record: dict[str, object]) -> bytes:
    return json.dumps(record).encode() + b"\n"


def read_file(path: Path) -> s.Session:
    st = path.stat() if path.exists() else os.stat_result((0,) * 10)
    return ClaudeCodeSource().read(
        Transcript(path, "claude-code", "sid", st.st_size, st.st_mtime), []
    )


def test_good_records_survive_every_kind_of_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "sid.jsonl"
    path.write_bytes(
        line(PROMPT)
        + b"{not json at all\n"
        + b'{"type": "user", "message": "caf\xe9"}\n'
        + line({"type": "brand-new-record-type", "payload": 1})
        + b"[1, 2, 3]\n"
        + line(CALL)
        + b"\n"
        + line(RESULT)
        + b'{"type": "assistant", "message": {"id": "m2", "content": [{"type": "text", "text": "half'
    )
    sess = read_file(path)
    assert sess.stats.records == 3
    assert dict(sess.stats.skipped) == {
        "invalid_json": 1,
        "invalid_utf8": 1,
        "unknown_type": 1,
        "not_an_object": 1,
        "truncated": 1,
    }
    assert sess.prompts() == ["fix the build"]
    (call,) = sess.shell_calls()
    assert (call.exit_code, call.status, call.duration_s) == (2, s.ERROR, 65.5)
    assert call.result_at == s.Where(path, 8)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "sid.jsonl"
    path.write_bytes(b"")
    sess = read_file(path)
    assert sess.events == [] and sess.stats.records == 0 and sess.stats.skipped_total == 0


def test_file_deleted_before_reading(tmp_path: Path) -> None:
    sess = read_file(tmp_path / "gone.jsonl")
    assert sess.stats.files_unreadable == 1 and sess.events == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "sid.jsonl"
    path.write_bytes(line(PROMPT))
    path.chmod(0)
    assert read_file(path).stats.files_unreadable == 1


def test_thirty_megabyte_line_and_huge_output_is_capped(tmp_path: Path) -> None:
    big_result = json.loads(json.dumps(RESULT))
    big_result["message"]["content"][0]["content"] = "Exit code 2\n" + "x" * (30 * 1024 * 1024)
    image = {
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "base64", "data": "A" * (30 * 1024 * 1024)}}
            ],
        },
    }
    path = tmp_path / "sid.jsonl"
    path.write_bytes(line(PROMPT) + line(image) + line(CALL) + line(big_result))
    sess = read_file(path)
    (call,) = sess.shell_calls()
    assert call.exit_code == 2
    assert len(call.output) < 10_000 and "characters cut" in call.output
    assert sess.prompts() == ["fix the build"]


def test_unknown_fields_and_odd_shapes_are_tolerated(tmp_path: Path) -> None:
    odd = [
        {"type": "assistant", "message": None},
        {"type": "assistant", "message": {"content": "plain string content"}},
        {
            "type": "user",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "nobody"}]},
        },
        {"type": "user", "message": {"content": [None, 3, {"type": "mystery"}]}, "extra": {"x": 1}},
        {"type": "system", "subtype": "something_new", "timestamp": "not a time"},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "name": "Bash", "input": "not a dict"}]},
        },
    ]
    path = tmp_path / "sid.jsonl"
    path.write_bytes(b"".join(line(r) for r in odd))
    sess = read_file(path)
    assert sess.stats.skipped["malformed"] == 1 and sess.stats.skipped["orphan_result"] == 1
    assert [e.text for e in sess.events if e.kind == s.ASSISTANT] == ["plain string content"]
