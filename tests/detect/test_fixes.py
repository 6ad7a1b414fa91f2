"""Which step of a chain failed, and what differed between a failure and the fix (issue #10).

Command lines and outputs are excerpts of the development set's real sessions
(../shared/fixtures/claude-code/real/) unless marked synthetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Script, real_session, session_from_records, shared_fixture
from hindsight import fmt
from hindsight.detect import fixes, run_all, steps
from hindsight.detect import shell as sh
from hindsight.judges.rules import RulesJudge


def test_steps_split_at_operators_outside_quotes_and_heredocs() -> None:
    assert steps.split('cd a && echo "x && y" | tail -5; make') == (
        "cd a",
        'echo "x && y"',
        "tail -5",
        "make",
    )
    assert steps.split("cat > f.py << 'EOF'\nx = 1 && 2\nEOF") == (
        "cat > f.py << 'EOF'\nx = 1 && 2\nEOF",
    )


@pytest.mark.parametrize(
    ("command", "output", "step", "known"),
    [
        # 4alvit: the chain failed in ruff, not in the echo that opened it.
        (
            'echo "" >> /Users/v/victron/mcp-venus-os/src/mcp_venus_os/dbus_client.py && '
            "uv run ruff check src/mcp_venus_os/",
            "Exit code 1\nW292 No newline at end of file\nFound 1 error.",
            "uv run ruff check src/mcp_venus_os/",
            True,
        ),
        # iMatrix: the first fc1 step stopped the chain; the output names it.
        (
            "./scripts/fc1 stop && sleep 2 && ./scripts/fc1 push -run 2>&1 | tail -20",
            "Exit code 127\n/bin/bash: line 1: ./scripts/fc1: No such file or directory",
            "./scripts/fc1 stop",
            True,
        ),
        # openshrooly: the cd itself failed.
        (
            "cd openshrooly && git remote -v",
            "Exit code 1\n/bin/bash: line 1: cd: openshrooly: No such file or directory",
            "cd openshrooly",
            True,
        ),
        # dirvine (zsh on macOS): the cd failed, zsh says so as "(eval):cd:1:".
        (
            "cd crates/saorsa-core && cargo test --lib 2>&1 | tail -5",
            "(eval):cd:1: no such file or directory: crates/saorsa-core",
            "cd crates/saorsa-core",
            True,
        ),
        ("cd web && ls", "zsh:cd:1: no such file or directory: web", "cd web", True),
        # git signs its errors "fatal:" without its name.
        (
            "cd /home/g/iMatrix/iMatrix_Client && git add scripts/fc1 && ls",
            "fatal: pathspec 'scripts/fc1' did not match any files",
            "git add scripts/fc1",
            True,
        ),
        # Synthetic: two working steps, an output naming neither: unknown.
        ("npm ci && npm test", "Exit code 1\nboom", "npm ci", False),
        # iMatrix: two git steps; the one holding what git's error quotes failed.
        (
            "git add scripts/fc1 docs/a.md && git commit -m 'Add fc1'",
            "Exit code 128\nfatal: pathspec 'scripts/fc1' did not match any files",
            "git add scripts/fc1 docs/a.md",
            True,
        ),
        # RaggioS: two git steps, an error quoting nothing: the step it names most failed.
        (
            "gh repo clone R/jcode jcode | tail -5 && cd jcode && git remote add upstream "
            'https://github.com/o/jcode.git && echo "=== remotes ===" && git remote -v',
            "Exit code 3\nerror: remote upstream already exists.",
            "git remote add upstream https://github.com/o/jcode.git",
            True,
        ),
        # SantiagoCoronado: one job on several worktrees; the job that failed is known.
        (
            "git worktree remove .claude/worktrees/agent-a && git worktree remove "
            ".claude/worktrees/agent-b",
            "Exit code 128\nfatal: cannot remove a locked working tree, lock reason: agent-a",
            "git worktree remove .claude/worktrees/agent-a",
            True,
        ),
    ],
)
def test_the_failing_step(command: str, output: str, step: str, known: bool) -> None:
    assert steps.failing(command, output) == (step, known)


@pytest.mark.parametrize(
    ("failed", "fixed", "category", "kind", "differs"),
    [
        (
            "invoke docs",
            "poetry run invoke docs",
            sh.MISSING_DEPENDENCY,
            fixes.RUNNER,
            "poetry run",
        ),
        ("pytest -x", "python -m pytest -x", sh.MISSING_DEPENDENCY, fixes.RUNNER, "python -m"),
        ("tsc --noEmit", "npx tsc --noEmit", sh.MISSING_DEPENDENCY, fixes.RUNNER, "npx"),
        (
            "npm run build",
            "NODE_ENV=production npm run build",
            sh.OTHER,
            fixes.PREFIX,
            "NODE_ENV=production",
        ),
        ("python x.py", "python3 x.py", sh.MISSING_DEPENDENCY, fixes.PROGRAM, "python3"),
        ("make test", "make check", sh.WRONG_INVOCATION, fixes.SUBCOMMAND, "check"),
        (
            "git push",
            "git push --set-upstream origin spotter-gqc",
            sh.OTHER,
            fixes.FLAGS,
            "--set-upstream origin spotter-gqc",
        ),
        (
            "git worktree remove .claude/w",
            "git worktree remove -f -f .claude/w",
            sh.OTHER,
            fixes.FLAGS,
            "-f -f",
        ),
        (
            "cat config.yaml",
            "cat ../conf/settings.ini",
            sh.WRONG_PATH,
            fixes.PATH,
            "../conf/settings.ini",
        ),
        # A sibling script of a script broken in itself (pattern-stack: test:unit's own jest
        # pattern is an sh syntax error; `npm run test` is the same job).
        ("npm run test:unit", "npm run test", sh.WRONG_INVOCATION, fixes.SUBCOMMAND, "test"),
        ("pnpm run build:prod", "pnpm run build", sh.MISSING_DEPENDENCY, fixes.SUBCOMMAND, "build"),
        # Another script is another job; a sibling after failing tests put nothing right.
        ("npm run build", "npm run dev", sh.MISSING_DEPENDENCY, fixes.OTHER, ""),
        ("npm run lint:fix", "npm run lint", sh.OTHER, fixes.OTHER, ""),
        # Not a subcommand: the code of `python3 -c`; a bare `make -j4` is another job.
        ('python3 -c "import a"', 'python3 -c "import b"', sh.OTHER, fixes.OTHER, ""),
        ("make increment_build_number 2>&1", "make -j4 2>&1", sh.WRONG_INVOCATION, fixes.OTHER, ""),
        # A lint run on another path after edits: nothing nameable.
        ("uv run ruff check src/a.py", "uv run ruff check src/", sh.OTHER, fixes.OTHER, ""),
    ],
)
def test_what_differed(failed: str, fixed: str, category: str, kind: str, differs: str) -> None:
    assert fixes.difference(failed, failed, fixed, fixed, category) == (kind, differs)


def test_the_folder_a_fix_ran_from() -> None:
    fixed = "cd /home/g/iMatrix/iMatrix_Client && ./scripts/fc1 stop"
    assert fixes.difference(
        "./scripts/fc1 stop",
        "./scripts/fc1 stop && ./scripts/fc1 push",
        "./scripts/fc1 stop",
        fixed,
        sh.MISSING_DEPENDENCY,
    ) == (fixes.FOLDER, "/home/g/iMatrix/iMatrix_Client")


def test_a_runner_put_in_front_is_a_fix_not_a_typo(tmp_path: Path) -> None:
    s = Script().bash("invoke docs", 0, 1, 127, "bash: invoke: command not found")
    s.bash("poetry run invoke docs", 3, 2)
    (lesson,) = RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons
    assert lesson.title == "Run `poetry run invoke docs`, not `invoke docs`" and lesson.memory


def test_a_one_token_slip_is_a_typo(tmp_path: Path) -> None:
    s = Script().bash("pytest tests/test_aap.py", 0, 1, 4, "ERROR: not found: tests/test_aap.py")
    s.bash("pytest tests/test_app.py", 3, 1)
    assert RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons == []


def test_a_filter_that_found_nothing_did_not_fail(tmp_path: Path) -> None:
    # GiovaniOliver: `netstat -ano | findstr "3123"` exiting 1 with nothing printed.
    s = Script().bash('netstat -ano | findstr "3123"', 0, 1, 1, "")
    s.bash("pnpm add multer", 5, 1).bash('netstat -ano | findstr "3123"', 9, 1)
    kinds = {f.kind for f in run_all([session_from_records(tmp_path, s.records)])}
    assert not kinds & {"failed_then_fixed", "unresolved_failure"}


def test_fixes_that_edits_may_explain_stay_out_of_memory(tmp_path: Path) -> None:
    # 4alvit: `ruff check --fix` failed, files were edited, plain `ruff check` passed: no lesson
    # may say "drop --fix".
    s = Script().bash("uv run ruff check --fix src/a.py", 0, 1, 1, "Found 1 error.")
    s.tool("Edit", {"file_path": "/repo/src/a.py", "old_string": "x", "new_string": "y"}, 5, 1)
    s.bash("uv run ruff check src/a.py", 9, 1)
    (lesson,) = RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons
    assert not lesson.memory
    assert (
        lesson.title
        == "`uv run ruff check --fix src/a.py` failed; later `uv run ruff check src/a.py` worked"
    )


def _real(source: str, session: str) -> list:
    from hindsight.sources.base import Transcript
    from hindsight.sources.claude_code import ClaudeCodeSource

    path = shared_fixture(f"claude-code/real/{source}/{session}.jsonl")
    return [ClaudeCodeSource().read(Transcript(path, "claude-code", session, 0, 0), [])]


def test_real_imatrix_fc1_runs_from_the_root() -> None:
    findings = run_all(_real("greg-phillips+iMatrix_src", "544eb189-f003-4236-818a-4b7f8a6de0c2"))
    (fix,) = [
        f
        for f in findings
        if f.kind == "failed_then_fixed" and f.data["step"] == "./scripts/fc1 stop"
    ]
    assert fix.data["difference"] == "folder"
    lessons = RulesJudge().judge(findings).lessons
    memory = [x.title for x in lessons if x.memory]
    # The verified fix (the same step worked from the root) stays in the report; memory takes
    # the trap that explains it (the shell stood in Fleet-Connect-1/build): test_folders.py.
    (fixed,) = [x for x in lessons if fix.key in x.evidence]
    assert fixed.title == "Run `./scripts/fc1 stop` from `/home/greg/iMatrix/iMatrix_Client`"
    assert not fixed.memory
    (cd,) = [x for x in lessons if x.kind == "trap" and "persists" in x.title]
    assert cd.memory and "`scripts/fc1` was not found from `Fleet-Connect-1/build`" in cd.body
    # `make increment_build_number` -> `make -j4` is another job, not "use make -j4".
    assert not any("increment_build_number" in t for t in memory)


def test_real_openshrooly_relative_cd_after_the_shell_moved() -> None:
    findings = run_all(_real("Johannes0501+openshrooly", "5ecdf49b-d3ef-4240-be4b-5e265fc89ea0"))
    (fix,) = [
        f for f in findings if f.kind == "failed_then_fixed" and "openshrooly" in f.data["step"]
    ]
    assert fix.data["difference"] == "path"
    lessons = RulesJudge().judge(findings).lessons
    # The verified fix (`cd /abs/openshrooly` worked) stays in the report; memory takes the trap
    # that says why (the shell was still in api-shrooms): tests/detect/test_folders.py.
    (fixed,) = [x for x in lessons if fix.key in x.evidence]
    assert fixed.kind == "fix" and not fixed.memory
    memory = [x.title for x in lessons if x.memory]
    assert memory.count("A `cd` persists between Bash calls here: use absolute paths") == 1


def test_real_venus_chain_is_not_blamed_on_echo() -> None:
    lessons = (
        RulesJudge()
        .judge(run_all(_real("4alvit+mcp-venus-os", "71df9206-5919-4682-bbb3-139b228e08a9")))
        .lessons
    )
    assert lessons and not any(x.title.startswith("`echo") for x in lessons)


def test_clip_words_never_cuts_a_token() -> None:
    assert fmt.clip_words("run scripts/deploy_the_whole_thing.sh now", 20) == "run …"
    assert (
        fmt.clip_words("a/very/long/path/that/is/one/token", 10)
        == "a/very/long/path/that/is/one/token"
    )
    assert fmt.clip_words("short", 10) == "short"


def test_a_file_too_large_is_remembered_once_it_was_read_in_parts(tmp_path: Path) -> None:
    too_big = "File content (43210 tokens) exceeds maximum allowed tokens (25000)."
    for parts, remembered in ((True, True), (False, False)):
        s = Script().tool("Read", {"file_path": "/repo/server.js"}, 0, 1, too_big, error=True)
        if parts:
            s.tool("Read", {"file_path": "/repo/server.js", "offset": 1, "limit": 400}, 3, 1, "x")
        sess = session_from_records(tmp_path, s.records, f"big{parts}")
        (lesson,) = RulesJudge().judge(run_all([sess])).lessons
        assert lesson.title == "`server.js` is too large to read whole"
        assert lesson.memory is remembered


def test_arguments_after_a_double_dash_are_not_a_flag_fix() -> None:
    # pattern-stack: `npm test` failed; `npm test -- --testNamePattern=...` ran fewer tests.
    assert fixes.difference(
        "npm test",
        "npm test",
        'npm test -- --testNamePattern="LabelService" --verbose',
        'npm test -- --testNamePattern="LabelService" --verbose',
        sh.OTHER,
    ) == (fixes.OTHER, "")
    # A flag of the invocation itself, before `--`, still is one.
    assert fixes.difference(
        "npm test -- a.test.ts", "", "npm test --silent -- a.test.ts", "", sh.OTHER
    ) == (fixes.FLAGS, "--silent")


def test_a_fix_title_keeps_the_difference_in_sight(tmp_path: Path) -> None:
    # njdamstra: clipped at 60 characters both commands read
    # `~/.local/bin/socialaize-worktree/wt-dispatcher.sh cleanup …`: too long to set side by
    # side, the command is named once and the difference by name.
    script = "~/.local/bin/socialaize-worktree/wt-dispatcher.sh"
    failed, fixed = f"{script} create analytics-ui", f"{script} create analytics-ui --verbose"
    s = Script().bash(failed, 0, 1, 1, "Error: branch analytics-ui not checked out")
    s.bash(fixed, 3, 1)
    (lesson,) = RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons
    assert lesson.title == f"Run `{failed}` with `--verbose`"
    assert lesson.memory
    assert f"`{failed}` failed" in lesson.body and f"`{fixed}` worked" in lesson.body


def test_forcing_past_a_check_is_reported_not_remembered(tmp_path: Path) -> None:
    # njdamstra: "Worktree has uncommitted changes", then the same cleanup with --force.
    s = Script().bash(
        "./cleanup-worktree.sh test-feature-3", 0, 1, 1, "Error: Worktree has uncommitted changes:"
    )
    s.bash("./cleanup-worktree.sh test-feature-3 --force", 2, 1)
    (lesson,) = RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons
    assert not lesson.memory
    assert "forcing past a check (`--force`)" in lesson.body
    assert fixes.overrides("-f -f") and fixes.overrides("--no-verify")
    assert not fixes.overrides("-f compose.yml") and not fixes.overrides("--set-upstream origin x")


def test_two_long_commands_side_by_side_never_read_the_same() -> None:
    from hindsight.judges.fix_lessons import pair

    script = "~/.local/bin/socialaize-worktree/cleanup-worktree.sh"
    a, b = pair(f"{script} test-feature-3", f"{script} test-feature-3 --force", None)
    assert a != b and "--force" in b and "test-feature-3" in a
    assert a == f"`{script} test-feature-3`" and b == f"`{script} test-feature-3 --force`"
    # A long shared middle is elided, never a token cut.
    mid = " ".join(f"--opt{n}=value{n}" for n in range(8))
    a, b = pair(f"tool run {mid} target", f"tool run {mid} target --fix", None)
    assert a.endswith(" … target`") and b.endswith(" … target --fix`")
    words = set(f"tool run {mid} target --fix".split()) | {"…"}
    assert set(a.strip("`").split()) <= words and set(b.strip("`").split()) <= words
    # Short ones stand as typed.
    assert pair("npm test", "npx jest", None) == ("`npm test`", "`npx jest`")


def test_another_subcommand_after_an_ordinary_failure_is_another_job() -> None:
    # A real Codex rollout: `git log` failed on a repository with no commits, and `git remote -v`
    # (another job) worked right after. Only a usage error names the subcommand as the mistake.
    assert fixes.difference(
        "git log --oneline -20", "git log --oneline -20", "git remote -v", "git remote -v", sh.OTHER
    ) == (fixes.OTHER, "")
    assert fixes.difference("git ls-files", "git ls-files", "git init", "git init", sh.OTHER) == (
        fixes.OTHER,
        "",
    )
    assert fixes.difference(
        "git comit -m x", "git comit -m x", "git commit -m x", "", sh.WRONG_INVOCATION
    )[0] in (fixes.SUBCOMMAND,)


def test_the_profile_read_first_is_the_fix(tmp_path: Path) -> None:
    # odgsully: `poetry install` failed "command not found: poetry" (poetry in ~/.local/bin, off
    # the agent shell's PATH); `source ~/.zshrc && poetry install` worked. The step is the same.
    assert fixes.difference(
        "poetry install",
        "poetry install",
        "poetry install",
        "source ~/.zshrc && poetry install",
        sh.MISSING_DEPENDENCY,
    ) == (fixes.SETUP, "source ~/.zshrc")
    # Already there in the failing line: nothing differed.
    line = "source ~/.zshrc && poetry install"
    assert fixes.difference("poetry install", line, "poetry install", line, sh.OTHER)[0] == (
        fixes.SAME
    )
    s = Script().bash("poetry install", 0, 1, 127, "(eval):1: command not found: poetry")
    s.bash("source ~/.zshrc && poetry install", 11, 30)
    (lesson,) = RulesJudge().judge(run_all([session_from_records(tmp_path, s.records)])).lessons
    assert lesson.title == "Run `source ~/.zshrc && poetry install`, not `poetry install`"
    assert lesson.memory


def test_sourcing_a_profile_sets_the_scene() -> None:
    # Nothing names the failing step: the working one is the program after the profile.
    command = "source ~/.zshrc && poetry run adhs-etl --help"
    assert steps.failing(command, "Traceback (most recent call last):") == (
        "poetry run adhs-etl --help",
        True,
    )


def test_a_broken_sibling_script_is_a_verified_fix() -> None:
    # pattern-stack (1.0.x, no exit codes): `npm run test:unit` fails three times with sh's
    # "syntax error near unexpected token `('" (its jest pattern is unquoted); `npm run test`
    # then passes. The shell's syntax error is a wrong invocation, hindsight's reading of it.
    sess = real_session("pattern-stack+task-patterns", "263940d8")
    lessons = RulesJudge().judge(run_all([sess])).lessons
    (lesson,) = [x for x in lessons if x.title == "Run `npm run test`, not `npm run test:unit`"]
    assert lesson.memory and lesson.kind == "fix"
    assert lesson.body == (
        "`npm run test:unit` failed 2 times (no exit code, wrong invocation); `npm run test` "
        "worked right after."
    )
    assert "syntax" not in lesson.body  # the shell's words stay the report's


def test_another_git_job_never_fixes_a_failed_one(tmp_path: Path) -> None:
    # RaggioS: `git remote add upstream` failed ("already exists"); a later `git remote -v` is
    # no fix of it, though both are git's: the failure stays unresolved, named by its step.
    s = Script().bash(
        "echo '=== clone ===' && git remote add upstream https://github.com/o/jcode.git",
        0,
        1,
        3,
        "error: remote upstream already exists.",
    )
    s.bash("git remote -v", 20, 1)
    found = run_all([session_from_records(tmp_path, s.records)])
    assert "failed_then_fixed" not in {f.kind for f in found}
    (lesson,) = [x for x in RulesJudge().judge(found).lessons if x.kind == "trap"]
    assert (
        lesson.title
        == "`git remote add upstream https://github.com/o/jcode.git` fails here (failure)"
    )
