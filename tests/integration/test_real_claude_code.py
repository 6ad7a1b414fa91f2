"""The whole loop with the real Claude Code CLI, offline against the scripted Messages API:
the SessionEnd hook runs hindsight, the lesson lands in MEMORY.md, and the next session's request
carries it. Needs the CLI (npm install @anthropic-ai/claude-code; CLAUDE_BIN points at `claude`);
skipped where it is absent, as in CI, which installs only the project's own files."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT, git, run_cli
from hindsight.sources.claude_files import claude_folder_name

CLAUDE = os.environ.get("CLAUDE_BIN") or shutil.which("claude")
pytestmark = pytest.mark.skipif(
    not CLAUDE, reason="needs the real Claude Code CLI (set CLAUDE_BIN)"
)
SERVER = ROOT / "tests" / "fixtures" / "record" / "scripted_api.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def scripted_api(steps: list[dict], folder: Path, **env: str) -> Iterator[int]:
    """The scripted Messages API on a free loopback port, for the length of the block."""
    script = folder / "script.json"
    script.write_text(json.dumps(steps))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(SERVER), str(port), str(script)], env={**os.environ, **env}
    )
    try:
        time.sleep(1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def cli_env(home: Path, port: int) -> dict[str, str]:
    """The environment that points the real CLI at a private home and the scripted API."""
    return {
        "IS_SANDBOX": "1",
        "CLAUDE_CONFIG_DIR": str(home),
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
        "ANTHROPIC_API_KEY": "sk-scripted",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
    }


def claude_session(repo: Path, home: Path, steps: list[dict], prompt: str) -> None:
    with scripted_api(
        steps, home.parent, SCRIPTED_API_LOG=str(home.parent / "requests.jsonl")
    ) as port:
        done = subprocess.run(
            [
                str(CLAUDE),
                "-p",
                prompt,
                "--dangerously-skip-permissions",
                "--output-format",
                "json",
            ],
            cwd=repo,
            env={**os.environ, **cli_env(home, port)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=180,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-500:]


def test_hook_writes_memory_that_the_next_session_loads(tmp_path: Path) -> None:
    repo, home = tmp_path / "shop.web_app", tmp_path / "home"
    repo.mkdir()
    home.mkdir()
    (repo / "Makefile").write_text("check:\n\t@echo ok\n")
    git("init", "-q", "-b", "main", ".", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "init", cwd=repo)
    assert run_cli("install", "--hook", "--claude-home", str(home), cwd=repo).returncode == 0
    claude_session(
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
    claude_session(repo, home, [{"text": "ok"}], "hello")
    sent = (tmp_path / "requests.jsonl").read_text()
    assert "has no target here; use `make check`" in sent.replace("\\u0060", "`")


def test_the_claude_judge_with_the_real_cli(tmp_path: Path) -> None:
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
                "title": "Settings live in conf/settings.ini",
                "body": "Read them there.",
                "kind": "reference",
                "strength": 4,
                "evidence": [key],
                "memory": True,
                "where": [],
            }
        ],
        "recommendations": [],
        "unfinished": [],
    }
    # The judge passes the schema as --json-schema: the CLI offers the model a StructuredOutput
    # tool, checks its input against the schema, and returns it as structured_output.
    steps = [{"tool": "StructuredOutput", "input": lessons}, {"text": "Done."}]
    with scripted_api(steps, tmp_path) as port:
        env = {**cli_env(tmp_path / "judge-home", port), "HINDSIGHT_CLAUDE_BIN": str(CLAUDE)}
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
    assert json.loads(done.stdout)["lessons_added"] == 1
    memory = ex.claude_home / "projects" / claude_folder_name(str(ex.root)) / "memory" / "MEMORY.md"
    assert "Settings live in conf/settings.ini" in memory.read_text()
    assert not list(
        (tmp_path / "judge-home").glob("projects/*/*.jsonl")
    )  # the judge left no transcript
