from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
RECORDING = ROOT / "src" / "hindsight" / "example" / "recording"


def shared_fixture(relative: str) -> Path:
    """A file from ../shared/fixtures, or a clear skip where that folder is absent."""
    path = SHARED_FIXTURES / relative
    if not path.exists():
        pytest.skip(
            f"shared fixture {relative} not present (needs ../shared/fixtures beside the repo)"
        )
    return path


# .ci/run sets this: a real-client test that would skip for want of its CLI fails instead, so CI
# can never go green having run none of them.
REQUIRE_CLIENTS = "HINDSIGHT_REQUIRE_REAL_CLIENTS"


def real_client(command: str) -> str:
    """The path of a real agent CLI (``claude``, ``codex``, ``gemini``): $<COMMAND>_BIN, else PATH.

    Where it is absent the test skips, or fails where $HINDSIGHT_REQUIRE_REAL_CLIENTS is set.
    """
    variable = f"{command.upper()}_BIN"
    path = os.environ.get(variable) or shutil.which(command)
    if path:
        return path
    why = f"needs the real {command} (set {variable} or put it on PATH; .ci/run installs it)"
    if os.environ.get(REQUIRE_CLIENTS):
        pytest.fail(f"{why}, and {REQUIRE_CLIENTS} is set", pytrace=False)
    pytest.skip(why)


