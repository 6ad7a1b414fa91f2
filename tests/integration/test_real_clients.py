"""The pinned agent CLIs (.ci/clients.txt) are there for the real-client tests, at their pins in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REQUIRE_CLIENTS, ROOT, real_client
from integration.live import pins


def test_the_pins_name_each_client_once() -> None:
    assert [c for _, _, c in pins()] == ["claude", "codex", "gemini"]
    assert all(v.count(".") == 2 for _, v, _ in pins())  # exact versions, no ranges


@pytest.mark.parametrize(("package", "version", "command"), pins())
def test_each_client_runs(package: str, version: str, command: str) -> None:
    done = subprocess.run(
        [real_client(command), "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    if os.environ.get(REQUIRE_CLIENTS):  # CI runs the pins; a developer may have another version
        assert version in done.stdout, f"{package}: {done.stdout!r}"


def test_a_missing_client_fails_where_ci_requires_it(tmp_path: Path) -> None:
    """What makes CI red instead of green-with-skips: pytest itself, on a test that needs a CLI
    no one has, with and without $HINDSIGHT_REQUIRE_REAL_CLIENTS."""
    test = tmp_path / "test_needs.py"
    test.write_text(
        "from conftest import real_client\n\n"
        "def test_needs() -> None:\n    real_client('no-such-agent-cli')\n"
    )
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(tmp_path),
    ]
    argv += ["--confcutdir", str(ROOT / "tests"), str(test)]
    env = {k: v for k, v in os.environ.items() if k != REQUIRE_CLIENTS}
    env["PYTHONPATH"] = str(ROOT / "tests")

    def outcome(extra: dict[str, str]) -> tuple[int, str]:
        done = subprocess.run(
            argv, env={**env, **extra}, capture_output=True, text=True, timeout=120
        )
        return done.returncode, done.stdout.strip().splitlines()[-1]

    code, last = outcome({})
    assert code == 0 and last.startswith("1 skipped")
    code, last = outcome({REQUIRE_CLIENTS: "1"})
    assert code == 1 and last.startswith("1 failed")
