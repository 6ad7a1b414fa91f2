"""argparse, one subparser per command, nothing else; each verb lives in hindsight.commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hindsight import __version__

if TYPE_CHECKING:
    _Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

PROG = "hindsight"

DESCRIPTION = """\
hindsight reads your coding agent's previous session transcripts, finds the lessons worth keeping
(failed commands and the fix that worked, traps, slow paths, long searches, unfinished work) and
keeps the strongest in a small capped block of MEMORY.md that the next session loads."""

EPILOG = """\
examples:
  hindsight run                      read new sessions of this repo, write report + memory
  hindsight scan --since 7d          list the transcripts a run would read (writes nothing)
  hindsight memory show              print the hindsight block of MEMORY.md
  hindsight status                   where the files live, the watermark, the last run
  hindsight review                   accept or refuse the lessons that wait for you (a terminal)
  hindsight scrub --dry-run          secrets older versions wrote, redacted in place
  hindsight <command> --help         options and examples of one command

Every command takes --repo DIR, --claude-home/--codex-home/--gemini-home DIR and --memory-dir DIR
after its name.
Exit status: 0 success, 1 error (one line on stderr, nothing half-written), 2 bad usage."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help layout, with the terminal width found without importing shutil.

    argparse makes a formatter for every argument it adds (to check it), and each one asks
    shutil for the terminal size: importing shutil (and with it bz2, lzma, zlib) costs ~2.5 ms
    of every run, help or not. Same rule as shutil.get_terminal_size: $COLUMNS, else the
    terminal of stdout, else 80.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
        **kwargs: Any,
    ) -> None:
        width = width or _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width, **kwargs)


def _columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _common(inner: bool = False) -> argparse.ArgumentParser:
    """The where-options. ``inner``: for an action under a command (``memory --repo X add``),
    where an option not given must not reset the value given before the action: argparse
    lets a subparser's defaults overwrite its parent's values, so there are none."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("where")

    def default(value: str | None) -> str | None:
        return argparse.SUPPRESS if inner else value

    group.add_argument(
        "--repo",
        metavar="DIR",
        default=default("."),
        help="repository or any folder in it (default: .)",
    )
    from hindsight.sources import AGENTS  # the registry module alone: no reader is imported

    for agent in AGENTS.values():
        env = f"${agent.env}" + (f"/{agent.env_subdir}" if agent.env_subdir else "")
        group.add_argument(
            f"--{agent.option}-home",
            metavar="DIR",
            default=default(None),
            help=f"{agent.name} home (default: {env}, else ~/{agent.default_home})",
        )
    group.add_argument(
        "--memory-dir",
        metavar="DIR",
        default=default(None),
        help="folder of MEMORY.md (default: Claude Code's auto-memory folder of the main repo root)",
    )
    return common


def _target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--target",
        choices=("claude", "agents-md", "gemini-md", "all"),
        default="claude",
        metavar="TARGET",
        help="which memory: claude (MEMORY.md, default), agents-md (the repo's AGENTS.md), "
        "gemini-md (the repo's GEMINI.md), all",
    )


def _since(text: str) -> str:
    """--since checked when parsed, so a bad value is a usage error (exit 2)."""
    from hindsight import clock, discover
    from hindsight.errors import HindsightError

    try:
        discover.parse_since(text, clock.now())
    except HindsightError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix(f"--since {text!r}: ")) from None
    return text


def _positive_bytes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of bytes") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _add(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help_text: str,
    examples: str,
    common: argparse.ArgumentParser,
    *,
    module: str | None = None,
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        name,
        help=help_text,
        description=help_text,
        epilog="examples:\n" + examples,
        formatter_class=_Formatter,
        parents=[common],
    )
    parser.set_defaults(_module=module or name)
    return parser


def _cap(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-bytes",
        type=_positive_bytes,
        default=6144,
        metavar="N",
        help="cap of the block, markers included (default: 6144)",
    )


def _window(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--since",
        metavar="WHEN",
        type=_since,
        help="read sessions changed since 3d, 12h, 90m or an ISO date, instead of the watermark",
    )


def _judge_name(text: str) -> str:
    from hindsight import judges
    from hindsight.errors import HindsightError

    try:
        return judges.choice(text)
    except HindsightError as exc:
        # argparse checks the default too: a bad $HINDSIGHT_JUDGE is no flag the user typed.
        where = f"(from ${judges.JUDGE_ENV}) " if text == os.environ.get(judges.JUDGE_ENV) else ""
        raise argparse.ArgumentTypeError(f"{where}{exc}") from None


def _judging(parser: argparse.ArgumentParser) -> None:
    """--judge and its settings, from the judges' registry (the hook passes them to its run)."""
    from hindsight import judges

    group = parser.add_argument_group("judge")
    group.add_argument(
        "--judge",
        type=_judge_name,
        default=judges.default_name(),
        metavar="NAME",
        help="who judges the evidence (default: rules, or $HINDSIGHT_JUDGE): "
        + "; ".join(f"{name}: {spec.help}" for name, spec in judges.JUDGES.items()),
    )
    group.add_argument(
        "--model", metavar="NAME", help="the model a model judge asks (default: per judge)"
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        help="the server of the anthropic or openai judge, e.g. http://127.0.0.1:11434/v1",
    )
    group.add_argument(
        "--max-input-bytes",
        type=_positive_bytes,
        default=judges.DEFAULT_MAX_INPUT_BYTES,
        metavar="N",
        help="what a model judge may be sent in a run, instructions included "
        f"(default: {judges.DEFAULT_MAX_INPUT_BYTES}); the digest is cut to fit",
    )


