"""What differed between a failing step and the command that then did the job.

A fix is a lesson only when the difference can be named: a runner put in front (``uv run``,
``npx``, ``poetry run``, ``python -m``), a variable or ``sudo`` prefix, the folder it ran from, a
swapped program (``python3``), another subcommand, a flag, or another path after a wrong-path
error. Stripping those for matching would make the fix look like "the same command passed later".
"""

from __future__ import annotations

import re

from hindsight.detect import shell, steps

RUNNER = "runner"
PREFIX = "prefix"
FOLDER = "folder"
PROGRAM = "program"
SUBCOMMAND = "subcommand"
FLAGS = "flags"
PATH = "path"
SETUP = "setup"
SAME = "same"
OTHER = "other"

# Kinds that name the whole difference: a next session can act on them.
NAMED = frozenset({RUNNER, PREFIX, FOLDER, PROGRAM, SUBCOMMAND, FLAGS, PATH, SETUP})

# shell knows the runners that take a subcommand; a module run through python is one too.
_RUNNER_WORDS = shell._RUN_SUB | {("python", "-m"), ("python3", "-m")}
_RUNNER_ONE = shell._RUNNERS


_SUBCOMMAND = re.compile(r"[A-Za-z][\w:.-]{0,39}")
# The failures that can mean the subcommand itself was wrong: usage errors ("is not a git
# command", "No rule to make target") and a missing one ("no such command").
_NO_SUCH_SUBCOMMAND = frozenset({shell.WRONG_INVOCATION, shell.MISSING_DEPENDENCY})
_REDIRECTION = re.compile(r"^(?:\d?>&\d|&>.*|\d?>>?.*|<.*)$")


def _words(step: str) -> list[str]:
    """The words of a step without its redirections (``2>&1``, ``> out.log``)."""
    out: list[str] = []
    skip = False
    for word in shell.split(step):
        if skip:
            skip = False
            continue
        if _REDIRECTION.match(word):
            skip = word in (">", ">>", "1>", "2>", "&>", "<", "1>>", "2>>")
            continue
        out.append(word)
    return out


def _prefix(words: list[str]) -> tuple[list[str], list[str]]:
    """(assignments and sudo/env words in front, the rest)."""
    n = 0
    while n < len(words) and (shell._ASSIGN.match(words[n]) or words[n] in shell._PREFIX):
        n += 1
    return words[:n], words[n:]


def _runner(words: list[str]) -> tuple[list[str], list[str]]:
    """(the runner words in front, the command they run)."""
    if words and words[0] in _RUNNER_ONE:
        return words[:1], words[1:]
    if len(words) >= 2 and (words[0], words[1]) in _RUNNER_WORDS:
        return words[:2], words[2:]
    return [], words


def _passed_through(a: list[str], b: list[str]) -> bool:
    """Whether two steps differ only in the words after ``--`` (handed to the program run)."""
    if "--" not in a and "--" not in b:
        return False
    head_a = a[: a.index("--")] if "--" in a else a
    head_b = b[: b.index("--")] if "--" in b else b
    return head_a == head_b


# Flags that push past a safeguard (uncommitted changes, a hook, a lock) rather than fix the
# invocation: the step passed, but a next session should not learn to force it.
_OVERRIDE = re.compile(r"^(?:--force(?:-[\w-]+)?|--no-verify|--dangerously[\w-]*)$")


def overrides(differs: str) -> bool:
    """Whether a flag difference forces past a check (``--force``, ``--no-verify``; a bare
    ``-f``, with no value after it: ``-f compose.yml`` names a file)."""
    words = differs.split()
    bare = all(w.startswith("-") for w in words)
    return any(_OVERRIDE.match(w) or (bare and re.fullmatch(r"-f+", w)) for w in words)


_SETUP = re.compile(r"^(?:source|\.)\s+\S+$|^export\s+\w+=")


def _setup(step: str, command: str) -> str:
    """The steps of ``command`` before ``step`` that set its shell up (``source ~/.zshrc``,
    ``. venv/bin/activate``, ``export PATH=...``), joined as typed; empty when there are none.
    ``poetry install`` failed "command not found" and ``source ~/.zshrc && poetry install``
    worked: the step is the same, what differed is the profile read first."""
    found: list[str] = []
    for part in steps.split(command):
        if part == step:
            return " && ".join(found)
        if _SETUP.match(part):
            found.append(part)
    return ""


def step_of(command: str, job: tuple[str, str]) -> str:
    """The step of a successful line that did ``job`` (its first working step otherwise)."""
    found = [s for s in steps.split(command) if shell.job(s) == job]
    if not found:
        found = [s for s in steps.split(command) if shell.job(s)[0] == job[0]]
    if found:
        return found[0]
    working = [s for s in steps.split(command) if steps.program_of(s) not in steps.SCENE]
    return working[0] if working else command


