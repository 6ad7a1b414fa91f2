from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import RECORDING, install_recording, run_cli
from hindsight import discover
from hindsight.errors import HindsightError
from hindsight.state import State

RECORDED_LINES = sum(
    len(p.read_bytes().splitlines()) for p in (RECORDING / "projects").glob("*/*.jsonl")
)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d", NOW - timedelta(days=3)),
        ("12h", NOW - timedelta(hours=12)),
        ("90m", NOW - timedelta(minutes=90)),
        ("2w", NOW - timedelta(weeks=2)),
        ("2026-11-01", datetime(2026, 11, 1, tzinfo=timezone.utc)),
        ("2026-11-01T08:30:00Z", datetime(2026, 11, 1, 8, 30, tzinfo=timezone.utc)),
    ],
)
def test_parse_since(text: str, expected: datetime) -> None:
    assert discover.parse_since(text, NOW) == expected


def test_parse_since_rejects_garbage() -> None:
    with pytest.raises(HindsightError, match="use 3d, 12h"):
        discover.parse_since("yesterday", NOW)


def test_window_start() -> None:
    assert discover.window_start(None, State(), NOW) == NOW - timedelta(days=3)
    marked = NOW - timedelta(hours=1)
    assert discover.window_start(None, State(last_scan=marked), NOW) == marked
    assert discover.window_start("1d", State(last_scan=marked), NOW) == NOW - timedelta(days=1)


