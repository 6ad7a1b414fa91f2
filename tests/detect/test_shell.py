from __future__ import annotations

import pytest

from hindsight.detect import shell


@pytest.mark.parametrize(
    ("command", "job"),
    [
        ("make test", ("make", "test")),
        ("cd /repo && FOO=1 sudo time make -j4 check", ("make", "check")),
        ("env PYTHONPATH=src python3 -m pytest -x tests/", ("python -m", "pytest")),
        ("/usr/bin/python3.11 script.py", ("python", "script.py")),
        ("npx eslint --fix .", ("eslint", ".")),
        ("uv run pytest -q", ("pytest", "")),
        ("git push origin main 2>&1 | tail -5", ("git", "push")),
        # git's groups: each of their subcommands is a job of its own.
        ("git remote add upstream https://x/y.git", ("git", "remote add")),
        ("git remote -v", ("git", "remote")),
        ("git worktree remove -f -f a", ("git", "worktree remove")),
        ("git stash pop", ("git", "stash pop")),
        ("", ("", "")),
    ],
)
def test_job(command: str, job: tuple[str, str]) -> None:
    assert shell.job(command) == job


def test_normalize_and_short() -> None:
    assert shell.normalize("cd src &&  GOFLAGS=-x  go   test ./...") == "go test ./..."
    assert shell.short("cd a && make check && make lint") == "make check"
    assert shell.short("python3 -c '" + "x" * 80 + "'", 20).endswith("…")


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (
            "Exit code 2\nmake: *** No rule to make target 'test'.  Stop.",
            "make: *** No rule to make target 'test'.  Stop.",
        ),
        ("Exit code 127\n/bin/bash: line 1: tox: command not found", "tox: command not found"),
        (
            'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad value',
            "ValueError: bad value",
        ),
        ("Exit code 1\nCompiling 4 files\nerror: cannot find symbol", "error: cannot find symbol"),
        ("Exit code 1\nsomething odd", "something odd"),
    ],
)
def test_error_line(output: str, line: str) -> None:
    assert shell.error_line(output) == line


@pytest.mark.parametrize(
    ("code", "output", "category"),
    [
        (127, "tox: command not found", shell.MISSING_DEPENDENCY),
        (1, "ModuleNotFoundError: No module named 'yaml'", shell.MISSING_DEPENDENCY),
        (1, "cat: config.yaml: No such file or directory", shell.WRONG_PATH),
        (128, "git@github.com: Permission denied (publickey).", shell.AUTH),
        (22, "curl: (22) The requested URL returned error: 403", shell.AUTH),
        (2, "make: *** No rule to make target 'test'.  Stop.", shell.WRONG_INVOCATION),
        (2, "usage: tool [-h] {a,b}\ntool: error: invalid choice: 'c'", shell.WRONG_INVOCATION),
        (1, "1 test failed", shell.OTHER),
    ],
)
def test_classify(code: int, output: str, category: str) -> None:
    assert shell.classify(code, output) == category


def test_missing_program() -> None:
    assert shell.missing_program("tox: command not found") == "tox"
    assert shell.missing_program("zsh: command not found: rg") == "rg"
    assert shell.missing_program("all good") is None