def _cmd_run(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "run",
        "read new sessions, judge them, write the report and memory, advance the watermark",
        "  hindsight run\n  hindsight run --since 30d --dry-run\n  hindsight run --json --quiet\n"
        "  hindsight run --example           the shipped example sessions, in a temp folder\n"
        "  hindsight run --judge anthropic --dry-run   what the model would be sent, and its size\n"
        "  hindsight run --judge openai --base-url http://127.0.0.1:11434/v1 --model qwen3\n",
        common,
    )
    _window(p)
    _target(p)
    _judging(p)
    p.add_argument(
        "--dry-run", action="store_true", help="write nothing; print what would be written"
    )
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    p.add_argument("--quiet", action="store_true", help="print only errors")
    p.add_argument(
        "--max-new",
        type=_positive_bytes,
        default=5,
        metavar="N",
        help="new memory entries a run may add at most (default: 5); the rest go to the report",
    )
    p.add_argument(
        "--example",
        action="store_true",
        help="run on the shipped example sessions (a temporary repo) instead of this repo's",
    )


def _cmd_scan(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "scan",
        "list the transcripts a run would read, with their counts; writes nothing",
        "  hindsight scan\n  hindsight scan --since 7d --json\n",
        common,
    )
    _window(p)
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _cmd_digest(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "digest",
        "print the evidence of pending sessions for a model judge",
        "  hindsight digest > evidence.md\n  hindsight digest --max-bytes 30000 --json\n",
        common,
    )
    _window(p)
    p.add_argument(
        "--max-bytes",
        type=_positive_bytes,
        default=60_000,
        metavar="N",
        help="byte budget of the digest (default: 60000)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _cmd_apply(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "apply",
        "write the report and memory from a judge's lessons JSON",
        "  hindsight apply lessons.json\n  hindsight apply - < lessons.json\n",
        common,
    )
    p.add_argument(
        "lessons",
        metavar="LESSONS.json",
        help="the judge's JSON (per 'hindsight schema'), or - for stdin",
    )
    _target(p)
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    p.add_argument(
        "--max-new",
        type=_positive_bytes,
        default=5,
        metavar="N",
        help="new memory entries at most (default: 5), counting only lessons that pass the guard",
    )


