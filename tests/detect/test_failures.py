"""Failure detectors on our real recording (planted cases) and on synthetic edge cases."""

from __future__ import annotations

import hashlib
from pathlib import Path

from conftest import Script, recorded_sessions, session_from_records, shared_fixture
from hindsight.detect import Options, evidence_key, failures, run_all
from hindsight.detect import shell as sh


def by_kind(kind: str) -> list:
    return [f for f in run_all(recorded_sessions()) if f.kind == kind]


def test_failed_then_fixed_in_the_recording() -> None:
    fixed = {f.data["command"]: f for f in by_kind("failed_then_fixed")}
    assert sorted(fixed) == ["cat config.yaml", "make test"]
    make = fixed["make test"].data
    assert (make["exit_code"], make["fix_command"], make["category"], make["typo"]) == (
        2,
        "make check",
        sh.WRONG_INVOCATION,
        False,
    )
    assert make["error"] == "make: *** No rule to make target 'test'.  Stop."
    assert [w.line for w in fixed["make test"].where] == [21, 28]
    cat = fixed["cat config.yaml"].data
    assert (cat["fix_command"], cat["category"]) == ("cat ../conf/settings.ini", sh.WRONG_PATH)
    assert 1.0 < cat["lost_s"] < 5.0


def test_unresolved_is_not_paired_with_an_unrelated_command() -> None:
    unresolved = {f.data["command"].split()[0]: f.data for f in by_kind("unresolved_failure")}
    assert set(unresolved) == {"python3", "tox", "git"}
    assert unresolved["python3"]["error"] == "ModuleNotFoundError: No module named 'yamlish'"
    assert unresolved["tox"]["category"] == sh.MISSING_DEPENDENCY


def test_same_failure_across_sessions() -> None:
    (repeat,) = by_kind("repeated_failure")
    assert repeat.data["command"] == "tox -e py311"
    assert (repeat.data["sessions"], repeat.data["times"], repeat.strength) == (2, 2, 5)


def test_tool_errors_and_slow_commands() -> None:
    kinds = {(f.data["tool"], f.data["error_kind"]): f.data for f in by_kind("tool_error")}
    assert kinds[("Read", "missing_file")]["target"] == "conf/deploy.yaml"
    assert kinds[("Edit", "edit_mismatch")]["target"] == "src/app.py"
    (slow,) = by_kind("slow_command")
    assert slow.data["command"] == "make slow-build"
    assert slow.data["duration_s"] >= 60 and slow.data["duration"] == "61 s"
    # Configurable threshold: at 120 s nothing in the recording is slow.
    assert list(failures.slow_commands(recorded_sessions(), Options(slow_seconds=120))) == []


def test_shared_v2_0_76_python_to_python3() -> None:
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    path = shared_fixture("claude-code/v2.0.76/sample_main_transcript.jsonl")
    sess = ClaudeCodeSource().read(Transcript(path, "claude-code", "s", 0, 0), [])
    (fix,) = list(failures.failed_then_fixed([sess], Options()))[1:]
    assert fix.data["command"] == "python /workspace/number_generator.py"
    assert fix.data["fix_command"] == "python3 /workspace/number_generator.py"
    assert fix.data["exit_code"] == 127 and fix.data["category"] == sh.MISSING_DEPENDENCY


def test_typo_put_right_at_once(tmp_path: Path) -> None:
    s = (
        Script()
        .bash(
            "pytest tests/test_aap.py",
            0,
            0.5,
            4,
            "ERROR: file or directory not found: tests/test_aap.py",
        )
        .bash("pytest tests/test_app.py", 3, 1.0)
    )
    (f,) = failures.failed_then_fixed([session_from_records(tmp_path, s.records)], Options())
    assert f.data["typo"] is True and f.strength == 1


def test_same_command_fixed_by_an_edit_or_install(tmp_path: Path) -> None:
    s = (
        Script()
        .bash("make build", 0, 2, 2, "fatal error: zlib.h: No such file or directory")
        .bash("sudo apt-get install -y zlib1g-dev", 10, 20)
        .tool("Edit", {"file_path": "/repo/Makefile", "old_string": "a", "new_string": "b"}, 40, 1)
        .bash("make build", 50, 30)
    )
    (f,) = failures.failed_then_fixed([session_from_records(tmp_path, s.records)], Options())
    assert f.data["fix_command"] == "make build"
    assert f.data["changed"] == [
        "ran `sudo apt-get install -y zlib1g-dev`",
        "edited /repo/Makefile",
    ]
    assert f.data["lost_s"] == 50.0


def test_chain_of_failures_reported_once_with_attempts(tmp_path: Path) -> None:
    s = (
        Script()
        .bash("npm test", 0, 1, 1, "Error: Cannot find module 'jest'")
        .bash("npm test", 5, 1, 1, "Error: Cannot find module 'jest'")
        .bash("npm install", 10, 30)
        .bash("npm test", 70, 5)
    )
    found = list(failures.failed_then_fixed([session_from_records(tmp_path, s.records)], Options()))
    assert len(found) == 1
    assert found[0].data["attempts"] == 2 and found[0].data["lost_s"] == 65.0
    assert found[0].data["changed"] == ["ran `npm install`"]
    assert found[0].strength == 4  # a minute lost


def test_evidence_keys_are_stable() -> None:
    first = sorted(f.key for f in run_all(recorded_sessions()))
    second = sorted(f.key for f in run_all(recorded_sessions()))
    assert first == second and len(set(first)) == len(first)


def test_evidence_keys_are_sha256_of_their_parts_across_versions() -> None:
    # Keys live in state.json: a key that changed would report every old finding again.
    assert evidence_key("unresolved", "sess-1", "toolu_01") == "kfa86e3c1fedcddb4637b"
    assert (
        evidence_key("x", "ü", 3) == "k" + hashlib.sha256("x\x1fü\x1f3".encode()).hexdigest()[:20]
    )
