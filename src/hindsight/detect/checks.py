"""How a session ran the repository's checks (tests, build, lint, type check) and shipped
its work (push, deploy, migrations, dev server).

The first thing a new session looks for, and what a CLAUDE.md usually says: `PYTHONPATH=src
python3 -m pytest tests/`, `pnpm build`, `pnpm astro check`. The command is the agent's own,
one step of it (a ``| tail -20`` after it or a ``cd`` before it is not the check); the call
completed and its output does not say the program or its arguments were wrong. Whether the
checks passed is not claimed (a pipe's exit status is its last program's): the lesson says how
the session ran them, for the report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell, steps
from hindsight.detect.streams import main_stream, relative, shell_events, tool_of

# The words that name a check, as a program, a subcommand or a script (`npm run test:unit`).
_KINDS = (
    ("tests", re.compile(r"^(?:test|tests|pytest|jest|vitest|mocha|rspec|phpunit)(?::[\w:-]+)?$")),
    (
        "type check",
        re.compile(r"^(?:tsc|mypy|pyright|typecheck|type-check|py_compile|compileall)$"),
    ),
    (
        "lint",
        re.compile(r"^(?:lint|eslint|ruff|clippy|vet|flake8|pylint|golangci-lint)(?::[\w:-]+)?$"),
    ),
    ("build", re.compile(r"^build(?::[\w:-]+)?$")),
    # How the session shipped and served it: the same record of the agent's own way.
    ("migrations", re.compile(r"^(?:migrate|db:migrate|db:push|migration|upgrade)(?::[\w:-]+)?$")),
    ("deploy", re.compile(r"^deploy(?::[\w:-]+)?$")),
    # Generated code: `npm run update-type`, `prisma generate`, `npm run codegen`.
    (
        "code generation",
        re.compile(r"^(?:generate|codegen|gen|update-types?|gen-types)(?::[\w:-]+)?$"),
    ),
    ("dev server", re.compile(r"^(?:dev|serve)(?::[\w:-]+)?$")),
)
# Ways of pushing that override a check or another's work: never described as the way here.
_FORCED = re.compile(r"\s(?:-f|--force(?:-with-lease)?|--no-verify|-n)(?=\s|$)|\s\+\S")
# Programs that look for a check or its process rather than run it (`pgrep -f "next dev"`).
_LOOKS = frozenset(
    {"test", "[", "pgrep", "pkill", "ps", "kill", "lsof", "which", "type", "man", "ls", "find",
     "grep", "rg", "curl", "wget", "open", "code", "cat", "command"}
)  # fmt: skip
# `cargo check`, `astro check`: a check by its program's word.
_CHECKING = frozenset({"cargo", "astro", "svelte-check", "deno"})
# Steps around the check that are not it: moving, printing, filtering its output.
_AROUND = frozenset(
    {"cd", "echo", "export", "source", "sleep", "tail", "head", "grep", "wc", "sed", "sort",
     "tee", "cat", "true", "less", "awk", "cut", "uniq", "printf", "set"}
)  # fmt: skip
# A selection of one test or file (`-k name`, `file.py::test_x`): this task's, not the way.
_NARROW = re.compile(
    r"::|\s-(?:k|t|run)\s|--(?:grep|testNamePattern|filter)\b|\.(?:test|spec)\.\w+\b"
    r"|(?:\s|/)test_\w+\.py\b|_test\.(?:py|go)\b"
)
# One source file picked out (`ruff check src/a.py`): py_compile's arguments are always files.
_ONE_FILE = re.compile(
    r"\s[\w./-]+\.(?:py|ts|tsx|js|jsx|mjs|go|rs|rb|java|kt|swift|vue|svelte)(?=\s|$)"
)
_REDIRECT = re.compile(r"\s+\d?>&\d\b|\s+\d?>\s*/dev/null\b")
_WRONG = (shell.MISSING_DEPENDENCY, shell.WRONG_INVOCATION, shell.WRONG_PATH)


def kind_of(step: str) -> str | None:
    """Which check (or push, deploy, migration, dev server) a command step runs, or None."""
    words = [w for w in shell.split(shell.strip_noise(step)) if "=" not in w.split("/")[0]]
    if not words or words[0] in _LOOKS:
        return None  # the shell's own `test -f x`, a look for a process or a file
    program, sub = shell.job(step)
    if program == "git":
        # `git push` alone says nothing the next session needs: the remote and branch do.
        named = [w for w in words[2:] if not w.startswith("-")]
        pushes = sub == "push" and named and not _FORCED.search(f" {step} ")
        return "push" if pushes else None
    if words[:3] in (["wrangler", "d1", "execute"], ["supabase", "db", "push"]):
        return "migrations"
    candidates = [(program.split() or [""])[-1], sub, *words[1:4]]
    for name, pattern in _KINDS:
        if any(w and pattern.match(w) for w in candidates):
            return name
    if "check" in words[1:4] and any(w in _CHECKING for w in words[:3]):
        return "type check"
    return None


def _check_step(call: s.ToolCall) -> tuple[str, str] | None:
    """(kind, step) when the call's one step beyond moving and filtering runs a check."""
    command = call.command or ""
    around = [x for x in steps.split(command) if steps.program_of(x) not in _AROUND]
    if len(around) != 1:
        return None
    step = _REDIRECT.sub("", around[0]).strip()
    kind = kind_of(step)
    return None if kind is None or _narrow(step) else (kind, step)


