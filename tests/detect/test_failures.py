"""Failure detectors on our real recording (planted cases) and on synthetic edge cases."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

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


def test_a_binary_file_the_read_tool_refused_is_a_trap_for_the_report() -> None:
    # odgsully (development set): Read on MCAO/MAX_HEADERS.xlsx.
    from conftest import real_session
    from hindsight.judges.rules import RulesJudge

    sess = real_session("odgsully+adhs-working", "dd79a0de")
    found = [f for f in run_all([sess]) if f.data.get("error_kind") == "binary_file"]
    assert [f.data["target"] for f in found] == ["MCAO/MAX_HEADERS.xlsx"]
    (lesson,) = RulesJudge().judge(found).lessons
    assert lesson.title == "`MCAO/MAX_HEADERS.xlsx` is binary: the Read tool cannot read it"
    assert not lesson.memory


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


_RM_HOOK = (
    "PreToolUse:Bash hook error: [uv run ~/.claude/hooks/pre_tool_use.py]: "
    "BLOCKED: Dangerous rm command detected and prevented"
)
_ENV_HOOK = (
    "PreToolUse:{tool} hook error: [uv run /Users/d/.claude/hooks/pre_tool_use.py]: "
    "BLOCKED: Access to .env files containing sensitive data is prohibited"
)


def _refused(tmp_path: Path, name: str, calls: list[tuple[str, dict, str]]) -> object:
    s = Script(cwd="/repo").prompt("clean up", 0)
    for n, (tool, tool_input, output) in enumerate(calls):
        s.tool(tool, tool_input, 2 + n * 5, 0.1, output, error=True)
    return session_from_records(tmp_path, s.records, name)


def test_one_rule_refusing_calls_in_two_sessions_is_one_trigger(tmp_path: Path) -> None:
    # odgsully, rickithadi: the user's hook refused `rm -rf` in one session and `rm` of a file in
    # another; each refusal alone is a per-session tool error, together the same trigger twice.
    one = _refused(tmp_path, "one", [("Bash", {"command": "rm -rf .next"}, _RM_HOOK)])
    two = _refused(
        tmp_path,
        "two",
        [
            ("Bash", {"command": "rm /repo/app/sitemap.ts"}, _RM_HOOK),
            ("Bash", {"command": "cd /repo && rm -r build && make"}, _RM_HOOK),
        ],
    )
    (f,) = failures.repeated_refusals([one, two], Options())
    assert (f.data["word"], f.data["is_program"], f.data["times"], f.data["sessions"]) == (
        "rm",
        True,
        3,
        2,
    )
    from hindsight.judges.rules import RulesJudge

    (lesson,) = [x for x in RulesJudge().judge([f]).lessons]
    assert lesson.title == "Commands running `rm` were refused here by a hook of the user's"
    assert lesson.memory and "Dangerous" not in lesson.title + lesson.body  # no tool output
    # One session alone: its one refusal is the per-session tool error, nothing more; the
    # other's two refusals of `rm` are the rule met again within it.
    assert list(failures.repeated_refusals([one], Options())) == []
    (alone,) = failures.repeated_refusals([two], Options())
    assert (alone.data["word"], alone.data["times"], alone.data["sessions"]) == ("rm", 2, 1)


def test_a_refused_file_and_a_refused_command_share_the_file(tmp_path: Path) -> None:
    # FellowDalton: a Read of .env and a `cat .env | grep` refused by the same rule.
    one = _refused(
        tmp_path,
        "one",
        [
            (
                "Bash",
                {"command": "cat .env 2>/dev/null | grep -E 'ANTHROPIC'"},
                _ENV_HOOK.format(tool="Bash"),
            )
        ],
    )
    two = _refused(
        tmp_path, "two", [("Read", {"file_path": "/repo/.env"}, _ENV_HOOK.format(tool="Read"))]
    )
    (f,) = failures.repeated_refusals([one, two], Options())
    assert (f.data["word"], f.data["is_program"]) == (".env", False)


def test_refusals_by_different_rules_or_with_nothing_shared_are_no_trigger(
    tmp_path: Path,
) -> None:
    one = _refused(tmp_path, "one", [("Bash", {"command": "rm -rf .next"}, _RM_HOOK)])
    two = _refused(
        tmp_path, "two", [("Read", {"file_path": "/repo/.env"}, _ENV_HOOK.format(tool="Read"))]
    )
    assert list(failures.repeated_refusals([one, two], Options())) == []
    spawn = "Bash operation blocked by hook: - [uv run .claude/hooks/pre_tool_use.py]: error: x"
    a = _refused(tmp_path, "a", [("Bash", {"command": "npm install"}, spawn)])
    b = _refused(tmp_path, "b", [("Bash", {"command": "git status"}, spawn)])
    assert list(failures.repeated_refusals([a, b], Options())) == []


@pytest.mark.parametrize(
    ("output", "cwd", "script"),
    [
        # The shapes of the development set's refusals (Claude Code 1.0.x to 2.1.x).
        ("Bash operation blocked by hook:\n- [uv run .claude/hooks/pre_tool_use.py]: x", "/r",
         ".claude/hooks/pre_tool_use.py"),
        ("PreToolUse:Bash hook error: [sh -c 'cd /home/g/app && uv run .claude/hooks/pre.py']: "
         "BLOCKED", "/home/g/app", ".claude/hooks/pre.py"),
        ('hook error: [PATH="$HOME/.local/bin:$PATH" uv run "$CLAUDE_PROJECT_DIR/.claude/hooks/'
         'pre_tool_use.py"]', "/r", ".claude/hooks/pre_tool_use.py"),
        ("hook error: [uv run /Users/d/proj/.claude/hooks/guard.py]", "/Users/d/proj",
         ".claude/hooks/guard.py"),
        # A hook of the user's home is no file of the repository: not named.
        ("hook error: [uv run ~/.claude/hooks/pre_tool_use.py]", "/r", None),
        ("hook error: [uv run /Users/d/.claude/hooks/pre_tool_use.py]", "/Users/d/proj", None),
        ("Permission to use Bash has been denied.", "/r", None),
    ],
)  # fmt: skip
def test_the_script_of_a_refusing_hook(output: str, cwd: str, script: str | None) -> None:
    from hindsight.sources.claude_outcomes import refusing_hook

    assert failures.hook_script(refusing_hook(output), cwd) == script


def test_a_hook_of_the_repository_refusing_in_one_session_is_its_rule() -> None:
    # RaggioS (2.1.x): the workspace's own hook ("$CLAUDE_PROJECT_DIR/.claude/hooks/
    # pre_tool_use.py", BLOCKED: Dangerous rm command) refused `git rm -r ...` twice in one
    # session: a rule the repository carries, met in every session. The word is the agent's
    # (`rm` of its `git rm`), the one the hook's own message names.
    from conftest import real_session

    sess = real_session("RaggioS+jcode", "120ec635")
    (f,) = failures.repeated_refusals([sess], Options())
    d = f.data
    assert (d["word"], d["is_program"], d["sessions"], d["hook"]) == (
        "rm",
        False,
        1,
        ".claude/hooks/pre_tool_use.py",
    )
    from hindsight.judges.rules import RulesJudge

    (lesson,) = RulesJudge().judge([f]).lessons
    assert lesson.title == "Calls naming `rm` were refused here by a hook of the user's"
    assert lesson.memory and " in one session; " in lesson.body and "Dangerous" not in lesson.body


def test_a_hook_of_the_users_home_refusing_one_word_twice_in_one_session() -> None:
    # SantiagoCoronado (2.1.x): the user's home hook (~/.claude/hooks/pre_tool_use.py, "BLOCKED:
    # Access to .env files ... is prohibited") refused three calls in one session; two of them
    # held `.env.local` (the third a heredoc naming `process.env`). The agent met the same rule
    # again within the session: a trap for the next one. Its `rm -rf` refused once stays out.
    from conftest import real_session
    from hindsight.judges.rules import RulesJudge

    sess = real_session("SantiagoCoronado+pragma-web-design-test", "4698259d")
    (f,) = failures.repeated_refusals([sess], Options())
    d = f.data
    assert (d["word"], d["is_program"], d["times"], d["sessions"]) == (".env.local", False, 2, 1)
    assert "hook" not in d  # the home's script is no file of the repository
    assert [w.line for w in f.where] == [326, 375]
    (lesson,) = RulesJudge().judge([f]).lessons
    assert lesson.title == "Calls naming `.env.local` were refused here by a hook of the user's"
    assert lesson.memory and "refused 2 calls with `.env.local` in one session" in lesson.body


def test_one_session_needs_a_deliberate_refusal_by_a_hook_of_the_repository(
    tmp_path: Path,
) -> None:
    repo_hook = "PreToolUse:Bash hook error: [uv run .claude/hooks/pre_tool_use.py]: "
    # A hook of the user's home refusing once: the agent did not meet it again.
    home = _refused(tmp_path, "home", [("Bash", {"command": "rm -rf .next"}, _RM_HOOK)])
    # The repository's hook that failed to start refused nothing on purpose.
    spawn = _refused(
        tmp_path,
        "spawn",
        [("Bash", {"command": "rm -rf .next"}, repo_hook + "error: Failed to spawn: `rm`")],
    )
    # A deliberate refusal that names none of the call's words: nothing to name.
    unnamed = _refused(
        tmp_path, "unnamed", [("Bash", {"command": "make clean"}, repo_hook + "BLOCKED: no")]
    )
    # Twice, but each call a different word the hook names: no one word met again.
    home_two = _refused(
        tmp_path,
        "home_two",
        [
            ("Bash", {"command": "cat .env"}, _ENV_HOOK.format(tool="Bash")),
            ("Bash", {"command": "cat .envrc"}, _ENV_HOOK.format(tool="Bash")),
        ],
    )
    for sess in (home, spawn, unnamed, home_two):
        assert list(failures.repeated_refusals([sess], Options())) == []
    home_twice = _refused(
        tmp_path,
        "home_twice",
        [
            ("Bash", {"command": "cat .env"}, _ENV_HOOK.format(tool="Bash")),
            ("Bash", {"command": "make run"}, _ENV_HOOK.format(tool="Bash")),
            ("Bash", {"command": "grep KEY .env"}, _ENV_HOOK.format(tool="Bash")),
        ],
    )
    (f,) = failures.repeated_refusals([home_twice], Options())
    assert (f.data["word"], f.data["times"], f.data["examples"]) == (
        ".env",
        2,
        ["cat .env", "grep KEY .env"],
    )
    named = _refused(
        tmp_path,
        "named",
        [("Bash", {"command": "rm -rf .next"}, repo_hook + "BLOCKED: Dangerous rm command")],
    )
    (f,) = failures.repeated_refusals([named], Options())
    assert (f.data["word"], f.data["is_program"], f.data["times"]) == ("rm", True, 1)