def run_cli(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    wrap: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess, as a user or a hook would (``wrap``: a command that
    runs it, such as ``setpriv`` to drop root's rights)."""
    full_env = dict(os.environ)
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run(
        [*(wrap or []), sys.executable, "-m", "hindsight", *args],
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
# git refuses a repository its user does not own; the tests' repos belong to root.
GIT_ANY_OWNER = {
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "safe.directory",
    "GIT_CONFIG_VALUE_0": "*",
}


def digest_then_apply(
    root: Path, home: Path, judge: Callable[[dict], dict], env: dict[str, str]
) -> dict:
    """The path a model judge's lessons take: `hindsight digest --json`, the judge's answer to
    it, `hindsight apply` (no cap on new entries); returns apply's JSON summary."""
    digest = run_cli(
        "digest", "--json", "--max-bytes", "5000000", "--claude-home", str(home), cwd=root, env=env
    )
    assert digest.returncode == 0, digest.stderr
    lessons = judge(json.loads(digest.stdout))
    done = run_cli(
        "apply", "-", "--json", "--max-new", "500", "--claude-home", str(home),
        cwd=root, env=env, stdin=json.dumps(lessons),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict = json.loads(done.stdout)
    return result


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temp folder any user can enter, for runs that drop root's rights (CI runs as root,
    and root reads and writes whatever the modes say); removed afterwards."""
    import shutil
    import tempfile

    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run a command as an unprivileged user")
    folder = Path(tempfile.mkdtemp(prefix="hindsight-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(folder)


def open_up(folder: Path) -> None:
    """Let any user read everything under ``folder`` and write its folders."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        path.chmod(0o777 if path.is_dir() else 0o666)


@pytest.fixture
def memdir(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    return folder


def install_recording(base: Path, *, misplace_worktree: bool = False) -> tuple[Path, Path, Path]:
    """Our real recording (the shipped example) moved under ``base``: (root, worktree, claude home)."""
    from hindsight import example

    ex = example.install(base, misplace_worktree=misplace_worktree)
    return ex.root, ex.worktree, ex.claude_home


def recorded_sessions() -> list:  # list[Session]
    """Every session of our recording, read in place (no relocation needed for detectors)."""
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    paths = sorted((RECORDING / "projects").glob("*/*.jsonl"))
    return [ClaudeCodeSource().read(Transcript(p, "claude-code", p.stem, 0, 0), []) for p in paths]


def real_session(source: str, prefix: str) -> object:
    """A Claude Code session of the development set (../shared/fixtures/claude-code/real/), read
    by the real reader; the test skips where the development set is absent."""
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    (path,) = shared_fixture(f"claude-code/real/{source}").glob(f"{prefix}*.jsonl")
    return ClaudeCodeSource().read(Transcript(path, "claude-code", path.stem, 0, 0), [])


def session_from_records(tmp_path: Path, records: list[dict], name: str = "synthetic") -> object:
    """A Session read by the real reader from records written to a real file."""
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return ClaudeCodeSource().read(Transcript(path, "claude-code", name, 0, 0), [])


_SCRIPTS = itertools.count(1)


class Script:
    """Builds Claude Code records (the 2.1.x shapes seen in the fixtures) for synthetic cases."""

    def __init__(self, cwd: str = "/repo") -> None:
        self.records: list[dict] = []
        self.cwd = cwd
        self.n = 0
        # Record uuids are random in real transcripts: one session's never repeat in another's
        # (a repeat means a copy made by a resume, and counts once).
        self.tag = next(_SCRIPTS)

    def _base(self, kind: str, second: float) -> dict:
        self.n += 1
        minute, sec = divmod(second, 60)
        return {
            "type": kind,
            "uuid": f"s{self.tag}-u{self.n}",
            "cwd": self.cwd,
            "sessionId": "synthetic",
            "timestamp": f"2026-11-30T10:{int(minute):02d}:{sec:06.3f}Z",
        }

    def prompt(self, text: str, at: float) -> Script:
        self.records.append(
            {**self._base("user", at), "message": {"role": "user", "content": text}}
        )
        return self

    def say(self, text: str, at: float) -> Script:
        self.records.append(
            {
                **self._base("assistant", at),
                "message": {
                    "id": f"m{self.n}",
                    "role": "assistant",
                    "content": [{"type": "text", "text": text}],
                },
            }
        )
        return self

    def tool(
        self,
        name: str,
        tool_input: dict,
        at: float,
        took: float,
        output: str = "",
        error: bool = False,
    ) -> Script:
        tid = f"t{self.n}"
        self.records.append(
            {
                **self._base("assistant", at),
                "message": {
                    "id": f"m{self.n}",
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": tid, "name": name, "input": tool_input}],
                },
            }
        )
        self.records.append(
            {
                **self._base("user", at + took),
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": tid,
                            "content": output,
                            "is_error": error,
                        }
                    ],
                },
            }
        )
        return self

    def bash(
        self, command: str, at: float, took: float = 1.0, code: int = 0, output: str = ""
    ) -> Script:
        text = f"Exit code {code}\n{output}" if code else output
        return self.tool("Bash", {"command": command}, at, took, text, error=code != 0)


def make_repo(base: Path) -> tuple[Path, Path]:
    """A git repo (path with a dot and an underscore) and a linked worktree: (root, worktree)."""
    root = base / "acme.app_v2"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x = 1\n")
    git("init", "-q", "-b", "main", ".", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "init", cwd=root)
    wt = base / "acme.app_v2.wt_feature"
    git("worktree", "add", "-q", "-b", "feature", str(wt), cwd=root)
    return root.resolve(), wt.resolve()


def git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def example_options(base: Path, ex: object) -> list[str]:
    """Where-options for an example installed under ``base``: every agent's home and the memory."""
    return [
        "--repo", str(ex.root), "--claude-home", str(ex.claude_home),  # type: ignore[attr-defined]
        "--codex-home", str(base / "codex-home"), "--gemini-home", str(base / "gemini-home"),
        "--memory-dir", str(base / "memory"),
    ]  # fmt: skip


def written_text(folder: Path) -> str:
    """Every file hindsight keeps in ``folder`` as text, the ledger's rows dumped whole (a
    secret split over two SQLite pages would slip by a scan of its bytes)."""
    import sqlite3

    out: list[str] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        if path.name == "ledger.sqlite":
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                for table in ("lessons", "history"):
                    out += [repr(row) for row in conn.execute(f"SELECT * FROM {table}")]
            finally:
                conn.close()
        out.append(path.read_text(errors="replace"))
    return "\n".join(out)
