"""Loopback servers that speak the real protocols, for the model judges' tests: the project's
scripted Messages API (tests/fixtures/record/scripted_api.py) and its Chat Completions sibling
(scripted_chat.py), each in its own process on a free port, driven through the official SDKs by
the real `hindsight run` in a subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from conftest import ROOT, Script, install_recording, run_cli
from hindsight.sources.claude_files import claude_folder_name

FIXTURES = ROOT / "tests" / "fixtures" / "record"
# Realistic fakes: every one must be absent from each request a judge sends.
ANTHROPIC_KEY = "sk-ant-api03-" + "Xq7" * 30 + "AA"
OPENAI_KEY = "sk-proj-" + "Vb4Kd9" * 8
PLANTED = {
    "aws": "AKIAQ3EGUVXLPJ5TMRWK",
    "github": "ghp_" + "R8aLq2Wm7Zx4" * 3,
    "typed": "Zq8xR2mLp4Tn7Vb1Kd9Fh3Ws",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server(NamedTuple):
    judge: str
    port: int
    log: Path

    def requests(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def env(self) -> dict[str, str]:
        if self.judge == "anthropic":
            return {
                "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{self.port}",
                "ANTHROPIC_API_KEY": ANTHROPIC_KEY,
            }
        return {"OPENAI_API_KEY": OPENAI_KEY, "OPENAI_BASE_URL": f"http://127.0.0.1:{self.port}/v1"}

    def args(self) -> list[str]:
        return ["--judge", self.judge] + (
            ["--model", "qwen3-test"] if self.judge == "openai" else []
        )


@contextlib.contextmanager
def scripted(
    judge: str,
    folder: Path,
    answers: list[dict[str, Any]],
    statuses: tuple[int, ...] = (),
    **env: str,
) -> Iterator[Server]:
    """The judge's protocol on loopback: HTTP errors ``statuses`` first, then ``answers`` in turn
    ({"text": ...}, "stop" for a cut-off answer)."""
    folder.mkdir(parents=True, exist_ok=True)
    script, log, port = (
        folder / f"{judge}-script.json",
        folder / f"{judge}-requests.jsonl",
        free_port(),
    )
    server_env = {**os.environ, "SCRIPTED_API_LOG": str(log), **env}
    if judge == "anthropic":
        server = FIXTURES / "scripted_api.py"
        steps = answers
        server_env |= {
            "SCRIPTED_API_NO_TOOLS_TOO": "1",
            "SCRIPTED_API_STATUSES": ",".join(map(str, statuses)),
        }
    else:
        server = FIXTURES / "scripted_chat.py"
        steps = [{"status": s} for s in statuses] + answers
    script.write_text(json.dumps(steps))
    proc = subprocess.Popen([sys.executable, str(server), str(port), str(script)], env=server_env)
    try:
        deadline = time.monotonic() + 15
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{server.name} did not start")
            time.sleep(0.05)
        yield Server(judge, port, log)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Repo(NamedTuple):
    root: Path
    home: Path
    memory: Path

    def files(self) -> dict[str, bytes]:
        """Every file of the memory folder, for 'left as it was' checks."""
        if not self.memory.exists():
            return {}
        return {
            str(p.relative_to(self.memory)): p.read_bytes()
            for p in sorted(self.memory.rglob("*"))
            if p.is_file() and p.name != ".lock"
        }

    def run(self, server: Server, *extra: str, env: dict[str, str] | None = None) -> Any:
        return run_cli(
            "run",
            *server.args(),
            *extra,
            "--claude-home",
            str(self.home),
            cwd=self.root,
            env={**server.env(), "HINDSIGHT_JUDGE_TIMEOUT": "60", **(env or {})},
        )

    def keys(self) -> list[str]:
        """The finding keys of the pending sessions, as `hindsight digest --json` lists them."""
        done = run_cli("digest", "--json", "--claude-home", str(self.home), cwd=self.root)
        return [f["key"] for f in json.loads(done.stdout)["findings"]]


def recording_with_secrets(base: Path) -> Repo:
    """The shipped recording, plus a session whose command, output and a typed prompt hold secrets."""
    root, _, home = install_recording(base)
    folder = home / "projects" / claude_folder_name(str(root))
    s = Script(cwd=str(root))
    s.prompt(PLANTED["typed"], 1)
    s.prompt("deploy the staging stack", 2)
    s.bash(
        f"AWS_ACCESS_KEY_ID={PLANTED['aws']} ./deploy.sh staging",
        3,
        code=1,
        output=f"error: token {PLANTED['github']} was rejected",
    )
    s.bash("./deploy.sh --profile staging staging", 10)
    for record in s.records:
        record["sessionId"] = "secrets-session"
    (folder / "secrets-session.jsonl").write_text("".join(json.dumps(r) + "\n" for r in s.records))
    return Repo(root, home, folder / "memory")


def lessons_doc(keys: list[str], *extra: dict[str, Any]) -> dict[str, Any]:
    """A judge's answer per today's `hindsight schema`, citing the digest's finding keys."""
    return {
        "lessons": [
            {
                "title": "Staging deploys need the staging profile",
                "body": "Plain credentials were rejected; deploying with the staging profile worked.",
                "kind": "fix",
                "strength": 4,
                # Every key: the lesson rests on the staging session, whichever finding the
                # digest lists first (a lesson citing none of it quotes nothing of it: held).
                "evidence": keys,
                "memory": True,
            },
            *extra,
        ]
    }
