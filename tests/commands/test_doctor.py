"""hindsight doctor through the real CLI: a healthy set-up passes; each problem, planted on its
own, is one line saying what is wrong and how to fix it, and exit status 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import install_recording, run_cli
from hindsight.sources.claude_files import claude_folder_name

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


class Setup:
    def __init__(self, base: Path) -> None:
        self.root, _, self.home = install_recording(base)
        self.memory = self.home / "projects" / claude_folder_name(str(self.root)) / "memory"
        self.env = {**NOW, "HOME": str(base / "user"), "XDG_CONFIG_HOME": str(base / "xdg")}

    def cli(self, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[str]]:
        done = run_cli(
            *args, "--claude-home", str(self.home), cwd=self.root, env={**self.env, **(env or {})}
        )
        return done.returncode, done.stdout.splitlines()

    def doctor(self, **env: str) -> tuple[int, list[str]]:
        return self.cli("doctor", env=env)

    def problems(self, **env: str) -> list[str]:
        code, lines = self.doctor(**env)
        found = [line.split(None, 1)[1] for line in lines if line.startswith("problem ")]
        assert code == (1 if found else 0)
        return found

    def settings(self, doc: dict) -> None:
        (self.home / "settings.json").write_text(json.dumps(doc))


@pytest.fixture
def healthy(tmp_path: Path) -> Setup:
    s = Setup(tmp_path)
    assert s.cli("install", "--hook", "--skill")[0] == 0
    assert s.cli("run", "--quiet")[0] == 0
    return s


def test_a_healthy_setup_passes(healthy: Setup) -> None:
    code, lines = healthy.doctor()
    assert code == 0
    h = healthy
    assert lines == [
        "ok       configuration: none (built-in defaults)",
        f"ok       Claude home: {h.home}",
        f"ok       memory folder: {h.memory}",
        f"ok       SessionEnd hook: {h.home / 'settings.json'}",
        f"ok       skill: {h.home / 'skills' / 'hindsight' / 'SKILL.md'}",
        "ok       transcripts are kept 30 days (cleanupPeriodDays: Claude Code's default)",
        f"ok       MEMORY.md: {len((h.memory / 'MEMORY.md').read_text().splitlines())} lines, "
        f"{len((h.memory / 'MEMORY.md').read_bytes())} bytes "
        "(Claude Code loads 200 lines / 25600 bytes)",
    ]
    as_json = json.loads(
        run_cli("doctor", "--json", "--claude-home", str(h.home), cwd=h.root, env=h.env).stdout
    )
    assert as_json["ok"] is True and len(as_json["checks"]) == 7


def test_no_claude_home(tmp_path: Path) -> None:
    s = Setup(tmp_path)
    s.home = tmp_path / "nowhere"
    assert s.problems()[0] == (
        f"Claude home {tmp_path / 'nowhere'} does not exist; fix: run Claude Code once, "
        "or point --claude-home / $CLAUDE_CONFIG_DIR at it"
    )


def test_no_hook(tmp_path: Path) -> None:
    s = Setup(tmp_path)
    assert s.problems() == [
        "no SessionEnd hook and no hindsight plugin: nothing runs hindsight when a session ends; "
        "fix: run `hindsight install --hook`, or install the plugin "
        "(`claude plugin install hindsight@hindsight`)"
    ]


def test_hook_whose_interpreter_is_gone(healthy: Setup) -> None:
    command = "/gone/venv/bin/python -m hindsight hook session-end"
    healthy.settings(
        {"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": command}]}]}}
    )
    assert healthy.problems() == [
        f"the SessionEnd hook in {healthy.home / 'settings.json'} runs /gone/venv/bin/python, which "
        "no longer exists; fix: run `hindsight uninstall` then `hindsight install --hook` with the "
        "hindsight you use now"
    ]


def test_hook_and_plugin_both(healthy: Setup) -> None:
    doc = json.loads((healthy.home / "settings.json").read_text())
    healthy.settings({**doc, "enabledPlugins": {"hindsight@hindsight": True}})
    assert healthy.problems() == [
        "both the SessionEnd hook and the plugin run hindsight: every session is read twice; "
        "fix: keep one: `hindsight uninstall` removes the hook and the plugin, then install one again"
    ]


def test_a_hook_in_the_users_and_the_projects_settings(healthy: Setup) -> None:
    # First use of the README (session 8): both scopes installed, doctor said ok twice.
    assert healthy.cli("install", "--hook", "--scope", "project")[0] == 0
    assert healthy.problems() == [
        "SessionEnd hooks in 2 settings files run hindsight: every session end starts a run for "
        "each; fix: keep one: `hindsight uninstall --scope project` (or `--scope user`) removes one"
    ]


def test_plugin_alone_is_enough(tmp_path: Path) -> None:
    s = Setup(tmp_path)
    s.settings({"enabledPlugins": {"hindsight@hindsight": True}})
    code, lines = s.doctor()
    assert code == 0
    assert f"ok       plugin hindsight@hindsight enabled in {s.home / 'settings.json'}" in lines


def test_stale_skill(healthy: Setup) -> None:
    skill = healthy.home / "skills" / "hindsight" / "SKILL.md"
    skill.write_text(skill.read_text().replace("hindsight digest", "hindsight evidence"))
    assert healthy.problems() == [
        f"the skill at {skill} differs from this hindsight's; fix: run `hindsight install --skill` "
        "(with --scope project for the repository's copy)"
    ]


def test_short_cleanup_period(healthy: Setup) -> None:
    doc = json.loads((healthy.home / "settings.json").read_text())
    healthy.settings({**doc, "cleanupPeriodDays": 3})
    assert healthy.problems() == [
        f"Claude Code deletes transcripts after 3 days (cleanupPeriodDays in {healthy.home / 'settings.json'}): "
        "sessions may go before hindsight reads them; fix: set cleanupPeriodDays to 30 or more in settings.json"
    ]
    (healthy.root / ".claude").mkdir(exist_ok=True)
    (healthy.root / ".claude" / "settings.local.json").write_text(
        '{"cleanupPeriodDays": "forever"}'
    )
    assert healthy.problems() == [
        f"cleanupPeriodDays in {healthy.root / '.claude' / 'settings.local.json'} is 'forever', "
        "not a number of days; fix: set it to a whole number such as 30"
    ]


def test_last_read_close_to_the_cleanup(healthy: Setup) -> None:
    later = {"HINDSIGHT_NOW": "2026-12-28T15:00:00Z"}  # 28 days after the run, 30 kept
    assert healthy.problems(**later) == [
        "hindsight last read sessions 28 days ago and Claude Code deletes transcripts after 30 days "
        "(cleanupPeriodDays in Claude Code's default); fix: run `hindsight run` now, and install "
        "the hook so it runs after every session"
    ]
    assert healthy.problems(HINDSIGHT_NOW="2026-12-20T15:00:00Z") == []


def test_memory_longer_than_what_claude_code_loads(healthy: Setup) -> None:
    path = healthy.memory / "MEMORY.md"
    block = path.read_text()
    notes = "".join(f"- note {i}\n" for i in range(250))
    path.write_text(block + notes)
    lines = len(block.splitlines()) + 250
    size = len(path.read_bytes())
    assert healthy.problems() == [
        f"{path} has {lines} lines and {size} bytes; Claude Code loads the first 200 lines or "
        "25600 bytes: the rest is never seen; fix: move long notes into other files MEMORY.md "
        "links to, or `hindsight memory prune`"
    ]
    path.write_text("x" * 30_000 + "\n" + block)  # one huge line: over the bytes, block after it
    assert healthy.problems()[0].endswith(
        "25600 bytes: the hindsight block is past that; fix: move long notes into other files "
        "MEMORY.md links to, or `hindsight memory prune`"
    )


def test_broken_configuration_is_a_problem_not_a_crash(healthy: Setup) -> None:
    (healthy.root / ".hindsight.toml").write_text("max-new = [\n")
    problems = healthy.problems()
    assert len(problems) == 1
    assert problems[0].startswith(f"{healthy.root / '.hindsight.toml'} is not valid TOML (")
    assert problems[0].endswith("; fix it or remove it")
