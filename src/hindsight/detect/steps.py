"""The steps of a shell command line (``a && b | c; d``) and which of them failed.

A chain's exit code belongs to whichever step stopped it, so blaming its first program (what a
command's "job" used to be) names the wrong tool: ``echo "" >> f.py && uv run ruff check`` failed
in ruff, not in echo. The failing step is the one its error output names; where the output names
none and more than one step could have failed, it is unknown, and nothing may claim it.
"""

from __future__ import annotations

import functools
import os
import re

from hindsight.detect import shell

# Steps that set the scene rather than do the job: never the one a lesson is about, unless the
# output says they failed (``cd: foo: No such file or directory``).
SCENE = frozenset(
    {"cd", "echo", "printf", "sleep", "true", ":", "export", "set", "pwd", "clear", "source", "."}
)
_OPERATORS = ("&&", "||", ";", "|")


@functools.lru_cache(maxsize=4096)
def split(command: str) -> tuple[str, ...]:
    """The steps of a command line, split at ``&&``, ``||``, ``;``, ``|`` and newlines outside
    quotes; a heredoc's body stays with its step."""
    out: list[str] = []
    current: list[str] = []
    quote = ""
    i = 0
    heredoc = False
    while i < len(command):
        ch = command[i]
        if quote:
            if ch == "\\" and quote == '"' and i + 1 < len(command):
                current.append(command[i : i + 2])
                i += 2
                continue
            if ch == quote:
                quote = ""
            current.append(ch)
            i += 1
            continue
        if ch in "'\"":
            quote = ch
            current.append(ch)
            i += 1
            continue
        if command.startswith("<<", i):
            heredoc = True
        if heredoc:  # a heredoc runs to the end: its body is data, not more steps
            current.append(command[i:])
            break
        operator = next((op for op in _OPERATORS if command.startswith(op, i)), None)
        if operator or ch == "\n":
            out.append("".join(current))
            current = []
            i += len(operator) if operator else 1
            continue
        current.append(ch)
        i += 1
    out.append("".join(current))
    return tuple(s.strip() for s in out if s.strip() and not s.strip().startswith("#"))


_BARE_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=(?:\$\([^)]*\)|\S*)")


def main_step(command: str) -> str:
    """The step of a chain that does its work: the first that is no scene-setting (`cd`,
    `export`, `echo "=== x ==="`) and no bare assignment (`t0=$(date +%s)`); the command
    itself when none is."""
    for step in split(command):
        if _BARE_ASSIGNMENT.fullmatch(step):
            continue  # `t0=$(date +%s)`, `X=1`
        program = program_of(step)
        if program and program not in SCENE:
            return step
    return command


def program_of(step: str) -> str:
    words = shell.split(step)
    while words and (shell._ASSIGN.match(words[0]) or words[0] in shell._PREFIX):
        words = words[1:]
    return words[0].rsplit("/", 1)[-1] if words else ""


# Error lines that name their program without saying its name.
_SIGNED = {
    "git": re.compile(r"^(?:fatal|error): ", re.M),
    "npm": re.compile(r"^npm (?:ERR!|error) ", re.M),
    "pnpm": re.compile(r"^(?:ERR_PNPM_|\u2009ERR_PNPM)", re.M),
    "cargo": re.compile(r"^error(?:\[E\d+\])?: ", re.M),
    "python": re.compile(r"^Traceback \(most recent call last\):", re.M),
}


_QUOTED = re.compile(r"'([^'\s]+)'")


def _named_by(step: str, output: str, error: str) -> bool:
    """Whether the error output names this step's program as the one that failed."""
    words = [w for w in shell.split(step) if not shell._ASSIGN.match(w)]
    while words and words[0] in shell._PREFIX:
        words = words[1:]
    if not words:
        return False
    path = words[0]
    name = path.rsplit("/", 1)[-1]
    if shell.missing_program(output) in (name, path):
        return True
    head = "\n".join(ln.strip() for ln in output.splitlines()[:12])
    for candidate in {path, name}:
        if error.startswith(f"{candidate}:") or re.search(
            # bash "sh: line 1: cd: x: No such file", zsh "zsh:cd:1: no such file" and "(eval):cd:1:"
            rf"^(?:\S*sh: (?:line \d+: )?|\S*sh:|\(eval\):)?{re.escape(candidate)}:",
            head,
            re.M,
        ):
            return True
    return False


