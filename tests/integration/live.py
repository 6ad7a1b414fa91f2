"""Drive the real Claude Code CLI offline: the scripted Messages API on loopback, a private home."""

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

from conftest import ROOT, git

SERVER = ROOT / "tests" / "fixtures" / "record" / "scripted_api.py"
PINS = ROOT / ".ci" / "clients.txt"


def pins() -> list[tuple[str, str, str]]:
    """(npm package, version, command) for each line of .ci/clients.txt, as CI installs them."""
    out = []
    for line in PINS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            spec, command = line.split()
            package, version = spec.rsplit("@", 1)
            out.append((package, version, command))
    return out


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
        for _ in range(100):  # until it listens
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def shop(base: Path) -> tuple[Path, Path]:
    """A committed repo whose Makefile has `check` and no `test` (a folder name with a dot and an
    underscore), and an empty Claude home beside it: (repo, home)."""
    repo, home = base / "shop.web_app", base / "home"
    repo.mkdir(parents=True)
    home.mkdir()
    (repo / "Makefile").write_text("check:\n\t@echo ok\n")
    git("init", "-q", "-b", "main", ".", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "init", cwd=repo)
    return repo, home


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


def claude_session(
    claude: str,
    repo: Path,
    home: Path,
    steps: list[dict],
    prompt: str,
    *extra: str,
    env: dict[str, str] | None = None,
) -> None:
    """One `claude -p` session in ``repo`` against ``steps``; requests logged beside ``home``."""
    with scripted_api(
        steps, home.parent, SCRIPTED_API_LOG=str(home.parent / "requests.jsonl")
    ) as port:
        done = subprocess.run(
            [
                claude,
                "-p",
                prompt,
                "--dangerously-skip-permissions",
                "--output-format",
                "json",
                *extra,
            ],
            cwd=repo,
            env={**os.environ, **(env or {}), **cli_env(home, port)},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=180,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-500:]


def claude(*args: str, home: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A non-interactive `claude` subcommand (plugin, mcp, ...) with a private home, offline."""
    from conftest import real_client

    return subprocess.run(
        [real_client("claude"), *args],
        cwd=cwd,
        env={**os.environ, **cli_env(home, 9)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
