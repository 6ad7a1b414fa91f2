from __future__ import annotations

from pathlib import Path

from conftest import Script, recorded_sessions, session_from_records, shared_fixture
from hindsight.detect import Options, navigation


def test_long_searches_in_the_recording() -> None:
    found = {
        f.data["path"]: f.data for f in navigation.long_searches(recorded_sessions(), Options())
    }
    assert found["docs/deploy_notes.md"]["queries"] == [
        "ls",
        "grep -rn 'deploy' --include=*.py .",
        "find . -name '*.md' -not -path './.git/*'",
    ]
    assert found["conf/settings.ini"]["queries"] == ["Grep: port", "Glob: **/*.ini", "ls conf"]
    assert set(found) == {"docs/deploy_notes.md", "conf/settings.ini"}


def test_two_searches_or_an_unrelated_read_are_not_long_searches(tmp_path: Path) -> None:
    s = (
        Script()
        .bash("ls", 0, 1, output="a.py\nb.py")
        .bash("grep -rn foo .", 2, 1, output="a.py:3: foo")
        .tool("Read", {"file_path": "/repo/a.py"}, 4, 1, "x")
    )
    assert (
        list(navigation.long_searches([session_from_records(tmp_path, s.records)], Options())) == []
    )
    s = (
        Script()
        .bash("ls", 0, 1, output="a.py")
        .bash("rg foo", 2, 1, output="a.py:1")
        .bash("fd bar", 3, 1, output="")
        .tool("Read", {"file_path": "/repo/zzz.py"}, 4, 1, "x")
    )
    assert (
        list(navigation.long_searches([session_from_records(tmp_path, s.records, "b")], Options()))
        == []
    )


def test_references() -> None:
    found = [f.data for f in navigation.references(recorded_sessions(), Options())]
    assert found == [
        {"path": "docs/deploy_notes.md", "reads": 2, "sessions": 2, "why": "read more than once"}
    ]
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    path = shared_fixture("claude-code/v2.1.39/tool_heavy.jsonl")
    sess = ClaudeCodeSource().read(Transcript(path, "claude-code", "t", 0, 0), [])
    urls = [f.data["url"] for f in navigation.references([sess], Options())]
    assert urls == ["https://github.com/xtermjs/xterm.js/issues/1343"]
