"""install --skill / --hook and the SessionEnd hook, through the real CLI."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from conftest import install_recording, run_cli
from hindsight.sources.claude_files import claude_folder_name


def test_skill_user_and_project_scope(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    done = run_cli("install", "--skill", "--claude-home", str(home), cwd=root)
    assert (
        done.returncode == 0 and done.stdout == f"skill written: {home}/skills/hindsight/SKILL.md\n"
    )
    text = (home / "skills" / "hindsight" / "SKILL.md").read_text()
    assert text.startswith("---\nname: hindsight\ndescription: ")
    for step in ("hindsight digest", "hindsight schema", "hindsight apply", "hindsight commit"):
        assert step in text
    again = run_cli("install", "--skill", "--claude-home", str(home), cwd=root)
    assert again.stdout.startswith("skill already up to date")
    project = run_cli("install", "--skill", "--scope", "project", cwd=root)
    assert (root / ".claude" / "skills" / "hindsight" / "SKILL.md").read_text() == text
    assert project.returncode == 0


def test_hook_merges_keeps_backs_up_and_is_idempotent(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    settings = home / "settings.json"
    original = {
        "model": "opus",
        "hooks": {
            "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": []}],
        },
    }
    settings.write_text(json.dumps(original))
    done = run_cli("install", "--hook", "--claude-home", str(home), cwd=root)
    assert done.returncode == 0 and "SessionEnd hook added" in done.stdout
    merged = json.loads(settings.read_text())
    assert (
        merged["model"] == "opus"
        and merged["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    )
    ends = merged["hooks"]["SessionEnd"]
    assert ends[0] == original["hooks"]["SessionEnd"][0] and len(ends) == 2
    # The installed script by its absolute path: works with hindsight off PATH.
    script = Path(sys.executable).parent / "hindsight"
    assert ends[1]["hooks"][0]["command"] == f"{script} hook session-end --claude-home {home}"
    backups = list(home.glob("settings.json.bak-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == original
    again = run_cli("install", "--hook", "--claude-home", str(home), cwd=root)
    assert (
        again.stdout.startswith("hook already installed")
        and json.loads(settings.read_text()) == merged
    )
    assert len(list(home.glob("settings.json.bak-*"))) == 1


def test_invalid_settings_are_left_alone(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    (home / "settings.json").write_text("{ not json")
    done = run_cli("install", "--hook", "--claude-home", str(home), cwd=root)
    assert done.returncode == 1 and "not valid JSON" in done.stderr and done.stderr.count("\n") == 1
    assert (home / "settings.json").read_text() == "{ not json"
    assert run_cli("install", cwd=root).returncode == 2


def test_session_end_hook_returns_at_once_and_logs_the_run(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    payload = json.dumps(
        {
            "session_id": "abc",
            "transcript_path": "/x.jsonl",
            "cwd": str(root),
            "hook_event_name": "SessionEnd",
            "reason": "exit",
        }
    )
    started = time.monotonic()
    done = run_cli("hook", "session-end", "--claude-home", str(home), cwd=tmp_path, stdin=payload)
    assert done.returncode == 0 and done.stdout == "" and time.monotonic() - started < 5
    log = home / "projects" / claude_folder_name(str(root)) / "memory" / "hindsight" / "hook.log"
    for _ in range(100):
        if log.exists() and "run ok" in log.read_text():
            break
        time.sleep(0.1)
    lines = log.read_text().splitlines()
    assert lines[0].endswith("session-end abc: started run (pid " + lines[0].rsplit("pid ", 1)[1])
    assert lines[1].endswith("run ok: 6 sessions, 16 new lessons, 3 added to memory")
    status = run_cli("status", "--claude-home", str(home), cwd=root)
    assert "run ok: 6 sessions" in status.stdout


def test_a_project_hook_names_no_path_of_this_user(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    done = run_cli("install", "--hook", "--scope", "project", "--claude-home", str(home), cwd=root)
    assert done.returncode == 0, done.stderr
    doc = json.loads((root / ".claude" / "settings.json").read_text())
    command = doc["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
    assert command == f"hindsight hook session-end --claude-home {home}"
    assert sys.prefix not in command


def test_a_hook_never_points_into_a_package_runners_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvx and pipx run from a cache they clean: a hook there would fail at each session end."""
    import argparse

    from hindsight.commands import install
    from hindsight.errors import HindsightError

    cached = tmp_path / "home" / ".cache" / "uv" / "archive-v0" / "x1" / "bin"
    cached.mkdir(parents=True)
    (cached / "hindsight").write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "executable", str(cached / "python"))
    monkeypatch.setenv("PATH", str(cached))
    args = argparse.Namespace(scope="user", claude_home=None, memory_dir=None)
    with pytest.raises(HindsightError, match="temporary cache"):
        install.hook_command(args)
    installed = tmp_path / "home" / ".local" / "bin"
    installed.mkdir(parents=True)
    (installed / "hindsight").write_text("#!/bin/sh\n")
    (installed / "hindsight").chmod(0o755)
    monkeypatch.setenv("PATH", f"{cached}:{installed}")
    assert install.hook_command(args) == f"{installed}/hindsight hook session-end"


def test_status_says_what_is_installed(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    before = run_cli("status", "--claude-home", str(home), cwd=root)
    assert "hook       not installed ('hindsight install --hook')" in before.stdout
    assert "skill      not installed ('hindsight install --skill')" in before.stdout
    run_cli("install", "--hook", "--skill", "--claude-home", str(home), cwd=root)
    after = run_cli("status", "--claude-home", str(home), cwd=root)
    assert f"hook       {home}/settings.json\n" in after.stdout
    assert f"skill      {home}/skills/hindsight/SKILL.md\n" in after.stdout
    assert "no Claude Code home" not in after.stdout


def test_hook_with_a_judge_is_written_updated_and_used(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    settings = home / "settings.json"
    where = ("--claude-home", str(home))
    assert run_cli("install", "--hook", *where, cwd=root).returncode == 0
    bad = run_cli("install", "--hook", "--judge", "gpt", *where, cwd=root)
    assert bad.returncode == 2 and "unknown judge 'gpt'" in bad.stderr
    before = settings.read_bytes()
    done = run_cli("install", "--hook", "--judge", "claude", "--model", "sonnet", *where, cwd=root)
    assert done.returncode == 0 and done.stdout.startswith(f"SessionEnd hook updated in {settings}")
    ends = json.loads(settings.read_text())["hooks"]["SessionEnd"]
    script = Path(sys.executable).parent / "hindsight"
    # Still one hook of hindsight's: the old one changed in place, not a second run added.
    assert [g["hooks"][0]["command"] for g in ends] == [
        f"{script} hook session-end --claude-home {home} --judge claude --model sonnet"
    ]
    backups = sorted(home.glob("settings.json.bak-*"), key=lambda p: p.stat().st_mtime)
    assert backups[-1].read_bytes() == before
    # The run the hook starts uses that judge (here: no claude on PATH, so it fails, and says so).
    command = ends[0]["hooks"][0]["command"].split()
    payload = json.dumps({"session_id": "j1", "cwd": str(root), "hook_event_name": "SessionEnd"})
    env = {"PATH": "/usr/bin:/bin"}
    assert run_cli(*command[1:], cwd=root, stdin=payload, env=env).returncode == 0
    log = home / "projects" / claude_folder_name(str(root)) / "memory" / "hindsight" / "hook.log"
    for _ in range(100):
        if log.exists() and "run FAILED" in log.read_text():
            break
        time.sleep(0.1)
    assert "run FAILED: --judge claude needs the Claude Code CLI" in log.read_text()
