"""The Claude Code plugin (.claude-plugin/, hooks/, bin/hindsight-plugin), with the real CLI:
validated, added as a marketplace from a local path, installed, and its SessionEnd hook fired by a
real session; hindsight runs from the plugin's data folder and writes the lesson to MEMORY.md."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import ROOT, git, real_client
from hindsight.sources.claude_files import claude_folder_name
from integration.live import claude, claude_session, shop

# What a clone of the repository brings that the plugin uses (the rest is not the plugin's).
PLUGIN_FILES = (
    ".claude-plugin",
    ".codex-plugin",
    ".agents",
    "hooks",
    "bin",
    "src",
    "pyproject.toml",
    "README.md",
)


@pytest.fixture
def marketplace(tmp_path: Path) -> Path:
    """A clean copy of the plugin, as a user's clone of the repository has it."""
    real_client("claude")
    folder = tmp_path / "hindsight-marketplace"
    folder.mkdir()
    for name in PLUGIN_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, folder / name)
    return folder


def test_plugin_and_marketplace_validate_strictly() -> None:
    real_client("claude")
    home = Path(os.environ.get("TMPDIR", "/tmp"))
    plugin = claude("plugin", "validate", "--strict", str(ROOT), home=home)
    assert plugin.returncode == 0, plugin.stdout + plugin.stderr
    assert "✔ Validation passed" in plugin.stdout
    assert 'SessionEnd command "\\"${CLAUDE_PLUGIN_ROOT}/bin/hindsight-plugin\\" hook' in (
        plugin.stdout
    )
    assert "skills: hindsight:hindsight" in plugin.stdout
    market = claude(
        "plugin", "validate", "--strict", str(ROOT / ".claude-plugin/marketplace.json"), home=home
    )
    assert market.returncode == 0 and "✔ Validation passed" in market.stdout


def test_the_manifests_agree_with_the_package() -> None:
    plugin = json.loads((ROOT / ".claude-plugin" / "plugin.json").read_text())
    market = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
    from hindsight import __version__

    codex = json.loads((ROOT / ".codex-plugin" / "plugin.json").read_text())
    assert plugin["version"] == codex["version"] == __version__
    assert codex["name"] == "hindsight"
    assert [p["name"] for p in market["plugins"]] == [plugin["name"]] == ["hindsight"]
    assert market["plugins"][0]["source"] == "./"


def test_install_from_a_local_path_and_the_hook_runs_from_the_data_folder(
    tmp_path: Path, marketplace: Path
) -> None:
    repo, home = shop(tmp_path)

    added = claude("plugin", "marketplace", "add", str(marketplace), home=home, cwd=repo)
    assert added.returncode == 0, added.stderr
    assert "Successfully added marketplace: hindsight" in added.stdout
    # Project scope: what the team commits names the plugin, never a path of this machine.
    installed = claude(
        "plugin", "install", "hindsight@hindsight", "--scope", "project", home=home, cwd=repo
    )
    assert installed.returncode == 0, installed.stderr
    committed = json.loads((repo / ".claude" / "settings.json").read_text())
    assert committed == {"enabledPlugins": {"hindsight@hindsight": True}}
    listed = json.loads(claude("plugin", "list", "--json", home=home, cwd=repo).stdout)
    assert [(p["id"], p["enabled"]) for p in listed] == [("hindsight@hindsight", True)]

    # No hindsight on PATH: the plugin builds its own venv in its data folder, detached.
    path = [d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "hindsight").exists()]
    steps = [
        {"tool": "Bash", "input": {"command": "make test", "description": "tests"}},
        {"tool": "Bash", "input": {"command": "make check", "description": "checks"}},
        {"text": "make check works."},
    ]
    session_env = {"PATH": os.pathsep.join(path)}
    claude_session(real_client("claude"), repo, home, steps, "run the tests", env=session_env)
    memory = home / "projects" / claude_folder_name(str(repo.resolve())) / "memory"
    log = memory / "hindsight" / "hook.log"
    for _ in range(1800):  # the first run builds the venv (pip): allow it time
        if log.exists() and ("Z run ok" in log.read_text() or "Z run FAILED" in log.read_text()):
            break
        time.sleep(0.1)
    data = home / "plugins" / "data" / "hindsight-hindsight"
    assert log.exists(), (data / "install.log").read_text()
    assert "run ok: 1 sessions, 1 new lessons, 1 added to memory" in log.read_text()
    assert "`make test` has no target here; use `make check`" in (memory / "MEMORY.md").read_text()
    from hindsight import __version__

    assert (data / f"venv-{__version__}" / ".complete").exists()
    assert not list(data.glob("hook-input.*"))  # the saved hook input is gone
    git_status = git_output("status", "--porcelain", cwd=repo)
    assert git_status == "?? .claude/\n"  # nothing else in the repository


def test_the_codex_plugin_installs_and_brings_the_skill(tmp_path: Path, marketplace: Path) -> None:
    """Codex (0.117+) has plugins too: .codex-plugin/plugin.json and .agents/plugins/marketplace.json
    bring the same skill; the prompt Codex would send lists it."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()

    def codex(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [real_client("codex"), *args],
            cwd=marketplace,
            env={**os.environ, "CODEX_HOME": str(codex_home), "HOME": str(codex_home)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    added = codex("plugin", "marketplace", "add", str(marketplace))
    assert added.returncode == 0 and "Added marketplace `hindsight`" in added.stdout, added.stderr
    installed = codex("plugin", "add", "hindsight@hindsight")
    assert installed.returncode == 0, installed.stderr
    assert "hindsight@hindsight  installed, enabled  0.1.0" in codex("plugin", "list").stdout
    prompt = codex("debug", "prompt-input", "hello")
    assert prompt.returncode == 0, prompt.stderr
    assert (
        "- hindsight:hindsight: Review this repository's previous agent sessions" in prompt.stdout
    )


def git_output(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def test_uninstall_removes_the_plugin_through_claude(tmp_path: Path, marketplace: Path) -> None:
    from conftest import run_cli

    repo, home = tmp_path / "repo", tmp_path / "home"
    repo.mkdir()
    home.mkdir()
    git("init", "-q", "-b", "main", ".", cwd=repo)
    assert claude("plugin", "marketplace", "add", str(marketplace), home=home).returncode == 0
    assert claude("plugin", "install", "hindsight@hindsight", home=home).returncode == 0
    done = run_cli(
        "uninstall",
        "--claude-home",
        str(home),
        cwd=repo,
        env={"HINDSIGHT_CLAUDE_BIN": real_client("claude"), "HOME": str(home)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "plugin removed: hindsight@hindsight (user scope)\n"
    assert json.loads(claude("plugin", "list", "--json", home=home).stdout) == []
