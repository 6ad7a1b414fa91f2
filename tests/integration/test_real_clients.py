"""The pinned agent CLIs (.ci/clients.txt) are there for the real-client tests, at their pins in CI."""

from __future__ import annotations

import os
import subprocess

import pytest

from conftest import REQUIRE_CLIENTS, real_client
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
