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
