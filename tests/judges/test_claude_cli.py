"""The headless Claude Code judge, up to the process boundary: a stand-in `claude` executable
speaks the CLI's `-p --output-format json` protocol (the real CLI is exercised in tests/integration)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from conftest import install_recording, run_cli
from hindsight.judges import model
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
if mode == "empty":  # the model never called the StructuredOutput tool: the CLI gives up
    print(json.dumps({{"type": "result", "is_error": False, "result": ""}})); sys.exit(0)
if mode == "api-error":
    print(json.dumps({{"type": "result", "is_error": True, "api_error_status": 529, "result": "Overloaded"}}))
    sys.exit(1)
keys = re.findall(r"`(k[0-9a-f]{{20}})`", digest)
lessons = {{"lessons": [
    {{"title": "Run make check; make test does not exist", "body": "The Makefile has no test target.",
      "kind": "fix", "strength": 4, "evidence": keys[:1], "memory": True}}]}}
answer = "Here is my judgement:\n```json\n" + json.dumps(lessons) + "\n```"
envelope = {{"type": "result", "subtype": "success", "is_error": False, "result": answer,
             "usage": {{"input_tokens": 5000, "cache_read_input_tokens": 100, "output_tokens": 300}}}}
if mode == "structured":
    envelope.update(result="", structured_output=lessons)
print(json.dumps(envelope))
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


@pytest.mark.parametrize("mode", ["ok", "structured"])
def test_run_with_the_claude_judge(tmp_path: Path, mode: str) -> None:
    root, _, home = install_recording(tmp_path)
    script, log = fake_claude(tmp_path, mode)
    done = judged_run(root, home, str(script), "--json", "--model", "haiku")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["lessons"], summary["lessons_added"]) == (2, 2)
    memory = home / "projects" / claude_folder_name(str(root)) / "memory"
    text = (memory / "MEMORY.md").read_text()
    assert "- **Run make check; make test does not exist** (" in text
    # The verified floor: a fix the judge passed over enters in the rules' words; the one it
    # wrote about (make check) does not enter twice.
    assert "- **`cat config.yaml` fails: wrong path; use `cat ../conf/settings.ini`** (" in text
    assert "`make test` has no target here" not in text
    seen = json.loads(log.read_text())
    argv = seen["argv"]
    assert seen["child"] == "1"  # its own SessionEnd hook will not start another run
    assert argv[:2] == ["-p", model.PROMPT] and "--no-session-persistence" in argv
    assert argv[argv.index("--tools") + 1] == "" and argv[argv.index("--model") + 1] == "haiku"
    assert argv[argv.index("--system-prompt") + 1] == model.instructions()
    assert json.loads(argv[argv.index("--json-schema") + 1]) == model.wire_schema()
    assert '"disableAllHooks": true' in argv[argv.index("--settings") + 1]
    assert seen["stdin"].startswith("# hindsight digest\n") and "DATA (untrusted)" in seen["stdin"]
    sent = len(model.instructions().encode()) + len(
        (model.PROMPT + "\n\n" + seen["stdin"]).encode()
    )
    assert summary["judge"] == {
        "name": "claude",
        "model": "haiku",
        "bytes_sent": sent,
        "input_tokens": 5100,
        "output_tokens": 300,
    }
    report = next((memory / "hindsight" / "reports").glob("*.md")).read_text()
    assert (
        f"Judged by the claude judge (haiku): {sent} bytes sent, 5100 tokens in, 300 out." in report
    )
    # The judge cited a finding: a second run over the same sessions reports nothing again.
    again = json.loads(judged_run(root, home, str(script), "--json", "--since", "30d").stdout)
    assert again["lessons"] == 0 and again["already_reported"] == 1


def test_judge_failures_are_one_line_and_write_nothing(tmp_path: Path) -> None:
    root, _, home = install_recording(tmp_path)
    memory = home / "projects" / claude_folder_name(str(root)) / "memory"
    for mode, message in (
        ("fail", "the claude judge failed: exit 1: rate limited; nothing was written"),
        ("api-error", "the claude judge failed: exit 1, HTTP 529: Overloaded;"),
        ("prose", "the claude judge failed: the answer is not JSON"),
        ("empty", "the claude judge failed: the answer is empty;"),
    ):
        script, _ = fake_claude(tmp_path, mode)
        done = judged_run(root, home, str(script))
        assert done.returncode == 1 and message in done.stderr and done.stderr.count("\n") == 1
        assert done.stderr.rstrip().endswith("retry, or use --judge rules")
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


CLAUDE = os.environ.get("CLAUDE_BIN")


@pytest.mark.skipif(not CLAUDE, reason="needs the real Claude Code CLI (set CLAUDE_BIN)")
def test_the_real_cli_judges_through_structured_output(tmp_path: Path) -> None:
    """The real `claude -p` against the scripted Messages API: the schema goes as its
    StructuredOutput tool, the answer comes back as structured_output, no secret is sent."""
    from judges.loopback import PLANTED, lessons_doc, recording_with_secrets, scripted

    repo = recording_with_secrets(tmp_path / "repo")
    doc = {**lessons_doc(repo.keys()), "recommendations": [], "unfinished": []}
    doc["lessons"][0]["where"] = []  # the CLI checks the wire schema: every field present
    doc["lessons"][0]["quote"] = ""
    steps = [{"tool": "StructuredOutput", "input": doc}, {"text": "Done."}]
    judge_home = tmp_path / "judge-home"
    judge_home.mkdir()
    with scripted("anthropic", tmp_path / "api", steps) as server:
        env = {
            "IS_SANDBOX": "1",
            "CLAUDE_CONFIG_DIR": str(judge_home),
            "HOME": str(judge_home),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.port}",
            "ANTHROPIC_API_KEY": "sk-scripted",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "HINDSIGHT_CLAUDE_BIN": str(CLAUDE),
        }
        done = run_cli(
            "run",
            "--judge",
            "claude",
            "--model",
            "claude-sonnet-4-5",
            "--json",
            "--claude-home",
            str(repo.home),
            cwd=repo.root,
            env=env,
        )
        requests = server.requests()
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["lessons_added"] == 1 and summary["judge"]["input_tokens"]
    assert "Staging deploys need the staging profile" in (repo.memory / "MEMORY.md").read_text()
    first = requests[0]
    assert first["model"] == "claude-sonnet-4-5"
    (tool,) = first["tools"]
    assert tool["name"] == "StructuredOutput" and tool["input_schema"] == model.wire_schema()
    # The judge's instructions replace Claude Code's own system prompt (the CLI adds a header).
    assert [b["text"] for b in first["system"]][-1] == model.instructions()
    raw = json.dumps(requests)
    for secret in PLANTED.values():
        assert secret not in raw
    assert not list(judge_home.glob("projects/*/*.jsonl"))  # the judge left no transcript
