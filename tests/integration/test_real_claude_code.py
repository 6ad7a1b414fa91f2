"""The whole loop with the real Claude Code CLI, offline against the scripted Messages API:
the SessionEnd hook runs hindsight, the lesson lands in MEMORY.md, and the next session's request
carries it. Needs the CLI (.ci/install-clients; CLAUDE_BIN points at `claude`): skipped where it is
absent, a failure where $HINDSIGHT_REQUIRE_REAL_CLIENTS is set, as .ci/run sets it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conftest import real_client, run_cli
from hindsight.sources.claude_files import claude_folder_name
from integration.live import claude_session, cli_env, scripted_api, shop


@pytest.fixture
def claude() -> str:
    return real_client("claude")


def test_hook_writes_memory_that_the_next_session_loads(tmp_path: Path, claude: str) -> None:
    repo, home = shop(tmp_path)
    assert run_cli("install", "--hook", "--claude-home", str(home), cwd=repo).returncode == 0
    claude_session(
        claude,
        repo,
        home,
        [
            {"tool": "Bash", "input": {"command": "make test", "description": "tests"}},
            {"tool": "Bash", "input": {"command": "make check", "description": "checks"}},
            {"text": "make check works."},
        ],
        "run the tests",
    )
    memory = home / "projects" / claude_folder_name(str(repo.resolve())) / "memory"
    for _ in range(100):
        log = memory / "hindsight" / "hook.log"
        if log.exists() and "run ok" in log.read_text():
            break
        time.sleep(0.1)
    assert "run ok: 1 sessions, 1 new lessons, 1 added to memory" in log.read_text()
    assert "`make test` has no target here; use `make check`" in (memory / "MEMORY.md").read_text()
    # The next session starts with it: Claude Code sends its auto memory with the first request.
    (tmp_path / "requests.jsonl").unlink()
    claude_session(claude, repo, home, [{"text": "ok"}], "hello")
    sent = (tmp_path / "requests.jsonl").read_text()
    assert "has no target here; use `make check`" in sent.replace("\\u0060", "`")


def test_the_claude_judge_with_the_real_cli(tmp_path: Path, claude: str) -> None:
    """`run --judge claude` drives the real `claude -p` (tools off, no session kept, hooks off)."""
    from hindsight import example

    ex = example.install(tmp_path / "ex")
    # A model's lesson must cite the finding that supports it (the trust gate): here the user's
    # own words naming conf/settings.ini.
    digest = run_cli("digest", "--json", "--claude-home", str(ex.claude_home), cwd=ex.root)
    assert digest.returncode == 0, digest.stderr
    [key] = [
        f["key"]
        for f in json.loads(digest.stdout)["findings"]
        if f["kind"] == "correction" and "settings" in json.dumps(f)
    ][:1]
    lessons = {
        "lessons": [
            {
                "title": "Run make check; make test does not exist",
                "body": "The Makefile has no test target.",
                "kind": "fix",
                "strength": 4,
                "evidence": [key],
                "memory": True,
                "where": [],
                "quote": "",  # every field of the wire schema is present; empty: none
            }
        ],
        "recommendations": [],
        "unfinished": [],
    }
    # The judge passes the schema as --json-schema: the CLI offers the model a StructuredOutput
    # tool, checks its input against the schema, and returns it as structured_output.
    steps = [{"tool": "StructuredOutput", "input": lessons}, {"text": "Done."}]
    with scripted_api(steps, tmp_path) as port:
        env = {**cli_env(tmp_path / "judge-home", port), "HINDSIGHT_CLAUDE_BIN": claude}
        done = run_cli(
            "run",
            "--judge",
            "claude",
            "--json",
            "--claude-home",
            str(ex.claude_home),
            cwd=ex.root,
            env=env,
        )
    assert done.returncode == 0, done.stderr
    # The judge's lesson, and the verified floor's two it passed over (tox, the config path); the
    # rules' `make test` fix is the judge's lesson already and does not enter twice.
    assert json.loads(done.stdout)["lessons_added"] == 3, done.stdout
    memory = ex.claude_home / "projects" / claude_folder_name(str(ex.root)) / "memory" / "MEMORY.md"
    text = memory.read_text()
    assert "Run make check; make test does not exist" in text
    assert "`tox` is not installed here" in text and "`make test` has no target" not in text
    assert not list(
        (tmp_path / "judge-home").glob("projects/*/*.jsonl")
    )  # the judge left no transcript


def test_planted_traps_in_a_live_session_become_lessons(tmp_path: Path, claude: str) -> None:
    """A session recorded now by the pinned CLI, read back: the format is what the reader knows."""
    repo, home = shop(tmp_path)
    steps = [
        {"tool": "Bash", "input": {"command": "make test", "description": "tests"}},
        {"tool": "Bash", "input": {"command": "make check", "description": "checks"}},
        {"tool": "Bash", "input": {"command": "acme-lint --all", "description": "lint"}},
        {"tool": "Read", "input": {"file_path": str(repo / "conf" / "deploy.yaml")}},
        {"text": "done"},
    ]
    claude_session(claude, repo, home, steps, "run the tests", "--allowedTools", "Bash Read")
    done = run_cli("run", "--json", "--claude-home", str(home), cwd=repo)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["sessions_read"], summary["lines_skipped"]) == (1, 0)
    # Memory admits the verified fix; a tool missing once stays in the report (#10's rule).
    assert (summary["lessons"], summary["lessons_added"]) == (3, 1)
    block = Path(summary["memory"]).read_text()
    assert "- **`make test` has no target here; use `make check`** (" in block
    assert "acme-lint" not in block
    report = Path(summary["report"]).read_text()
    assert "3. Report only (trap, strength 2)\n" in report
    assert "   `conf/deploy.yaml` does not exist" in report
