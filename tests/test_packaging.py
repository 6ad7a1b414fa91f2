"""The package as users get it: the wheel and sdist build cleanly, `pipx install .` and
`uv tool install .` work in an empty place, and both command names run from there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from hindsight import __version__

WHEEL = f"agent_hindsight-{__version__}-py3-none-any.whl"
SDIST = f"agent_hindsight-{__version__}.tar.gz"


def run(*argv: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{argv}: {done.stdout[-800:]}{done.stderr[-1500:]}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", str(out), str(ROOT))
    return out


def test_wheel_and_sdist(dist: Path) -> None:
    assert sorted(p.name for p in dist.iterdir()) == [WHEEL, SDIST]
    with zipfile.ZipFile(dist / WHEEL) as wheel:
        names = set(wheel.namelist())
        info = f"agent_hindsight-{__version__}.dist-info"
        metadata = wheel.read(f"{info}/METADATA").decode()
        scripts = wheel.read(f"{info}/entry_points.txt").decode()
    assert {"hindsight/skill/SKILL.md", "hindsight/example/recording/recording.json"} <= names
    assert not [n for n in names if n.startswith(("tests/", "bench/")) or "__pycache__" in n]
    for line in (
        "Name: agent-hindsight",
        f"Version: {__version__}",
        "Requires-Python: >=3.10",
        "License-Expression: MIT",
        "Requires-Dist: orjson>=3.9",
    ):
        assert f"\n{line}\n" in metadata
    assert "hindsight = hindsight.cli:entry" in scripts
    assert "agent-hindsight = hindsight.cli:entry" in scripts
    with tarfile.open(dist / SDIST) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"CHANGELOG.md", "README.md", "pyproject.toml", "src/hindsight/cli.py"} <= members
    assert not [m for m in members if m.startswith((".venv/", ".git/"))]


def installed_works(bin_dir: Path, home: Path) -> None:
    for name in ("hindsight", "agent-hindsight"):
        assert run(str(bin_dir / name), "--version") == f"hindsight {__version__}\n"
    summary = json.loads(
        run(
            str(bin_dir / "hindsight"),
            "run",
            "--example",
            "--json",
            cwd=home,
            env={"HOME": str(home)},
        )
    )
    # The same as from the checkout: the installed package ships the whole example.
    here = json.loads(
        run(sys.executable, "-m", "hindsight", "run", "--example", "--json", cwd=home)
    )
    keys = ("sessions_read", "lessons", "lessons_added")
    assert [summary[k] for k in keys] == [here[k] for k in keys] and summary["sessions_read"] >= 6


def test_pipx_install(tmp_path: Path) -> None:
    env = {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin")}
    run(sys.executable, "-m", "pipx", "install", ".", env=env)
    installed_works(tmp_path / "bin", tmp_path)


def test_uv_tool_install(tmp_path: Path) -> None:
    env = {
        "UV_TOOL_DIR": str(tmp_path / "uv-tools"),
        "UV_TOOL_BIN_DIR": str(tmp_path / "bin"),
        "UV_PYTHON_DOWNLOADS": "never",  # the machine's Python, never a download
    }
    run(sys.executable, "-m", "uv", "tool", "install", "--python", sys.executable, ".", env=env)
    installed_works(tmp_path / "bin", tmp_path)
