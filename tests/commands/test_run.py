"""`hindsight run` end to end, through the real CLI, on our recording replayed in a temp repo."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

from conftest import Script, install_recording, run_cli
from hindsight.memory import END, START
from hindsight.sources.claude_files import claude_folder_name

EXPECTED_BLOCK = [
    "- **`tox` is not installed here** (2026-11-30) `tox -e py311` failed the same way 2 times in 2 sessions "
    "(command not found); install it first or use what is available. [trap]",
    # Memory never quotes tool output (the report does, fenced): the exit code and its reading.
    "- **`make test` has no target here; use `make check`** (2026-11-30) `make test` failed "
    "(exit 2, wrong invocation); `make check` worked right after. [fix]",
]
NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, _, home = install_recording(tmp_path)
    return root, home, home / "projects" / claude_folder_name(str(root)) / "memory"


def run(root: Path, home: Path, *extra: str, env: dict[str, str] | None = None) -> dict:
    done = run_cli("run", "--json", "--claude-home", str(home), *extra, cwd=root, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def snapshot(memory: Path) -> dict[str, bytes]:
    files = [p for p in memory.rglob("*") if p.is_file() and p.name not in ("state.json", ".lock")]
    return {str(p.relative_to(memory)): p.read_bytes() for p in files}


def test_run_then_a_second_run_changes_nothing(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    first = run(root, home, env=NOW)
    # Memory takes only strong evidence (#10): the repeat and two verified fixes. The correction
    # "no, use the settings file in ../conf instead" was sent by `claude -p` (an SDK prompt, as
    # our recording was made): not the user's typed words, so report-only (#11).
    assert (first["sessions_read"], first["lines_skipped"], first["lessons_added"]) == (6, 0, 3)
    # 18, and how each of the 3 sessions ran `make lint` and `make build`.
    assert first["findings"] == 24 and first["pruned"] == 0
    lines = (memory / "MEMORY.md").read_text().splitlines()
    assert lines[0] == START and lines[-1] == END and len(lines) == 5
    assert lines[1:3] == EXPECTED_BLOCK
    report = (memory / "hindsight" / "reports" / "2026-11-30.md").read_text()
    assert report.startswith("# hindsight report 2026-11-30\n\n## ")
    assert "### Recommendations" in report and "### Unfinished work" in report
    assert "```text\ntox: command not found\n```" in report.replace("   ", "")
    before = snapshot(memory)
    state_before = json.loads((memory / "hindsight" / "state.json").read_text())
    # Again, even reaching back over the same sessions: nothing new anywhere; only the watermark moves.
    later = {"HINDSIGHT_NOW": "2099-01-01T00:00:00Z"}
    second = run(root, home, "--since", "99000d", env=later)
    assert second["sessions_read"] == 6 and second["lessons"] == 0
    assert second["already_reported"] == first["lessons"] and second["lessons_added"] == 0
    assert snapshot(memory) == before
    state_after = json.loads((memory / "hindsight" / "state.json").read_text())
    assert state_after["reported"] == state_before["reported"]
    assert state_after["last_scan"] > state_before["last_scan"]
    # A plain run now reads nothing: the watermark is at the last scan's start.
    assert state_after["last_scan"] == "2099-01-01T00:00:00.000Z"
    assert run(root, home, env={"HINDSIGHT_NOW": "2099-01-02T00:00:00Z"})["sessions_read"] == 0


def test_watermark_is_the_scan_start_and_a_resumed_session_is_read_again(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    # Pin every transcript an hour before the pinned run, whatever today's date is.
    written = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc).timestamp()
    for path in (home / "projects").glob("*/*.jsonl"):
        os.utime(path, (written, written))
    run(root, home, env=NOW)
    state = json.loads((memory / "hindsight" / "state.json").read_text())
    assert state["last_scan"] == "2026-11-30T15:00:00.000Z" and state["scan_started"] is None

    session = next((home / "projects").glob("*acme-app-v2-src/*.jsonl"))
    s = Script(cwd=str(root / "src"))
    s.bash("pytest -x", 100, 2, 4, "ERROR: file or directory not found: -x").bash(
        "python3 -m pytest -x", 200, 3
    )
    with session.open("a") as handle:
        handle.write("".join(json.dumps(r) + "\n" for r in s.records))
    later = 1_900_000_000  # after the watermark
    os.utime(session, (later, later))
    before = (memory / "MEMORY.md").read_bytes()
    report = memory / "hindsight" / "reports" / "2026-11-30.md"
    report_before = report.read_bytes()
    again = run(root, home, env={"HINDSIGHT_NOW": "2030-03-18T00:00:00Z"})
    # The unresolved wrong path, and how the tests then ran (a reference, report only).
    assert again["sessions_read"] == 1 and again["lessons"] == 2
    assert (
        again["already_reported"] == 2
    )  # the correction and the cat fix of that session, not again
    assert again["lessons_added"] == 0  # an unresolved wrong path is report-only
    assert (memory / "MEMORY.md").read_bytes() == before
    assert report.read_bytes() == report_before  # earlier reports are never rewritten
    new = (memory / "hindsight" / "reports" / "2030-03-18.md").read_text()
    # Report-only lessons stand as data, in a fence: only what passed the memory gate is text.
    assert (
        "Report only (trap, strength 3)\n   ```text\n   `pytest -x` fails here (wrong path)\n"
        in new
    )
    assert "   Tests here: `python3 -m pytest -x`\n" in new


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    summary = run(root, home, "--dry-run")
    assert summary["dry_run"] and len(summary["would_add"]) == 3
    assert summary["would_add"][0].startswith("- **`tox` is not installed here**")
    assert "### Lessons" in summary["report_section"]
    assert not memory.exists()
    text = run_cli("run", "--dry-run", "--claude-home", str(home), cwd=root)
    assert text.stdout.startswith("dry run: nothing written\nwould add to memory: - **`tox`")
    assert not memory.exists()


def test_quiet_prints_nothing(tmp_path: Path) -> None:
    root, home, _ = setup(tmp_path)
    done = run_cli("run", "--quiet", "--claude-home", str(home), cwd=root)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_malformed_block_stops_the_run_and_status_says_why(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    memory.mkdir(parents=True)
    bad = f"# notes\n{END}\n".encode()
    (memory / "MEMORY.md").write_bytes(bad)
    done = run_cli("run", "--claude-home", str(home), cwd=root)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "end marker on line 2 has no start marker" in done.stderr
    assert (memory / "MEMORY.md").read_bytes() == bad
    assert not (memory / "hindsight" / "reports").exists()
    state = json.loads((memory / "hindsight" / "state.json").read_text())
    assert state["last_scan"] is None and state["reported"] == []
    assert state["last_run"]["ok"] is False and "malformed" in state["last_run"]["error"]
    status = run_cli("status", "--claude-home", str(home), cwd=root)
    assert status.returncode == 0
    assert (
        "last run" in status.stdout
        and "FAILED" in status.stdout
        and "malformed hindsight block" in status.stdout
    )


def test_corrupt_state_is_an_error_with_the_way_around(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    (memory / "hindsight").mkdir(parents=True)
    (memory / "hindsight" / "state.json").write_text("{broken")
    done = run_cli("run", "--claude-home", str(home), cwd=root)
    assert (
        done.returncode == 1 and "state.json is corrupt" in done.stderr and "--since" in done.stderr
    )
    assert not (memory / "MEMORY.md").exists()
    assert (memory / "hindsight" / "state.json").read_text() == "{broken"


def test_example_runs_anywhere_and_leaves_nothing_behind(tmp_path: Path) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    done = run_cli("run", "--example", "--json", cwd=tmp_path, env={"TMPDIR": str(temp)})
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["sessions_read"] == 10 and summary["lessons_added"] == 5
    text = run_cli("run", "--example", cwd=tmp_path, env={"TMPDIR": str(temp)})
    assert text.returncode == 0 and text.stdout.count("\n- **") == 5
    assert "(removed afterwards)" in text.stdout
    assert list(temp.iterdir()) == []


def test_unknown_judge_is_a_usage_error(tmp_path: Path) -> None:
    done = run_cli("run", "--judge", "gpt", "--repo", str(tmp_path))
    assert done.returncode == 2 and "unknown judge 'gpt'" in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("hindsight run: error: argument --judge: unknown judge 'gpt'")


def test_a_repo_without_sessions_gets_no_folder(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    repo.mkdir()
    home.mkdir()
    done = run_cli("run", "--claude-home", str(home), cwd=repo)
    assert done.returncode == 0 and done.stdout.startswith("nothing to read")
    assert list(home.iterdir()) == []
    summary = json.loads(run_cli("run", "--json", "--claude-home", str(home), cwd=repo).stdout)
    assert summary["sessions_read"] == 0 and summary["nothing_to_read"] is True
    assert list(home.iterdir()) == []


def test_each_transcript_is_read_once_per_run(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A first run (no memory folder yet) must not read everything twice."""
    from hindsight.cli import main
    from hindsight.sources import lines

    root, _, home = install_recording(tmp_path)
    opened: list[Path] = []
    real_scan = lines.scan

    def counting(path, stats, rules):  # type: ignore[no-untyped-def]
        opened.append(path)
        return real_scan(path, stats, rules)

    monkeypatch.setattr(lines, "scan", counting)
    monkeypatch.chdir(root)
    assert main(["run", "--quiet", "--claude-home", str(home)]) == 0
    assert len(opened) == len(set(opened)) == 6
