"""Per-file progress: a file that could not be read stays pending and is named; nothing is
skipped in silence by a link loop, an odd name, --since, a clock or an upgrade."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

from conftest import AS_NOBODY, GIT_ANY_OWNER, install_recording, open_up, run_cli
from hindsight.locate import claude_folder_name


def run(root: Path, home: Path, memory: Path, *extra: str, **kw: object) -> dict:
    done = run_cli(
        "run", "--json", "--claude-home", str(home), "--memory-dir", str(memory), *extra,
        cwd=root, **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def transcripts(home: Path) -> list[Path]:
    return sorted((home / "projects").glob("*/*.jsonl"))


def test_an_unreadable_transcript_stays_pending_and_is_named(open_tmp: Path) -> None:
    root, _, home = install_recording(open_tmp)
    memory = open_tmp / "memory"
    memory.mkdir()
    open_up(open_tmp)
    locked = transcripts(home)[0]
    locked.chmod(0)
    env = GIT_ANY_OWNER
    first = run(root, home, memory, env=env, wrap=AS_NOBODY)
    assert first["unread"] == [{"path": str(locked), "why": "could not be read"}]
    assert first["transcripts"] == 6  # found, and five of them read
    status = run_cli(
        "status", "--claude-home", str(home), "--memory-dir", str(memory),
        cwd=root, env=env, wrap=AS_NOBODY,
    )  # fmt: skip
    assert status.returncode == 0, status.stderr
    assert f"unread     {locked}: Permission denied (stays pending)" in status.stdout
    assert "pending    1 session\n" in status.stdout
    # Readable again: the next run reads exactly that file, and only it.
    locked.chmod(0o644)
    second = run(root, home, memory, env=env, wrap=AS_NOBODY)
    assert (second["transcripts"], second["unread"]) == (1, [])
    assert run(root, home, memory, env=env, wrap=AS_NOBODY)["transcripts"] == 0


def test_a_link_loop_and_an_odd_name_neither_stop_nor_hide_the_rest(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    projects = home / "projects"
    (projects / "loop").symlink_to(projects / "loop")
    folder = projects / claude_folder_name(str(root))
    (folder / "dangling.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    odd = os.fsencode(folder) + b"/caf\xe9-\xff.jsonl"
    with open(odd, "wb") as handle:
        handle.write(transcripts(home)[0].read_bytes())
    memory = tmp_path / "memory"
    first = run(root, home, memory)
    assert first["sessions_read"] == 7 and first["lessons_added"] > 0
    unread = {item["path"]: item["why"] for item in first["unread"]}
    assert unread == {
        str(projects / "loop"): "Too many levels of symbolic links",
        str(folder / "dangling.jsonl"): "a link to nothing",
    }
    # The odd name is recorded as read: the next run has nothing new, and does not crash.
    again = run(root, home, memory)
    assert again["transcripts"] == 0
    state = json.loads((memory / "hindsight" / "state.json").read_text())
    assert any("\\xe9" in key for key in state["files"])


def test_since_narrows_without_skipping_what_it_left_out(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    day_ago = (datetime.now(timezone.utc) - timedelta(days=1)).timestamp()
    files = transcripts(home)
    for path in files[:3]:
        os.utime(path, (day_ago, day_ago))
    memory = tmp_path / "memory"
    narrow = run(root, home, memory, "--since", "1h")
    assert narrow["transcripts"] == len(files) - 3
    # The three older ones were never read: the next plain run reads them, and only them.
    rest = run(root, home, memory)
    assert rest["transcripts"] == 3
    assert run(root, home, memory)["transcripts"] == 0


def test_a_grown_file_is_read_again_whatever_the_clock(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    memory = tmp_path / "memory"
    run(root, home, memory)
    # The clock moved back a year: the file's new mtime is older than every watermark.
    path = transcripts(home)[0]
    with open(path, "ab") as handle:
        handle.write(b"\n")
    past = (datetime.now(timezone.utc) - timedelta(days=365)).timestamp()
    os.utime(path, (past, past))
    again = run(root, home, memory)
    assert again["transcripts"] == 1 and again["lessons"] == 0  # read again, reported once


def test_an_old_state_file_migrates_without_history_or_repeats(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    memory = tmp_path / "memory"
    first = run(root, home, memory)
    state_path = memory / "hindsight" / "state.json"
    state = json.loads(state_path.read_text())
    # What hindsight 0.x wrote: one watermark and the evidence keys, no per-file progress.
    old = {"version": 1, "last_scan": state["last_scan"], "reported": state["reported"]}
    state_path.write_text(json.dumps(old))
    # Unchanged history is not read again...
    assert run(root, home, memory)["transcripts"] == 0
    # ...and a session changed since is read, without reporting anything twice.
    path = transcripts(home)[0]
    with open(path, "ab") as handle:
        handle.write(b"\n")
    again = run(root, home, memory)
    assert again["transcripts"] == 1
    assert again["lessons"] == 0 and again["already_reported"] >= 1
    assert first["lessons"] > 0
