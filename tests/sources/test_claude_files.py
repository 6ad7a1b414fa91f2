"""Claude Code's folder rules (sources/claude_files.py): the folder name of a cwd, checked against
the real CLI's folders, and the auto-memory folder hindsight writes to by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import RECORDING
from hindsight import sources
from hindsight.locate import Repo
from hindsight.sources import claude_files

CLAUDE = "claude-code"


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("/tmp/enc/a.b_c d~e+f@g", "-tmp-enc-a-b-c-d-e-f-g"),
        ("/tmp/enc/ünï", "-tmp-enc--n-"),
        ("/tmp/enc/" + "x" * 250, ("-tmp-enc-" + "x" * 250)[:200] + "-hy9br0"),
        ("/home/USER/projects/spotter", "-home-USER-projects-spotter"),
    ],
)
def test_claude_folder_name(path: str, folder: str) -> None:
    assert claude_files.claude_folder_name(path) == folder


def test_java_hash_matches_java() -> None:
    assert claude_files.java_hash("hello") == 99162322
    assert claude_files.java_hash("") == 0
    assert claude_files.java_hash("polygenelubricants") == -2147483648  # Integer.MIN_VALUE in Java
    assert claude_files.base36(abs(claude_files.java_hash("polygenelubricants"))) == "zik0zk"


def test_recorded_folder_names_match_the_rule() -> None:
    """Folders named by the real Claude Code 2.1.328 for the cwds its records carry."""
    projects = RECORDING / "projects"
    import orjson

    seen = 0
    for transcript in projects.glob("*/*.jsonl"):
        cwd = next(
            r["cwd"] for r in map(orjson.loads, transcript.read_bytes().splitlines()) if "cwd" in r
        )
        assert claude_files.claude_folder_name(cwd) == transcript.parent.name
        seen += 1
    assert seen == 6


def test_claude_home_and_memory_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert sources.home(CLAUDE, None) == tmp_path / "cfg"
    assert sources.home(CLAUDE, str(tmp_path / "arg")) == tmp_path / "arg"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    assert sources.home(CLAUDE, None) == Path.home() / ".claude"
    repo = Repo(Path("/w/a.b"))
    assert claude_files.default_memory_dir(Path("/h"), repo) == Path("/h/projects/-w-a-b/memory")
