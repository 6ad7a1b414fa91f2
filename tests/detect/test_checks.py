"""How a session ran the repository's checks (detect/checks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Script, real_session, session_from_records
from hindsight.detect import Options, checks, run_all
from hindsight.judges.rules import RulesJudge


def test_the_tests_run_through_a_pipe_are_named_without_it() -> None:
    # pookNast (development set): `PYTHONPATH=src python3 -m pytest tests/ -v 2>&1 | tail -20`,
    # twice; the `| tail` and the redirection are not how the tests run.
    sess = real_session("pookNast+loopkit", "da0d9633")
    (found,) = [f for f in checks.check_commands([sess], Options()) if f.data["check"] == "tests"]
    assert found.data == {
        "check": "tests",
        "command": "PYTHONPATH=src python3 -m pytest tests/ -v",
        "runs": 2,
    }
    lessons = RulesJudge().judge(run_all([sess])).lessons
    (lesson,) = [x for x in lessons if x.title.startswith("Tests here:")]
    assert lesson.title == "Tests here: `PYTHONPATH=src python3 -m pytest tests/ -v`"
    assert lesson.body == (
        "The session ran the tests with `PYTHONPATH=src python3 -m pytest tests/ -v` (2 runs)."
    )
    assert lesson.kind == "reference" and not lesson.memory


def test_a_check_run_in_a_subfolder_names_it(tmp_path: Path) -> None:
    script = Script("/repo").prompt("lint it", 0)
    script.bash(
        "cd pkg && uv run ruff check src/ 2>&1 | head -30", 10, code=0, output="All checks passed!"
    )
    sess = session_from_records(tmp_path, script.records)
    (found,) = checks.check_commands([sess], Options())
    assert found.data == {
        "check": "lint",
        "command": "uv run ruff check src/",
        "runs": 1,
        "folder": "pkg",
    }
    (lesson,) = RulesJudge().judge([found]).lessons
    assert lesson.title == "Lint here: `uv run ruff check src/` in `pkg/`"


@pytest.mark.parametrize(
    ("command", "output", "check"),
    [
        ("pnpm build", "built in 3s", "build"),
        ("npm run test:unit", "12 passed", "tests"),
        ("pnpm astro check 2>&1 | grep -c error", "0", "type check"),
        ("python -m py_compile app/main.py", "", "type check"),
        ("cargo check", "Finished", "type check"),
        ("npx tsc --noEmit", "", "type check"),
        # Not a check, or not the way: the shell's `test`, one test picked out, a wrong program.
        ("test -f package.json && echo yes", "yes", None),
        ("pytest tests/test_api.py::test_login", "1 passed", None),
        ("npx jest -t login", "1 passed", None),
        ("npm run tset", 'npm ERR! Missing script: "tset"', None),
        ("pytset", "zsh: command not found: pytset", None),
        ("git status && npm test", "ok", None),
        ("uv run ruff check src/a.py", "ok", None),  # one file: this task's
        # How the session shipped its work: named remote and branch, never a forced push.
        ("git push origin dev", "ok", "push"),
        ("git push", "ok", None),
        ("git push --force origin main", "ok", None),
        ("git push origin +main", "ok", None),
        ("wrangler pages deploy out --project-name=site", "ok", "deploy"),
        ("wrangler d1 execute site-db --remote --file=./m/0001.sql", "ok", "migrations"),
        ("npx prisma migrate deploy", "ok", "migrations"),
        ("nohup npm run dev > /tmp/dev.log &", "", "dev server"),
        ('pgrep -f "next dev"', "123", None),
        ("npm run update-type", "types written", "code generation"),
        # Which port serves what: a local URL that answered (FellowDalton: 3001 gave 404).
        (
            "curl -s http://localhost:3051/api/projects | head -c 500",
            '{"projects":[]}',
            "local server :3051",
        ),
        ("curl -s http://localhost:3001/", "404 Not Found", None),
        ("curl -s http://127.0.0.1:9/x", "curl: (7) Failed to connect", None),
        ("curl -s https://example.com/api", "{}", None),
    ],
)
def test_which_commands_run_a_check(
    tmp_path: Path, command: str, output: str, check: str | None
) -> None:
    script = Script("/repo").prompt("check it", 0)
    script.bash(command, 10, code=0, output=output)
    sess = session_from_records(tmp_path, script.records)
    found = list(checks.check_commands([sess], Options()))
    assert [f.data["check"] for f in found] == ([check] if check else [])


def test_a_local_server_that_answered_is_named_by_its_url(tmp_path: Path) -> None:
    # FellowDalton (development set): port 3001 answered 404 (another server), 3051 the API.
    script = Script("/repo").prompt("test the stream", 0)
    script.bash(
        "curl -s -X POST http://localhost:3001/api/agent/stream", 10, code=0, output="404 Not Found"
    )
    script.bash(
        "curl -s -X POST http://localhost:3051/api/agent/stream", 20, code=0, output="data: {}"
    )
    sess = session_from_records(tmp_path, script.records)
    (found,) = checks.check_commands([sess], Options())
    (lesson,) = RulesJudge().judge([found]).lessons
    assert (
        lesson.title == "A local server answered here at `http://localhost:3051/api/agent/stream`"
    )
    assert not lesson.memory and lesson.kind == "reference"
