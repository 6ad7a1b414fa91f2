from __future__ import annotations

from pathlib import Path

from conftest import Script, recorded_sessions, session_from_records, shared_fixture
from hindsight.detect import Options, conversation


def test_correction_after_a_failure_quotes_the_user() -> None:
    (f,) = [
        f
        for f in conversation.corrections(recorded_sessions(), Options())
        if f.kind == "correction"
    ]
    assert f.data == {
        "quote": "no, use the settings file in ../conf instead",
        "after": "cat config.yaml",
        "after_status": "error",
    }


def test_a_new_request_after_success_is_not_a_correction(tmp_path: Path) -> None:
    s = (
        Script()
        .prompt("run the tests", 0)
        .bash("make check", 1)
        .prompt("now use the linter instead", 5)
    )
    assert (
        list(conversation.corrections([session_from_records(tmp_path, s.records)], Options())) == []
    )


def test_interrupts_are_counted() -> None:
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    path = shared_fixture("claude-code/v2.1.39/tool_heavy.jsonl")
    sess = ClaudeCodeSource().read(Transcript(path, "claude-code", "t", 0, 0), [])
    counts = [
        f.data["count"]
        for f in conversation.corrections([sess], Options())
        if f.kind == "interrupts"
    ]
    assert counts == [2]


def test_unfinished_todos_and_ended_on_error(tmp_path: Path) -> None:
    # The CLI offers no todo tool in -p mode, so this case is built from the 2.x record shapes.
    todos = [
        {"content": "Fix config loading", "status": "completed", "activeForm": "Fixing"},
        {"content": "Add retry to fetch", "status": "in_progress", "activeForm": "Adding"},
        {"content": "Write the changelog", "status": "pending", "activeForm": "Writing"},
    ]
    s = Script().tool(
        "TodoWrite", {"todos": todos}, 0, 0.1, "Todos have been modified successfully"
    )
    s.bash("pytest", 5, 2, 1, "1 failed")
    found = {
        f.kind: f.data
        for f in conversation.unfinished([session_from_records(tmp_path, s.records)], Options())
    }
    assert found["unfinished_todos"]["todos"] == ["Add retry to fetch", "Write the changelog"]
    assert (
        found["ended_on_error"]["command"] == "pytest" and found["ended_on_error"]["exit_code"] == 1
    )
    planted = [f for f in conversation.unfinished(recorded_sessions(), Options())]
    assert [f.data["command"] for f in planted] == ["git push origin feature"]


def test_decisions_and_abandoned_approaches() -> None:
    (decision,) = conversation.decisions(recorded_sessions(), Options())
    assert decision.data["sentence"].startswith(
        "tox is not available here, so I'll use `make check` instead of tox"
    )
    assert decision.data["reasoned"] is True
    (dropped,) = conversation.abandoned(recorded_sessions(), Options())
    assert dropped.data == {"path": "scratch_parser.py", "how": "rm scratch_parser.py"}


def test_library_swapped(tmp_path: Path) -> None:
    s = Script().bash("pip uninstall -y requests", 0, 2).bash("pip install httpx", 5, 3)
    (f,) = conversation.abandoned([session_from_records(tmp_path, s.records)], Options())
    assert (f.data["dropped"], f.data["adopted"]) == ("requests", "httpx")
