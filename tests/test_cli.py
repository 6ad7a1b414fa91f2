"""The command line: one command's parser built alone parses and helps exactly like the whole."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from conftest import run_cli
from hindsight import cli

# Argument lists that exercise every option kind: flags, values, positionals, nested actions.
ARGV = [
    ["run", "--since", "3d", "--dry-run", "--json", "--max-new", "2", "--repo", "x"],
    ["scan", "--json", "--claude-home", "h"],
    ["digest", "--max-bytes", "100"],
    ["apply", "-", "--memory-dir", "m"],
    ["commit"],
    ["memory", "add", "--title", "t", "--body", "b", "--kind", "fix"],
    ["memory", "prune", "--max-bytes", "10"],
    ["schema"],
    ["install", "--hook", "--scope", "project"],
    ["hook", "session-end"],
    ["status", "--json"],
    ["selfcheck"],
]


def _help(parser_argv: list[str], only: str | None) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.build_parser(only).parse_args(parser_argv)
    return out.getvalue()


@pytest.mark.parametrize("argv", ARGV, ids=lambda a: " ".join(a[:2]))
def test_a_command_alone_parses_like_the_whole_parser(argv: list[str]) -> None:
    assert vars(cli.build_parser(argv[0]).parse_args(argv)) == vars(
        cli.build_parser().parse_args(argv)
    )
    assert _help([argv[0], "--help"], argv[0]) == _help([argv[0], "--help"], None)


def test_every_command_is_listed_in_the_top_help() -> None:
    done = run_cli("--help")
    assert done.returncode == 0
    for name in cli._COMMANDS:
        assert f"\n    {name}" in done.stdout


def test_unknown_command_names_every_choice() -> None:
    done = run_cli("bogus")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "invalid choice: 'bogus' (choose from 'run', 'scan'," in done.stderr


def test_fast_exit_leaves_output_whole_and_lets_a_profiler_report() -> None:
    plain = subprocess.run(
        [sys.executable, "-m", "hindsight", "schema"], capture_output=True, text=True, check=False
    )
    assert plain.returncode == 0 and json.loads(plain.stdout)["title"] == "hindsight lessons"
    # Under a profiler (or coverage) the interpreter exits normally, so its results get written.
    profiled = subprocess.run(
        [sys.executable, "-m", "cProfile", "-m", "hindsight", "schema"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert profiled.returncode == 0 and "function calls" in profiled.stdout


@pytest.mark.parametrize(("columns", "usage_lines"), [(60, 9), (120, 3)])
def test_help_follows_the_terminal_width(columns: int, usage_lines: int) -> None:
    done = run_cli("run", "--help", env={"COLUMNS": str(columns)})
    usage = done.stdout.split("\n\n", 1)[0].splitlines()
    assert done.returncode == 0 and usage[0].startswith("usage: hindsight run")
    assert len(usage) == usage_lines and max(len(line) for line in usage) <= columns - 2