_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})


def _sibling_script(a_cmd: list[str], b_cmd: list[str], a_pos: list[str], b_pos: list[str]) -> bool:
    """Whether two steps run sibling scripts of the package (``npm run test:unit`` and ``npm run
    test``): the same runner, the same words after the script, the name before its first ``:``
    the same. A script broken in itself (its shell's syntax error, a program it calls missing)
    and its sibling that passed do the same job; ``npm run dev`` for ``npm run build`` does not."""
    if a_cmd[0] != b_cmd[0] or a_cmd[0] not in _SCRIPT_RUNNERS:
        return False
    if len(a_pos) < 2 or len(b_pos) < 2 or a_pos[0] != "run" or b_pos[0] != "run":
        return False
    a, b = a_pos[1], b_pos[1]
    return a != b and a_pos[2:] == b_pos[2:] and a.split(":")[0] == b.split(":")[0]


def difference(
    failed_step: str, failed_command: str, fix_step: str, fix_command: str, category: str
) -> tuple[str, str]:
    """(kind, what differed, as a short phrase) between a failing step and the step that worked."""
    a_pre, a = _prefix(_words(failed_step))
    b_pre, b = _prefix(_words(fix_step))
    a_run, a_cmd = _runner(a)
    b_run, b_cmd = _runner(b)
    if a_cmd == b_cmd and a_run != b_run:
        return RUNNER, " ".join(b_run) if b_run else "no " + " ".join(a_run)
    if a == b and a_pre != b_pre:
        added = [w for w in b_pre if w not in a_pre]
        return PREFIX, " ".join(added) if added else "no " + " ".join(a_pre)
    if a == b:
        here, there = steps.cd_dir(failed_command), steps.cd_dir(fix_command)
        if there is not None and here != there:
            return FOLDER, there
        setup = _setup(fix_step, fix_command)
        if setup and setup != _setup(failed_step, failed_command):
            return SETUP, setup
        return SAME, ""
    if not a_cmd or not b_cmd:
        return OTHER, ""
    same_args = a_cmd[1:] == b_cmd[1:]
    if same_args and a_cmd[0] != b_cmd[0]:
        return PROGRAM, b_cmd[0]
    if a_cmd[0] != b_cmd[0] and a_cmd[0].rsplit("/", 1)[-1] != b_cmd[0].rsplit("/", 1)[-1]:
        return OTHER, ""
    if _passed_through(a_cmd, b_cmd):
        # `npm test` -> `npm test -- --testNamePattern=X`: what follows `--` goes to the program
        # run (here a test filter that ran fewer tests), not a fix of the invocation.
        return OTHER, ""
    extra = b_cmd[len(a_cmd) :]
    if b_cmd[: len(a_cmd)] == a_cmd and any(w.startswith("-") for w in extra):
        return FLAGS, " ".join(extra)  # `git push` -> `git push --set-upstream origin main`
    a_pos = [w for w in a_cmd[1:] if not w.startswith("-")]
    b_pos = [w for w in b_cmd[1:] if not w.startswith("-")]
    if a_pos == b_pos:
        added = [w for w in b_cmd[1:] if w.startswith("-") and w not in a_cmd[1:]]
        dropped = [w for w in a_cmd[1:] if w.startswith("-") and w not in b_cmd[1:]]
        if added or dropped:
            return FLAGS, " ".join(added + [f"no {w}" for w in dropped])
        return SAME, ""
    # Another named target (``make check`` for ``make test``) where the error said the first one
    # was wrong (no such target, not a git command); a bare ``make`` is another job. After any
    # other failure another subcommand does another job (``git log`` failed on an empty
    # repository, ``git remote -v`` then worked): nothing was put right.
    if a_pos and b_pos and a_pos[0] != b_pos[0] and a_pos[1:] == b_pos[1:]:
        named = all(_SUBCOMMAND.fullmatch(w) for w in (a_pos[0], b_pos[0]))
        first = a_cmd[1] == a_pos[0] and b_cmd[1] == b_pos[0]  # not the value of a flag (-c CODE)
        if named and first and category in _NO_SUCH_SUBCOMMAND:
            return SUBCOMMAND, b_pos[0]
    if _sibling_script(a_cmd, b_cmd, a_pos, b_pos) and category in _NO_SUCH_SUBCOMMAND:
        return SUBCOMMAND, b_pos[1]
    if category == shell.WRONG_PATH and len(a_pos) == len(b_pos):
        return PATH, " ".join(w for w in b_pos if w not in a_pos)
    return OTHER, ""
