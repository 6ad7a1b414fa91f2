"""What a shell command is for, and what its failure says, for comparing attempts."""

from __future__ import annotations

import functools
import re
import shlex

from hindsight import fmt

_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PREFIX = {"sudo", "env", "time", "command", "nice", "nohup", "exec"}
_RUNNERS = {"npx", "uvx", "pnpx", "bunx"}
_RUN_SUB = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("bundle", "exec"),
    ("pnpm", "exec"),
    ("npm", "exec"),
    ("yarn", "dlx"),
}
_CD = re.compile(r"^\s*cd\s+(?:\"[^\"]*\"|'[^']*'|\S+)\s*(?:&&|;)\s*")


_PLAIN = re.compile(r"[\"'\\]")


@functools.lru_cache(maxsize=4096)
def _split(command: str) -> tuple[str, ...]:
    if not _PLAIN.search(command):
        return tuple(command.split())  # no quoting: shlex would give the same words, 50x slower
    try:
        return tuple(shlex.split(command, comments=False))
    except ValueError:
        return tuple(command.split())


def split(command: str) -> list[str]:
    return list(_split(command))


def strip_noise(command: str) -> str:
    """Drop what does not change the job: ``cd DIR &&``, ``VAR=value``, ``env``, ``sudo``, ``time``."""
    text = command.strip()
    while True:
        new = _CD.sub("", text, count=1)
        if new == text:
            break
        text = new
    words = split(text)
    while words and (
        _ASSIGN.match(words[0])
        or words[0] in _PREFIX
        or (words[0].startswith("-") and words[0] != "-")
    ):
        words = words[1:]
    return " ".join(words)


def first_segment(command: str) -> str:
    """The first command of a pipeline or chain: what decides the exit code most often."""
    return re.split(r"\s*(?:\|\||&&|\||;)\s*", command, maxsplit=1)[0]


@functools.lru_cache(maxsize=4096)
def job(command: str) -> tuple[str, str]:
    """(program, subcommand): ``make test`` -> (make, test); ``python -m pytest -x`` -> (python -m, pytest)."""
    words = split(first_segment(strip_noise(command)))
    if not words:
        return ("", "")
    program = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if program in _RUNNERS and rest:
        program, rest = rest[0], rest[1:]
    elif rest and (program, rest[0]) in _RUN_SUB and len(rest) > 1:
        program, rest = rest[1].rsplit("/", 1)[-1], rest[2:]
    if re.fullmatch(r"python[0-9.]*", program):
        program = "python"
        if len(rest) >= 2 and rest[0] == "-m":
            return ("python -m", rest[1])
    sub = next((w for w in rest if not w.startswith("-")), "")
    if program == "git" and sub in _GIT_GROUPS:
        # `git remote add` and `git remote -v` are two jobs: one never fixes the other.
        after = rest[rest.index(sub) + 1 :]
        verb = after[0] if after else ""
        if re.fullmatch(r"[a-z][a-z-]*", verb):
            sub = f"{sub} {verb}"
    return (program, sub)


# git subcommands whose next word is a subcommand of their own.
_GIT_GROUPS = frozenset(
    {"remote", "worktree", "stash", "submodule", "bisect", "lfs", "notes", "sparse-checkout"}
)


_REDIRECT = re.compile(r"\s*(?:\d?>&\d|&>\s*\S+|\d?>>?\s*\S+|<\s*\S+)")


def short(command: str, limit: int = 60, cwd: str | None = None) -> str:
    """The first command of a chain as typed, noise and redirections dropped, paths made relative
    to ``cwd``, clipped: how titles name a command."""
    text = _REDIRECT.sub("", first_segment(strip_noise(command)))
    if cwd:
        text = text.replace(cwd.rstrip("/") + "/", "")
    return fmt.clip(text, limit)


def swapped_program(failed: str, worked: str) -> tuple[str, str] | None:
    """(python, python3) when two commands differ only in the program that ran."""
    a, b = split(first_segment(strip_noise(failed))), split(first_segment(strip_noise(worked)))
    if len(a) == len(b) and a and a[1:] == b[1:] and a[0] != b[0]:
        return a[0], b[0]
    return None


def missing_program(output: str) -> str | None:
    """``tox`` from ``tox: command not found`` (bash) or ``command not found: tox`` (zsh)."""
    match = re.search(r"command not found: ([\w.+-]+)", output) or re.search(
        r"([\w.+-]+): (?:command )?not found", output
    )
    return match.group(1) if match else None


