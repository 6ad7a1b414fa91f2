"""hindsight uninstall through the real CLI: what install added goes, everything else stays."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import install_recording, run_cli

OTHERS = {
    "model": "opus",
    "hooks": {
        "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": []}],
    },
}


def test_removes_hook_and_skill_and_keeps_the_rest(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    settings = home / "settings.json"
    settings.write_text(json.dumps(OTHERS))
    (home / "skills" / "mine").mkdir(parents=True)
    (home / "skills" / "mine" / "SKILL.md").write_text("---\nname: mine\n---\n")
    where = ("--claude-home", str(home))
    assert run_cli("install", "--hook", "--skill", *where, cwd=root).returncode == 0
    # Someone added their own hook to hindsight's group: it stays.
    doc = json.loads(settings.read_text())
    doc["hooks"]["SessionEnd"][1]["hooks"].append({"type": "command", "command": "echo mine"})
    settings.write_text(json.dumps(doc))
    backups = set(home.glob("settings.json.bak-*"))

    done = run_cli("uninstall", *where, cwd=root)
    assert done.returncode == 0, done.stderr
    new_backup = (set(home.glob("settings.json.bak-*")) - backups).pop()
    assert done.stdout == (
        f"SessionEnd hook removed from {settings} (backup: {new_backup.name})\n"
        f"skill removed: {home}/skills/hindsight/SKILL.md\n"
    )
    expected = json.loads(json.dumps(OTHERS))
    expected["hooks"]["SessionEnd"].append({"hooks": [{"type": "command", "command": "echo mine"}]})
    assert json.loads(settings.read_text()) == expected
    assert json.loads(new_backup.read_text()) == doc
    assert not (home / "skills" / "hindsight").exists()
    assert (home / "skills" / "mine" / "SKILL.md").exists()

    again = run_cli("uninstall", *where, cwd=root)
    assert again.returncode == 0 and again.stdout == f"nothing of hindsight's in {home}\n"
    assert json.loads(settings.read_text()) == expected


def test_hook_alone_leaves_nothing_in_the_working_tree(tmp_path: Path) -> None:
    # First use of the README (session 8): uninstall left `{}` and a backup of it inside the
    # repository, easy to commit by accident. The file held the hook alone: it goes.
    root, _, _ = install_recording(tmp_path)
    assert not (root / ".claude").exists()
    assert run_cli("install", "--hook", "--scope", "project", cwd=root).returncode == 0
    settings = root / ".claude" / "settings.json"
    assert "SessionEnd" in settings.read_text()
    done = run_cli("uninstall", "--scope", "project", cwd=root)
    assert done.returncode == 0 and done.stdout.startswith(
        f"SessionEnd hook removed: {settings} held nothing else and is gone"
    )
    assert not (root / ".claude").exists()
    # A folder holding anything else stays, and so does a file with the user's own settings.
    (root / ".claude").mkdir()
    (root / ".claude" / "notes.md").write_text("mine\n")
    assert run_cli("install", "--hook", "--scope", "project", cwd=root).returncode == 0
    assert run_cli("uninstall", "--scope", "project", cwd=root).returncode == 0
    assert sorted(p.name for p in (root / ".claude").iterdir()) == ["notes.md"]


def test_a_skill_that_is_not_hindsights_is_left(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    skill = home / "skills" / "hindsight" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: my-own-hindsight\n---\nmine\n")
    done = run_cli("uninstall", "--claude-home", str(home), cwd=root)
    assert done.returncode == 0 and done.stdout == f"left {skill}: it is not hindsight's skill\n"
    assert skill.read_text() == "---\nname: my-own-hindsight\n---\nmine\n"


def test_unreadable_settings_is_one_line_and_nothing_changed(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    assert run_cli("install", "--skill", "--claude-home", str(home), cwd=root).returncode == 0
    settings = home / "settings.json"
    settings.write_text("{not json")
    done = run_cli("uninstall", "--claude-home", str(home), cwd=root)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"hindsight: error: {settings} is not valid JSON (")
    assert done.stderr.endswith("); fix it first, nothing was changed\n")
    assert settings.read_text() == "{not json"
    assert (home / "skills" / "hindsight" / "SKILL.md").exists()


def test_plugin_without_claude_says_how(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    (home / "settings.json").write_text(
        json.dumps({"enabledPlugins": {"hindsight@hindsight": True, "x@y": True}})
    )
    done = run_cli(
        "uninstall",
        "--claude-home",
        str(home),
        cwd=root,
        env={"PATH": "/usr/bin:/bin", "HINDSIGHT_CLAUDE_BIN": ""},
    )
    assert done.returncode == 1
    assert done.stdout == (
        "plugin hindsight@hindsight is still installed: "
        "run `claude plugin uninstall hindsight@hindsight --scope user`\n"
    )


def test_install_and_uninstall_in_one_second_keep_both_backups(tmp_path: Path) -> None:
    # A script that installs and removes within one second once overwrote the first
    # backup (the only copy of the user's own settings) with the second.
    root, _, home = install_recording(tmp_path)
    settings = home / "settings.json"
    settings.write_text(json.dumps(OTHERS))
    pinned = {"HINDSIGHT_NOW": "2026-12-01T10:00:00Z"}
    where = ("--claude-home", str(home))
    assert run_cli("install", "--hook", *where, cwd=root, env=pinned).returncode == 0
    installed = json.loads(settings.read_text())
    done = run_cli("uninstall", *where, cwd=root, env=pinned)
    assert done.returncode == 0, done.stderr
    first = home / "settings.json.bak-20261201-100000"
    second = home / "settings.json.bak-20261201-100000-2"
    assert json.loads(first.read_text()) == OTHERS
    assert json.loads(second.read_text()) == installed
    assert f"(backup: {second.name})" in done.stdout
    assert json.loads(settings.read_text()) == OTHERS
