"""The headless Claude Code judge, up to the process boundary: a stand-in `claude` executable
speaks the CLI's `-p --output-format json` protocol (the real CLI is exercised in tests/integration)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from conftest import install_recording, run_cli
from hindsight.sources.claude_files import claude_folder_name

FAKE = r"""#!{python}
import json, os, re, sys
digest = sys.stdin.read()
with open({log!r}, "w") as f:
    json.dump({{"argv": sys.argv[1:], "child": os.environ.get("HINDSIGHT_JUDGE_CHILD"), "stdin": digest}}, f)
mode = {mode!r}
if mode == "fail":
    print("rate limited", file=sys.stderr); sys.exit(1)
if mode == "prose":
    print(json.dumps({{"type": "result", "is_error": False, "result": "I could not decide."}})); sys.exit(0)
keys = re.findall(r"`(k[0-9a-f]{{20}})`", digest)
lessons = {{"lessons": [
    {{"title": "Run make check; make test does not exist", "body": "The Makefile has no test target.",
      "kind": "fix", "strength": 4, "evidence": keys[:1], "memory": True}}]}}
answer = "Here is my judgement:\n```json\n" + json.dumps(lessons) + "\n```"
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": answer}}))
"""


def fake_claude(tmp_path: Path, mode: str = "ok") -> tuple[Path, Path]:
    import sys

    log = tmp_path / f"claude-{mode}.json"
    script = tmp_path / f"claude-{mode}"
    script.write_text(FAKE.format(python=sys.executable, log=str(log), mode=mode))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script, log


def judged_run(
    root: Path, home: Path, claude_bin: str, *extra: str, path: str | None = None
):  # -> CompletedProcess
    """`hindsight run --judge claude` in a subprocess, with the stand-in (or none) as the CLI."""
    return run_cli(
        "run",
        "--judge",
        "claude",
        *extra,
        "--claude-home",
        str(home),
        cwd=root,
        env={"HINDSIGHT_CLAUDE_BIN": claude_bin, **({"PATH": path} if path else {})},
    )


def test_run_with_the_claude_judge(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    script, log = fake_claude(tmp_path)
    done = judged_run(root, home, str(script), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["lessons"], summary["lessons_added"]) == (1, 1)
    memory = home / "projects" / claude_folder_name(str(root)) / "memory"
    assert "- **Run make check; make test does not exist** (" in (memory / "MEMORY.md").read_text()
    seen = json.loads(log.read_text())
    assert seen["child"] == "1"  # its own SessionEnd hook will not start another run
    assert seen["argv"][0] == "-p" and "--no-session-persistence" in seen["argv"]
    assert seen["argv"][seen["argv"].index("--tools") + 1] == ""
    assert '"disableAllHooks": true' in seen["argv"][seen["argv"].index("--settings") + 1]
    assert seen["stdin"].startswith("# hindsight digest\n") and "DATA (untrusted)" in seen["stdin"]
    # The judge cited a finding: a second run over the same sessions reports nothing again.
    again = json.loads(judged_run(root, home, str(script), "--json", "--since", "30d").stdout)
    assert again["lessons"] == 0 and again["already_reported"] == 1


def test_judge_failures_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    memory = home / "projects" / claude_folder_name(str(root)) / "memory"
    for mode, message in (
        ("fail", "the claude judge failed (exit 1): rate limited"),
        ("prose", "the claude judge did not answer with JSON"),
    ):
        script, _ = fake_claude(tmp_path, mode)
        done = judged_run(root, home, str(script))
        assert done.returncode == 1 and message in done.stderr and done.stderr.count("\n") == 1
        assert (
            not (memory / "MEMORY.md").exists() and not (memory / "hindsight" / "reports").exists()
        )
        state = json.loads((memory / "hindsight" / "state.json").read_text())
        assert state["last_scan"] is None and state["last_run"]["ok"] is False
    missing = judged_run(root, home, "", path=os.path.dirname(os.__file__))
    assert missing.returncode == 1 and "needs the Claude Code CLI" in missing.stderr


def test_the_judges_own_session_end_starts_nothing(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    done = run_cli(
        "hook",
        "session-end",
        "--claude-home",
        str(home),
        cwd=root,
        env={"HINDSIGHT_JUDGE_CHILD": "1"},
        stdin=json.dumps({"cwd": str(root)}),
    )
    assert done.returncode == 0
    assert not (home / "projects" / claude_folder_name(str(root)) / "memory").exists()