def program(command: str) -> str:
    return job(command)[0]


@functools.lru_cache(maxsize=4096)
def normalize(command: str) -> str:
    """The command with noise dropped and whitespace folded, for 'the same command again'."""
    return " ".join(strip_noise(command).split())


ERROR_WORDS = _ERROR_WORDS = re.compile(
    r"error|fatal|no such|not found|no module|denied|failed|failure|cannot|can't|unable|invalid|"
    r"unknown|refused|missing|traceback|exception|usage:|no rule|undefined|permission|"
    r"\bblocked\b|prohibited|prevented",
    re.I,
)
_EXC_LINE = re.compile(r"^\s*[\w.]*(?:Error|Exception|Exit)\b.*:")
_NOISE = re.compile(r"^(?:Exit code -?\d+|Error: Exit code -?\d+|\s*)$")


_SHELL_PREFIX = re.compile(r"^(?:/(?:usr/)?bin/)?(?:ba|z|da)?sh: (?:line \d+: )?")


@functools.lru_cache(maxsize=4096)
def error_line(output: str) -> str:
    """The first line of a failure worth quoting (a traceback's last exception line wins)."""
    if len(output) > 6000:  # the head says what failed; a traceback's end says why
        # Cut at line ends: a line cut in half could hold half a secret no pattern knows.
        head, tail = output[:4000], output[-2000:]
        output = head[: head.rfind("\n") + 1] + tail[tail.find("\n") + 1 :]
    return _clip_line(_error_line(output))


def _clip_line(line: str) -> str:
    """Redacted before it is cut to 300 characters, so no half of a secret survives the cut."""
    from hindsight.redact import redact

    return redact(line)[:300]


def _error_line(output: str) -> str:
    lines = [
        _SHELL_PREFIX.sub("", ln.strip()) for ln in output.splitlines() if not _NOISE.match(ln)
    ]
    if not lines:
        return ""
    exceptions = [ln for ln in lines if _EXC_LINE.match(ln)]
    if exceptions and any(ln.startswith("Traceback") for ln in lines):
        return exceptions[-1]
    for n, ln in enumerate(lines):
        if _ERROR_WORDS.search(ln):
            # "Bash operation blocked by hook:" names no reason; the line after it does.
            if ln.endswith(":") and n + 1 < len(lines):
                return f"{ln} {lines[n + 1]}"
            return ln
    return lines[0]


MISSING_DEPENDENCY = "missing dependency"
WRONG_PATH = "wrong path"
AUTH = "authentication unavailable"
WRONG_INVOCATION = "wrong invocation"
OTHER = "failure"

_CLASSES = [
    (
        AUTH,
        re.compile(
            r"\b40[13]\b|permission denied \(publickey|authenticat|unauthori[sz]ed|could not read username|"
            r"invalid credentials|access token|not logged in|login required",
            re.I,
        ),
    ),
    (
        MISSING_DEPENDENCY,
        re.compile(
            r"command not found|no module named|modulenotfounderror|cannot find module|"
            r"not installed|importerror|executable file not found|no such command",
            re.I,
        ),
    ),
    (
        WRONG_INVOCATION,
        re.compile(
            r"no rule to make target|usage:|unknown (?:option|command|flag|target|argument)|"
            r"unrecognized (?:option|argument)|invalid (?:option|choice|argument)|"
            r"is not a \w+ command|no such option|missing required|"
            r"syntax error near unexpected token",
            re.I,
        ),
    ),
    (
        WRONG_PATH,
        re.compile(
            r"no such file|does not exist|file or directory not found|cannot access|not a directory|can't open file|"
            r"cannot find the path|enoent",
            re.I,
        ),
    ),
]


@functools.lru_cache(maxsize=4096)
def classify(exit_code: int | None, output: str) -> str:
    """The kind of failure, judged on the quoted error line first, then the first lines of output."""
    if exit_code == 127:
        return MISSING_DEPENDENCY
    head = [ln for ln in output.splitlines()[:12] if not _NOISE.match(ln)][:6]
    for text in (error_line(output), "\n".join(head)):
        for name, pattern in _CLASSES:
            if pattern.search(text):
                return name
    return OTHER


def similar(a: str, b: str) -> float:
    """Similarity of two commands, 0..1 (difflib's ratio; commands are short)."""
    import difflib

    return difflib.SequenceMatcher(None, a, b).ratio()
