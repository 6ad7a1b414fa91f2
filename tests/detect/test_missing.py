"""A program the shell could not find, hidden by the rest of the command (detect/missing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Script, real_session, session_from_records
from hindsight.detect import Options, missing, run_all
from hindsight.judges.rules import RulesJudge


def test_a_fallback_that_hid_a_missing_timeout_is_reported_not_remembered() -> None:
    # jacksontwodotai (macOS, zsh): `timeout` is no macOS program; the `|| echo` fallback made
    # the call pass and printed "Server started successfully".
    sess = real_session("jacksontwodotai+GamePlanPro", "8f30b6da")
    (found,) = missing.hidden_missing_programs([sess], Options())
    assert found.data == {
        "program": "timeout",
        "command": 'cd frontend && timeout 10s npm run dev 2>&1 || echo "Server started successfully"',
    }
    lessons = RulesJudge().judge(run_all([sess])).lessons
    (lesson,) = [
        x for x in lessons if x.title == "`timeout` is not available in the agent's shell here"
    ]
    assert lesson.kind == "trap" and not lesson.memory
    assert lesson.body == (
        '`cd frontend && timeout 10s npm run dev 2>&1 || echo "Server started successfully"` '
        "passed, but the shell found no `timeout`: its exit status was a later step's. Check "
        "with `command -v timeout` first."
    )


def _session(tmp_path: Path, *calls: tuple[str, int, str]) -> object:
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = Script("/repo").prompt("start the server", 0)
    for n, (command, code, output) in enumerate(calls, 1):
        script.bash(command, 10 * n, code=code, output=output)
    return session_from_records(tmp_path, script.records)


@pytest.mark.parametrize(
    ("command", "output", "program"),
    [
        (
            "actionlint x.yml 2>&1 || echo skipped",
            "(eval):1: command not found: actionlint\nskipped",
            "actionlint",
        ),
        ("gtimeout 5 make run | head", "bash: line 1: gtimeout: command not found", "gtimeout"),
        ("yq . a.yml; echo done", "/bin/sh: 1: yq: not found\ndone", "yq"),
        # Not the command's own program: a log it printed names another.
        ("cat build.log || true", "sh: 1: webpack: not found", None),
        # The program is an argument, not a step's program.
        ("which timeout || echo none", "zsh: command not found: timeout\nnone", None),
    ],
)
def test_the_shells_not_found_line_names_a_program_of_the_command(
    tmp_path: Path, command: str, output: str, program: str | None
) -> None:
    sess = _session(tmp_path, (command, 0, output))
    found = list(missing.hidden_missing_programs([sess], Options()))
    assert [f.data["program"] for f in found] == ([program] if program else [])


def test_a_failed_call_or_a_later_run_that_found_it_is_not_hidden(tmp_path: Path) -> None:
    failed = _session(
        tmp_path / "a", ("timeout 5 npm start", 127, "zsh: command not found: timeout")
    )
    assert list(missing.hidden_missing_programs([failed], Options())) == []
    installed = _session(
        tmp_path / "b",
        ("timeout 5 npm start || true", 0, "zsh: command not found: timeout"),
        ("brew install coreutils", 0, "installed"),
        ("timeout 5 npm start", 0, "listening on 3000"),
    )
    assert list(missing.hidden_missing_programs([installed], Options())) == []
