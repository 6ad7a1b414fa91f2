"""The SessionEnd hook uses the judge it is given (a flag in the hook command, or $HINDSIGHT_JUDGE):
the detached run it starts judges with it, and what happened lands in hook.log."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conftest import run_cli
from judges.loopback import lessons_doc, recording_with_secrets, scripted

pytest.importorskip("openai")


def wait_for_log(log: Path, seconds: float = 90) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if "run ok" in text or "run FAILED" in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"the detached run wrote nothing to {log}")


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_hook_runs_the_chosen_judge(tmp_path: Path, how: str) -> None:
    repo = recording_with_secrets(tmp_path / "repo")
    answer = json.dumps(lessons_doc(repo.keys()))
    with scripted("openai", tmp_path / "api", [{"text": answer}]) as server:
        base = ["--base-url", f"http://127.0.0.1:{server.port}/v1", "--model", "qwen3-test"]
        flags = ["--judge", "openai", *base] if how == "flag" else []
        env = {**server.env(), "HINDSIGHT_JUDGE": "openai"} if how == "env" else server.env()
        if how == "env":
            env["HINDSIGHT_OPENAI_MODEL"] = "qwen3-test"
        done = run_cli(
            "hook",
            "session-end",
            *flags,
            "--claude-home",
            str(repo.home),
            cwd=repo.root,
            env=env,
            stdin=json.dumps({"cwd": str(repo.root), "session_id": "s1"}),
        )
        assert done.returncode == 0, done.stderr
        log = wait_for_log(repo.memory / "hindsight" / "hook.log")
        (request,) = server.requests()
    assert "run ok: 7 sessions, 1 new lessons, 1 added to memory" in log
    assert request["model"] == "qwen3-test"
    assert "Staging deploys need the staging profile" in (repo.memory / "MEMORY.md").read_text()
    status = json.loads(
        run_cli("status", "--json", "--claude-home", str(repo.home), cwd=repo.root).stdout
    )
    assert status["last_run"]["judge"]["name"] == "openai"