def _narrow(step: str) -> bool:
    """Whether a step picks out one test or one source file: this task's, not the way."""
    padded = f" {step} "
    return bool(_NARROW.search(padded)) or (
        "compile" not in step and _ONE_FILE.search(padded) is not None
    )


def check_commands(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Per session and kind of check, the last way the session ran it, with how often."""
    for sess in sessions:
        last: dict[str, tuple[str, str | None, s.Event]] = {}
        runs: dict[str, int] = {}
        for event in shell_events(main_stream(sess)):
            call = tool_of(event)
            if call.status != s.OK or not call.command:
                continue
            found = _check_step(call) or _local_server(call)
            if found is None or shell.classify(call.exit_code, call.output) in _WRONG:
                continue
            kind, step = found
            folder = _folder(call, sess.cwd)
            last[kind] = (step, folder, event)
            runs[step] = runs.get(step, 0) + 1
        for kind, (step, folder, event) in last.items():
            data: dict[str, object] = {"check": kind, "command": step, "runs": runs[step]}
            if folder:
                data["folder"] = folder
            yield Finding(
                "check_command",
                evidence_key("check", sess.session_id, kind, step, folder or ""),
                sess.session_id,
                [event.at],
                event.ts,
                2,
                data,
            )


# A server of this machine the agent reached (`curl -s http://localhost:3051/api/projects`).
_LOCAL_URL = re.compile(r"https?://(?:localhost|127\.0\.0\.1)(:\d{2,5})?(?:/[^\s'\"`|)<>]*)?")
_FETCHERS = frozenset({"curl", "wget", "http", "https", "xh"})
# What a server that did not answer the request, or no server, looks like.
_NO_ANSWER = re.compile(
    r"\b404\b|Not Found|Cannot (?:GET|POST)|Connection refused|Failed to connect|"
    r"Could not resolve|^curl: |ERR_CONNECTION|Empty reply",
    re.I | re.M,
)


def _local_server(call: s.ToolCall) -> tuple[str, str] | None:
    """("local server :PORT", url) when a call fetched a URL of this machine and was answered:
    which port serves what is the next session's first question."""
    command = call.command or ""
    if "localhost" not in command and "127.0.0.1" not in command:
        return None
    for step in steps.split(command):
        if steps.program_of(step) not in _FETCHERS:
            continue
        hit = _LOCAL_URL.search(step)
        if hit and not _NO_ANSWER.search(call.output[:2000]) and call.output.strip():
            return f"local server {hit.group(1) or ':80'}", hit.group(0).rstrip(".,;")
    return None


def _folder(call: s.ToolCall, root: str | None) -> str | None:
    """The subfolder of the session's the check ran in (the shell's, or the command's own `cd`),
    relative to it; None at the root or outside it."""
    here = call.cwd or root
    moved = steps.cd_folders(call.command or "", here)
    here = moved[-1] if moved else here
    if not here or not root or here == root:
        return None
    inside = relative(here, root)
    if inside == here or inside.startswith(("/", "..")) or ":" in inside:
        return None  # outside the session's folder, or spelled another way (Windows)
    return inside