def scan(cwd: Path, home: Path, *extra: str) -> dict:
    done = run_cli("scan", "--json", "--claude-home", str(home), *extra, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_scan_finds_every_session_from_main_worktree_and_subfolder(tmp_path: Path) -> None:
    root, wt, home = install_recording(tmp_path)
    for cwd in (root, wt, root / "src", wt / "src"):
        doc = scan(cwd, home, "--since", "3650d")
        assert doc["repo"] == str(root) and doc["worktrees"] == [str(wt)]
        cwds = sorted(t["cwd"] for t in doc["transcripts"])
        assert cwds == sorted([str(root)] * 4 + [str(root / "src"), str(wt)])
        assert doc["totals"]["sessions"] == 6 and doc["totals"]["skipped"] == 0
        assert doc["totals"]["records"] == RECORDED_LINES
        assert doc["memory_dir"] == str(
            home
            / "projects"
            / str(root).replace("/", "-").replace(".", "-").replace("_", "-")
            / "memory"
        )
    assert not any((home / "projects").glob("*/memory")), "scan must not create the memory folder"


def test_scan_falls_back_to_cwd_when_folder_name_differs(tmp_path: Path) -> None:
    root, _wt, home = install_recording(tmp_path, misplace_worktree=True)
    doc = scan(root, home, "--since", "3650d")
    paths = [t["path"] for t in doc["transcripts"]]
    assert any("/-renamed-elsewhere/" in p for p in paths) and len(paths) == 6


def test_scan_ignores_other_projects(tmp_path: Path) -> None:
    _root, _wt, home = install_recording(tmp_path)
    other = tmp_path / "acme.app_v2x"
    other.mkdir()
    doc = scan(other, home, "--since", "3650d")
    assert doc["transcripts"] == []


def test_scan_says_when_a_transcript_in_the_repos_folder_ran_elsewhere(tmp_path: Path) -> None:
    # First use of the README (session 8): a transcript copied into this repository's folder,
    # its records' cwd another folder's, was left out with no word said.
    from hindsight.sources.claude_files import claude_folder_name

    root, _wt, home = install_recording(tmp_path)
    mine = home / "projects" / claude_folder_name(str(root))
    copied = sorted(mine.glob("*.jsonl"))[0]
    (mine / "copied-in.jsonl").write_text(
        copied.read_text().replace(str(root), "/somewhere/else"), encoding="utf-8"
    )
    doc = scan(root, home, "--since", "3650d")
    assert len(doc["transcripts"]) == 6
    assert doc["elsewhere"] == [{"path": str(mine / "copied-in.jsonl"), "cwd": "/somewhere/else"}]
    text = run_cli("scan", "--claude-home", str(home), "--since", "3650d", cwd=root).stdout
    assert text.splitlines()[-1] == (
        "not read: 1 transcript in this repository's folder ran in /somewhere/else"
    )


def test_watermark_window_by_mtime(tmp_path: Path) -> None:
    root, wt, home = install_recording(tmp_path)
    old = datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp()
    for path in (home / "projects").glob("*/*.jsonl"):
        if "wt-feature" not in path.parent.name:
            os.utime(path, (old, old))
    # First run: the last 3 days only.
    doc = scan(root, home)
    assert [t["cwd"] for t in doc["transcripts"]] == [str(wt)]
    assert len(scan(root, home, "--since", "2025-12-01")["transcripts"]) == 6
    # A watermark saved by an older hindsight, after everything: nothing pending (an upgrade
    # reads no history); --since still widens.
    memory = tmp_path / "mem"
    (memory / "hindsight").mkdir(parents=True)
    state = memory / "hindsight" / "state.json"
    state.write_text(json.dumps({"last_scan": datetime.now(timezone.utc).isoformat()}))
    assert scan(root, home, "--memory-dir", str(memory))["transcripts"] == []
    assert (
        len(scan(root, home, "--memory-dir", str(memory), "--since", "3650d")["transcripts"]) == 6
    )
    # A watermark in the future (the clock moved back): the last 3 days, never nothing.
    state.write_text(json.dumps({"last_scan": "2099-01-01T00:00:00Z"}))
    doc = scan(root, home, "--memory-dir", str(memory))
    assert [t["cwd"] for t in doc["transcripts"]] == [str(wt)]


def test_corrupt_state_is_an_error_unless_since(tmp_path: Path) -> None:
    root, _wt, home = install_recording(tmp_path)
    memory = tmp_path / "mem"
    (memory / "hindsight").mkdir(parents=True)
    (memory / "hindsight" / "state.json").write_text("{oops")
    done = run_cli("scan", "--claude-home", str(home), "--memory-dir", str(memory), cwd=root)
    assert done.returncode == 1
    assert (
        "state.json is corrupt" in done.stderr
        and "--since" in done.stderr
        and done.stderr.count("\n") == 1
    )
    assert (
        len(scan(root, home, "--memory-dir", str(memory), "--since", "3650d")["transcripts"]) == 6
    )
    assert (memory / "hindsight" / "state.json").read_text() == "{oops"


def test_resumed_session_is_pending_again(tmp_path: Path) -> None:
    root, _wt, home = install_recording(tmp_path)
    memory = tmp_path / "mem"
    (memory / "hindsight").mkdir(parents=True)
    mark = datetime.now(timezone.utc)
    (memory / "hindsight" / "state.json").write_text(
        json.dumps({"last_scan": mark.isoformat().replace("+00:00", "Z")})
    )
    assert scan(root, home, "--memory-dir", str(memory))["transcripts"] == []
    main = next((home / "projects").glob("*acme-app-v2-src/*.jsonl"))
    with main.open("a") as handle:
        handle.write(
            json.dumps({"type": "user", "cwd": str(root), "message": {"content": "again"}}) + "\n"
        )
    os.utime(main, (mark.timestamp() + 5, mark.timestamp() + 5))
    doc = scan(root, home, "--memory-dir", str(memory))
    assert [t["path"] for t in doc["transcripts"]] == [str(main)]
    assert doc["transcripts"][0]["records"] == len(main.read_bytes().splitlines())


def test_subagent_files_attach_to_their_session(tmp_path: Path) -> None:
    from conftest import SHARED_FIXTURES

    fixture = SHARED_FIXTURES / "claude-code" / "v2.1.39"
    if not fixture.exists():
        pytest.skip("shared fixtures absent")
    home = tmp_path / "home"
    repo = tmp_path / "proj"
    repo.mkdir()
    folder = home / "projects" / str(repo.resolve()).replace("/", "-")
    sid = "258c7280-ae70-4798-800f-63464d01a85d"
    (folder / sid / "subagents").mkdir(parents=True)
    for name in ("agent-a881341.jsonl", "agent-acompact-fffbd0.jsonl"):
        data = (fixture / sid / "subagents" / name).read_bytes()
        (folder / sid / "subagents" / name).write_bytes(
            data.replace(
                b"/home/USER/projects/spotter-worktrees/spotter-gqc", str(repo.resolve()).encode()
            )
        )
    main = (fixture / f"{sid}.jsonl").read_bytes()
    (folder / f"{sid}.jsonl").write_bytes(
        main.replace(
            b"/home/USER/projects/spotter-worktrees/spotter-gqc", str(repo.resolve()).encode()
        )
    )
    doc = scan(repo, home, "--since", "3650d")
    rows = {Path(t["path"]).name: t for t in doc["transcripts"]}
    assert sorted(rows) == sorted(
        [f"{sid}.jsonl", "agent-a881341.jsonl", "agent-acompact-fffbd0.jsonl"]
    )
    assert all(t["session_id"] == sid for t in rows.values())
    assert rows["agent-a881341.jsonl"]["subagent"] and not rows[f"{sid}.jsonl"]["subagent"]
    assert rows["agent-a881341.jsonl"]["records"] == 10 and rows[f"{sid}.jsonl"]["records"] == 1863
    assert doc["totals"]["sessions"] == 1


def test_v2_0_layout_agent_files_beside_sessions(tmp_path: Path) -> None:
    """In 2.0.x subagent files sat beside the sessions, named agent-<id>.jsonl."""
    from conftest import SHARED_FIXTURES

    fixture = SHARED_FIXTURES / "claude-code" / "v2.0.76"
    if not fixture.exists():
        pytest.skip("shared fixtures absent")
    home, repo = tmp_path / "home", tmp_path / "workspace"
    repo.mkdir()
    folder = home / "projects" / str(repo.resolve()).replace("/", "-")
    folder.mkdir(parents=True)
    sid = "c45af7b1-cb7c-4e51-93db-8cbb250a877a"
    move = (b'"cwd":"/workspace"', f'"cwd":"{repo.resolve()}"'.encode())
    (folder / f"{sid}.jsonl").write_bytes(
        (fixture / "sample_main_transcript.jsonl").read_bytes().replace(*move)
    )
    (folder / "agent-af1ff21.jsonl").write_bytes(
        (fixture / "sample_agent_sidechain.jsonl").read_bytes().replace(*move)
    )
    doc = scan(repo, home, "--since", "3650d")
    rows = {Path(t["path"]).name: t for t in doc["transcripts"]}
    assert (
        rows["agent-af1ff21.jsonl"]["session_id"] == sid and rows["agent-af1ff21.jsonl"]["subagent"]
    )
    assert rows[f"{sid}.jsonl"]["records"] == 63 and rows["agent-af1ff21.jsonl"]["records"] == 2
    assert doc["totals"]["sessions"] == 1


def test_unchanged_folders_are_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run lists every project of the user: where nothing changed, no file is opened."""
    from hindsight.locate import find_repo
    from hindsight.sources import claude_files
    from hindsight.sources.base import Window

    root, _wt, home = install_recording(tmp_path, misplace_worktree=True)
    # Old-layout subagent files of another project: their session id is only inside them.
    other = home / "projects" / "-elsewhere-other"
    other.mkdir()
    (other / "agent-a1.jsonl").write_text('{"type":"user","sessionId":"s9","cwd":"/elsewhere"}\n')
    old = datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp()
    for path in (home / "projects").rglob("*.jsonl"):
        os.utime(path, (old, old))
    opened: list[Path] = []
    real_peek = claude_files.peek
    monkeypatch.setattr(
        claude_files, "peek", lambda path, pattern: opened.append(path) or real_peek(path, pattern)
    )
    repo = find_repo(root)
    since = datetime(2026, 6, 1, tzinfo=timezone.utc).timestamp()
    assert claude_files.find(repo, home, Window(since=since)) == []
    assert opened == []
    # Widen the window: the same call finds all six, the renamed folder by its records' cwd.
    assert len(claude_files.find(repo, home, Window())) == 6 and opened
