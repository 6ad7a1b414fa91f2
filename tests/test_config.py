"""The configuration files (config.py) through the real CLI: the user's (honouring
$XDG_CONFIG_HOME), the repository's .hindsight.toml, flags over both; the opt-out; a bad file is
one error line and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import install_recording, run_cli

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """(repo root, Claude home, env with an empty home and config folder of its own)"""
    root, _, home = install_recording(tmp_path)
    env = {**NOW, "HOME": str(tmp_path / "user"), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    return root, home, env


def user_config(env: dict[str, str], text: str) -> Path:
    path = Path(env["XDG_CONFIG_HOME"]) / "hindsight" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def would_add(root: Path, home: Path, env: dict[str, str], *flags: str) -> int:
    done = run_cli(
        "run", "--dry-run", "--json", "--claude-home", str(home), *flags, cwd=root, env=env
    )
    assert done.returncode == 0, done.stderr
    return len(json.loads(done.stdout)["would_add"])


def test_flag_over_repository_over_user(setup: tuple[Path, Path, dict[str, str]]) -> None:
    root, home, env = setup
    # No file: all 3 the example has for memory (cap 5); its correction was sent by `claude -p`,
    # not typed, so it stays in the report (#11).
    assert would_add(root, home, env) == 3
    user_config(env, "max-new = 1\n")
    assert would_add(root, home, env) == 1
    (root / ".hindsight.toml").write_text("# the team's\nmax-new = 2\n")
    assert would_add(root, home, env) == 2
    assert would_add(root / "src", home, env) == 2  # from a folder inside the repository
    assert would_add(root, home, env, "--max-new", "1") == 1
    assert would_add(root, home, env, "--max-new=5") == 3  # a flag equal to the default still wins


def test_xdg_config_home_unset_or_relative_means_home_config(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    root, home, env = setup
    path = Path(env["HOME"]) / ".config" / "hindsight" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("max-new = 2\n")
    assert would_add(root, home, {**env, "XDG_CONFIG_HOME": ""}) == 2
    assert would_add(root, home, {**env, "XDG_CONFIG_HOME": "relative/xdg"}) == 2
    assert would_add(root, home, env) == 3  # $XDG_CONFIG_HOME set: that folder only


def test_judge_from_the_file(setup: tuple[Path, Path, dict[str, str]]) -> None:
    root, home, env = setup
    (root / ".hindsight.toml").write_text('judge = "claude"\n')
    no_claude = {**env, "PATH": "/usr/bin:/bin"}
    done = run_cli("run", "--claude-home", str(home), cwd=root, env=no_claude)
    assert done.returncode == 1
    assert done.stderr.startswith("hindsight: error: --judge claude needs the Claude Code CLI")
    ok = run_cli(
        "run", "--judge", "rules", "--json", "--claude-home", str(home), cwd=root, env=no_claude
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["lessons_added"] == 3


def test_opt_out_reads_and_writes_nothing(setup: tuple[Path, Path, dict[str, str]]) -> None:
    root, home, env = setup
    user_config(env, "max-new = 1\n")
    (root / ".hindsight.toml").write_text("enabled = false\n")
    before = sorted(home.rglob("*"))
    done = run_cli("run", "--claude-home", str(home), cwd=root, env=env)
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr == (
        "hindsight: hindsight is off for this repository "
        f"(enabled = false in {root / '.hindsight.toml'}); nothing read\n"
    )
    assert sorted(home.rglob("*")) == before
    # The hook's detached run (what the plugin runs too) says so in the hook log.
    memory = home / "projects" / "m"
    hook = run_cli(
        "hook",
        "run-logged",
        "--claude-home",
        str(home),
        "--memory-dir",
        str(memory),
        cwd=root,
        env=env,
    )
    assert hook.returncode == 0
    log = (memory / "hindsight" / "hook.log").read_text()
    assert log.endswith(
        f"run skipped: hindsight is off for this repository (enabled = false in {root / '.hindsight.toml'})\n"
    )
    assert not (memory / "MEMORY.md").exists()
    # Other commands still work: status, memory show.
    assert run_cli("status", "--claude-home", str(home), cwd=root, env=env).returncode == 0


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            "max-new = \n",
            "is not valid TOML (Invalid value (at line 1, column 11)); fix it or remove it",
        ),
        (
            "max_new = 2\n",
            "unknown setting 'max_new'; known: enabled, judge, model, max-new, target",
        ),
        ("max-new = 0\n", "max-new must be at least 1, not 0"),
        ('max-new = "3"\n', "max-new must be a whole number, not '3'"),
        ("max-new = true\n", "max-new must be a whole number, not True"),
        ('enabled = "no"\n', "enabled must be true or false, not 'no'"),
        ('judge = "gpt"\n', "unknown judge 'gpt'; choose from "),
        (
            'target = "cursor"\n',
            "unknown target 'cursor'; choose from claude, agents-md, gemini-md, all",
        ),
    ],
)
def test_a_bad_file_is_one_line_and_nothing_written(
    setup: tuple[Path, Path, dict[str, str]], text: str, error: str
) -> None:
    root, home, env = setup
    path = root / ".hindsight.toml"
    path.write_text(text)
    before = sorted(home.rglob("*"))
    done = run_cli("run", "--claude-home", str(home), cwd=root, env=env)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"hindsight: error: {path}") and error in done.stderr
    assert done.stderr.count("\n") == 1
    assert sorted(home.rglob("*")) == before


def test_the_user_file_errors_name_it(setup: tuple[Path, Path, dict[str, str]]) -> None:
    root, home, env = setup
    path = user_config(env, "colour = 'blue'\n")
    done = run_cli("scan", "--claude-home", str(home), cwd=root, env=env)
    assert done.returncode == 1
    assert (
        done.stderr
        == f"hindsight: error: {path}: unknown setting 'colour'; known: enabled, judge, model, max-new, target\n"
    )


def test_the_hooks_judge_flag_beats_the_file(setup: tuple[Path, Path, dict[str, str]]) -> None:
    # `install --hook` writes `hook session-end --judge ...`; the detached run it starts once let
    # a config file's judge override that flag.
    root, home, env = setup
    (root / ".hindsight.toml").write_text('judge = "claude"\nmax-new = 1\n')
    memory = home / "projects" / "m"
    no_claude = {**env, "PATH": "/usr/bin:/bin"}
    where = ("--claude-home", str(home), "--memory-dir", str(memory))
    # Without the flag the file's judge is used (and here fails for want of the CLI).
    assert run_cli("hook", "run-logged", *where, cwd=root, env=no_claude).returncode == 1
    log = (memory / "hindsight" / "hook.log").read_text()
    assert "run FAILED: --judge claude needs the Claude Code CLI" in log, log
    hook = run_cli("hook", "run-logged", "--judge", "rules", *where, cwd=root, env=no_claude)
    assert hook.returncode == 0
    last = (memory / "hindsight" / "hook.log").read_text().splitlines()[-1]
    # max-new (no hook option) still comes from the file.
    assert last.endswith("new lessons, 1 added to memory"), last