def _cmd_commit(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    _add(
        sub,
        "commit",
        "advance the watermark to the start of the last scan",
        "  hindsight commit\n",
        common,
    )


def _cmd_memory(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "memory",
        "show, add to, prune or check the hindsight block of MEMORY.md",
        "  hindsight memory show\n"
        "  hindsight memory add --title '`make test` has no target; use `make check`' "
        "--body 'The Makefile defines check only.' --kind fix\n"
        "  hindsight memory prune --max-bytes 4096\n  hindsight memory check\n",
        common,
    )
    msub = p.add_subparsers(dest="action", metavar="<action>", required=True)
    inner = _common(inner=True)
    m = _add(
        msub,
        "show",
        "print the entries of the block, newest first",
        "  hindsight memory show --json\n",
        inner,
        module="memory",
    )
    m.add_argument("--json", action="store_true", help="print one JSON document")
    _target(m)
    m = _add(
        msub,
        "add",
        "add one entry on top; refuses a duplicate title, prunes to the cap",
        "  hindsight memory add --title 'Tests need PGHOST=/tmp' --body 'Set it before pytest.' --kind fix\n",
        inner,
        module="memory",
    )
    m.add_argument("--title", required=True, help="short and specific: it is the dedup key")
    m.add_argument("--body", required=True, help="one or two sentences")
    m.add_argument(
        "--kind",
        default="trap",
        choices=(
            "trap",
            "fix",
            "slow",
            "search",
            "preference",
            "decision",
            "reference",
            "unfinished",
        ),
        help="default: trap",
    )
    _cap(m)
    _target(m)
    m = _add(
        msub,
        "prune",
        "move the oldest entries to MEMORY.archive.md until the block fits the cap",
        "  hindsight memory prune --max-bytes 4096\n",
        inner,
        module="memory",
    )
    _cap(m)
    _target(m)
    m = _add(
        msub,
        "list",
        "every lesson hindsight knows, with its id, state and kind",
        "  hindsight memory list\n  hindsight memory list --state waiting --json\n",
        inner,
        module="memory",
    )
    m.add_argument(
        "--state",
        choices=("memory", "waiting", "report", "archived", "removed", "forgotten", "stale"),
        help="only the lessons in this state",
    )
    m.add_argument("--json", action="store_true", help="print one JSON document")
    for action, text, example in (
        (
            "remove",
            "take a lesson out of memory now (every target); it may come back on new evidence",
            "  hindsight memory remove 3f9a12c0\n  hindsight memory remove '`make test` has no target'\n",
        ),
        (
            "forget",
            "take a lesson out of memory for good, whatever later sessions show",
            "  hindsight memory forget 3f9a12c0\n",
        ),
        (
            "promote",
            "put a lesson of the report or the review inbox into memory, as your choice",
            "  hindsight memory promote 3f9a12c0\n",
        ),
    ):
        m = _add(msub, action, text, example, inner, module="memory")
        m.add_argument("lesson", metavar="TITLE|ID", help="a lesson's id (memory list) or title")
        if action == "promote":
            _cap(m)
    m = _add(
        msub,
        "check",
        "validate the block; exit 1 listing what is wrong",
        "  hindsight memory check\n",
        inner,
        module="memory",
    )
    _cap(m)
    _target(m)


def _cmd_schema(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    _add(
        sub,
        "schema",
        "print the JSON schema of the lessons every judge returns",
        "  hindsight schema\n",
        common,
    )


def _cmd_install(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "install",
        "install the Claude Code skill and/or the SessionEnd hook",
        "  hindsight install --skill\n  hindsight install --hook --scope project\n"
        "  hindsight install --hook --judge claude   each session's end judged by claude -p\n",
        common,
    )
    p.add_argument("--skill", action="store_true", help="write the skill to the skills folder")
    p.add_argument("--hook", action="store_true", help="add a SessionEnd hook to the settings file")
    p.add_argument("--scope", choices=("user", "project"), default="user", help="default: user")
    group = p.add_argument_group(
        "the hook's judge (default: none written; the run then uses rules)"
    )
    group.add_argument("--judge", type=_judge_name, metavar="NAME", help="written into the hook")
    group.add_argument("--model", metavar="NAME", help="written into the hook, with --judge")
    group.add_argument("--base-url", metavar="URL", help="written into the hook, with --judge")


def _cmd_hook(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "hook",
        "entry point for agent hooks (reads the hook JSON on stdin)",
        "  hindsight hook session-end < hook.json\n",
        common,
    )
    p.add_argument(
        "event",
        choices=("session-end", "run-logged"),
        help="session-end (run-logged is the detached run it starts)",
    )
    _judging(p)


def _cmd_status(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "status",
        "where memory, archive, reports and state live; the watermark; the last run",
        "  hindsight status\n  hindsight status --json\n",
        common,
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _cmd_review(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "review",
        "answer for each lesson that waits for you (accept, edit, reject, forget, skip), on a "
        "terminal only; --json lists them and changes nothing",
        "  hindsight review                  in your terminal: one answer a line (a e r f s q)\n"
        "  hindsight review --json           what waits, with why; changes nothing\n",
        common,
    )
    p.add_argument(
        "--json", action="store_true", help="list what waits as one JSON document; change nothing"
    )


def _cmd_scrub(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "scrub",
        "redact secrets that earlier versions wrote (memory block, archive, reports, state, hook log)",
        "  hindsight scrub --dry-run\n  hindsight scrub\n  hindsight scrub --json\n",
        common,
    )
    p.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _cmd_selfcheck(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    _add(
        sub,
        "selfcheck",
        "check the memory store's guarantees in a temporary folder",
        "  hindsight selfcheck\n",
        common,
    )


def _cmd_doctor(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "doctor",
        "check the Claude home, memory folder, hook, skill, plugin, transcript clean-up and the "
        "size of MEMORY.md; exit 1 with one line for each problem and its fix",
        "  hindsight doctor\n  hindsight doctor --json\n",
        common,
    )
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _cmd_uninstall(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "uninstall",
        "remove the hook, the skill and the plugin that install or the plugin added, nothing else",
        "  hindsight uninstall\n  hindsight uninstall --scope project\n",
        common,
    )
    p.add_argument("--scope", choices=("user", "project"), default="user", help="default: user")


def _cmd_completion(sub: _Subparsers, common: argparse.ArgumentParser) -> None:
    p = _add(
        sub,
        "completion",
        "print a shell completion script for bash, zsh or fish",
        '  eval "$(hindsight completion bash)"             in ~/.bashrc\n'
        '  hindsight completion zsh > "${fpath[1]}/_hindsight"\n'
        "  hindsight completion fish > ~/.config/fish/completions/hindsight.fish\n",
        common,
    )
    p.add_argument("shell", choices=("bash", "zsh", "fish"))


_COMMANDS: dict[str, Callable[[_Subparsers, argparse.ArgumentParser], None]] = {
    "run": _cmd_run,
    "scan": _cmd_scan,
    "digest": _cmd_digest,
    "apply": _cmd_apply,
    "commit": _cmd_commit,
    "memory": _cmd_memory,
    "schema": _cmd_schema,
    "install": _cmd_install,
    "hook": _cmd_hook,
    "status": _cmd_status,
    "review": _cmd_review,
    "scrub": _cmd_scrub,
    "selfcheck": _cmd_selfcheck,
    "doctor": _cmd_doctor,
    "uninstall": _cmd_uninstall,
    "completion": _cmd_completion,
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``only`` the one command's: building every subcommand's parser
    costs ~5 ms, a fair part of a hook run's start-up, and parses ``only ...`` the same."""
    parser = argparse.ArgumentParser(
        prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=_Formatter
    )
    parser.add_argument("--version", action="version", version=f"hindsight {__version__}")
    common = _common()
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for name, add in _COMMANDS.items():
        if only is None or name == only:
            add(sub, common)
    return parser


# Commands that read no configuration: doctor reports a broken file instead of failing on it.
_NO_CONFIG = ("completion", "doctor", "schema", "selfcheck")


def _configure(args: argparse.Namespace, argv: list[str]) -> int | None:
    """The configuration files under the flags (config.py); an exit code where they say stop."""
    from hindsight import config

    settings = config.load(args.repo)
    if settings.values:
        config.apply(args, settings, config.given(build_parser(args.command), argv))
    if args._module == "run" and not settings.enabled and not args.example:
        print(f"hindsight: {settings.off_line()}; nothing read", file=sys.stderr)
        return 0
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    from hindsight.errors import HindsightError

    try:
        if args._module not in _NO_CONFIG:
            stop = _configure(args, argv)
            if stop is not None:
                return stop
        module = importlib.import_module(f"hindsight.commands.{args._module}")
        code: int = module.run(args)
        sys.stdout.flush()  # an unwritable stdout fails here, as an error, not in silence
        return code
    except HindsightError as exc:
        from hindsight.redact import redact

        print(f"hindsight: error: {redact(str(exc))}", file=sys.stderr)
        return 1

    except KeyboardInterrupt:
        print("hindsight: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # Not a bug of ours: the system refused (stdout full, a temp file, a folder).
        where = f": {exc.filename}" if exc.filename else ""
        print(f"hindsight: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    except Exception as exc:
        if os.environ.get("HINDSIGHT_DEBUG"):
            raise
        print(
            f"hindsight: internal error: {type(exc).__name__}: {exc} (rerun with HINDSIGHT_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 1


def entry() -> None:
    """The console script: ``main``, then an exit that skips tearing the interpreter down.

    Freeing a run's objects one by one at exit costs ~13 ms on a 100 MB history, and nothing is
    left to do then: every file hindsight writes is closed and fsynced by the time ``main``
    returns, no atexit hook is registered, and the lock goes with the process's descriptors.
    """
    code = main()
    if _watched():
        sys.exit(code)  # a profiler or coverage is watching: let it write its results at exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass
    os._exit(code)


def _watched() -> bool:
    """Whether a tracer, profiler or coverage tool runs in this process."""
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    # Python 3.12+: cProfile and coverage may use sys.monitoring instead (tool ids 0 to 5).
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(monitoring.get_tool(i) for i in range(6))


if __name__ == "__main__":
    entry()
