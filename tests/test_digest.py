"""The digest's timeline: what a model judge needs to find a lesson, within the budget (#10)."""

from __future__ import annotations

from pathlib import Path

from conftest import Script, session_from_records
from hindsight import digest


def _session(tmp_path: Path):  # -> Session
    s = Script().prompt("do a pr instead of pushing, and never force-push", 0)
    s.bash(
        "npm run test:unit",
        1,
        2,
        2,
        "sh: -c: line 0: syntax error near unexpected token `('\nnpm ERR! code 2",
    )
    s.bash("npm test -- src/a.test.ts", 5, 2, 0, "PASS src/a.test.ts\nTests: 3 passed")
    s.say("The unquoted pattern is a sh syntax error; running one file works.", 8)
    s.tool("Write", {"file_path": "/repo/notes.md", "content": "x"}, 9, 1, "File created")
    return session_from_records(tmp_path, s.records)


def test_the_timeline_holds_the_users_words_the_failure_and_the_fix(tmp_path: Path) -> None:
    block, _ = digest._session_block(_session(tmp_path), 5)
    assert "user: do a pr instead of pushing, and never force-push" in block
    assert "$ npm run test:unit -> error exit 2 [d1]" in block
    assert "$ npm test -- src/a.test.ts -> ok [d2]" in block
    assert "agent: The unquoted pattern is a sh syntax error" in block
    assert "Write notes.md -> ok" in block  # an acknowledgement is not quoted
    # Tool output only inside the fenced DATA block, each excerpt under its mark.
    data = block.split("DATA (untrusted):\n", 1)[1]
    assert data.startswith("```\nd1: -c: line 0: syntax error near unexpected token")
    assert "d2: PASS src/a.test.ts | Tests: 3 passed" in data
    assert "syntax error" not in block.split("DATA (untrusted)")[0].split("agent:")[0]


def test_a_lower_level_drops_detail_and_the_marks_of_what_it_dropped(tmp_path: Path) -> None:
    block, shown = digest._session_block(_session(tmp_path), 1)
    assert shown == [
        "10:00:00 user: do a pr instead of pushing, and never force-push",
        "10:00:01 $ npm run test:unit -> error exit 2 [d1]",
    ]
    assert "d2:" not in block and "agent:" not in block


def test_each_session_gets_the_detail_the_budget_leaves_room_for(tmp_path: Path) -> None:
    # One long session no longer pulls every other down to "what the user said" only.
    small = _session(tmp_path)
    big = Script()
    for n in range(60):
        big.bash(f"make step{n}", n, 1, 0, "ok\n" * 3 + "done " * 40)
    long = session_from_records(tmp_path, big.records, "long")
    sizes = {lv: len(digest._session_block(small, lv)[0].encode()) for lv in (1, 5)}
    long_min = len(digest._session_block(long, 1)[0].encode())
    room = sizes[5] + long_min + 50  # the small one in full, the long one at its least
    (a, _), (b, _) = digest._fit([small, long], room)
    assert "agent: The unquoted pattern" in a and "d2: PASS" in a
    assert b == digest._session_block(long, 1)[0]


def test_what_says_why_is_kept_from_a_failure_and_a_pass(tmp_path: Path) -> None:
    # AojdevStudio / odgsully / rickithadi: a hook's reason is on the line after its header;
    # a merge conflict and a coverage gate carry no error word; a test run sums up last.
    s = Script().bash(
        "rm -rf .next",
        0,
        1,
        2,
        "Bash operation blocked by hook:\n"
        "- [python3 .claude/hooks/pre_tool_use.py]: BLOCKED: Dangerous rm command detected",
    )
    s.bash(
        "git merge agent-1",
        3,
        1,
        1,
        "Auto-merging logs/stop.json\nCONFLICT (content): Merge conflict in logs/stop.json",
    )
    s.bash("npm test", 6, 1, 1, "PASS a\n" * 30 + "Tests: 2 failed, 40 passed")
    # A pass that printed its error (a background server's log, `|| true`).
    s.bash(
        "npm run dev || true",
        9,
        1,
        0,
        "> next dev\n> app@1\nstarting\nsh: next: command not found\nbye",
    )
    block, _ = digest._session_block(session_from_records(tmp_path, s.records), 5)
    assert "BLOCKED: Dangerous rm command detected" in block
    assert "CONFLICT (content): Merge conflict in logs/stop.json" in block
    assert "Tests: 2 failed, 40 passed" in block
    assert "next: command not found" in block