_WORD = re.compile(r"[A-Za-z][\w.-]{2,}")


def _most_named(owners: list[str], error: str) -> list[str]:
    """The one step whose arguments the error line names most (two words at least), or none."""
    said = {w.casefold() for w in _WORD.findall(error)}
    scores = [
        (len(said & {w.casefold() for w in shell.split(s)[1:] if not w.startswith("-")}), s)
        for s in owners
    ]
    best = max((n for n, _ in scores), default=0)
    top = [s for n, s in scores if n == best]
    return top if best >= 2 and len(top) == 1 else []


@functools.lru_cache(maxsize=4096)
def failing(command: str, output: str) -> tuple[str, bool]:
    """(the step that failed, whether that is known). Known when the error output names it, or when
    only one step does real work; else the first working step, unknown."""
    steps = split(command)
    if not steps:
        return command, False
    error = shell.error_line(output)
    named = [s for s in steps if _named_by(s, output, error)]
    if not named:
        for prog, signed in _SIGNED.items():
            owners = [s for s in steps if shell.job(s)[0] == prog]
            if len(owners) > 1 and signed.search(output[:4000]):
                # `git add x && git commit`: the step holding what the error quotes ('x').
                quoted = set(_QUOTED.findall(error))
                if quoted:
                    owners = [s for s in owners if quoted & set(shell.split(s)[1:])]
                else:  # "error: remote upstream already exists": the step naming most of it
                    owners = _most_named(owners, error)
            if len(owners) == 1 and signed.search(output[:4000]):
                named = owners
                break
    if len(named) == 1 or (named and len({program_of(s) for s in named}) == 1):
        return named[0], True  # a chain stops at its first failure
    working = [s for s in steps if program_of(s) not in SCENE]
    if len(working) == 1:
        return working[0], True
    if working and len({shell.job(s) for s in working}) == 1:
        # The same job on several targets (`git worktree remove a && git worktree remove b`):
        # which target failed is unknown, the job that failed is not; a chain stops at its first.
        return working[0], True
    return (working or list(steps))[0], False


def cd_dir(command: str) -> str | None:
    """Where a leading ``cd DIR &&`` moved the shell, as typed."""
    steps = split(command)
    if not steps:
        return None
    words = shell.split(steps[0])
    if len(words) == 2 and words[0] == "cd" and len(steps) > 1:
        return words[1]
    return None


def cd_folders(command: str, start: str | None) -> list[str]:
    """The folders a command's own `cd` steps move the shell to, in order, each resolved from
    the one before (``start`` first, the folder the shell stood in); [] when none."""
    if "cd " not in command:
        return []
    here = start or ""
    out: list[str] = []
    for target in cd_dirs(command):
        target = os.path.expanduser(target.strip("'\""))
        here = os.path.normpath(os.path.join(here, target)) if here else target
        out.append(here)
    return out


def cd_dirs(command: str) -> list[str]:
    """Where every ``cd DIR`` (or ``pushd DIR``) step of a command line moves the shell, in
    order, as typed; ``cd_dir`` is the leading one's."""
    out = []
    for step in split(command):
        words = shell.split(step)
        if len(words) >= 2 and words[0] in ("cd", "pushd"):
            target = next((w for w in words[1:] if not w.startswith("-")), None)
            if target:
                out.append(target)
    return out


def jobs(command: str) -> list[tuple[str, str]]:
    """The (program, subcommand) of every step: what a successful line did (its ``cd`` too: a
    failed ``cd sub`` is put right by a ``cd /abs/sub`` that worked)."""
    found = [shell.job(s) for s in split(command)]
    return list(dict.fromkeys(found)) or [shell.job(command)]
