"""hindsight doctor: is everything in place for hindsight to work here? One line a check; each
problem says what is wrong and how to fix it, and makes the exit status 1."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from hindsight import claude_settings, clock, config, fsutil, layout, state
from hindsight.context import CLAUDE, Context
from hindsight.errors import HindsightError
from hindsight.output import print_json

# What Claude Code loads of MEMORY.md at the start of a session (DESIGN.md).
LOADED_LINES = 200
LOADED_BYTES = 25 * 1024
CLEANUP_DEFAULT_DAYS = 30  # Claude Code deletes transcripts older than this (cleanupPeriodDays)
CLEANUP_MARGIN_DAYS = 3  # warn this long before a session not yet read would go


class Report:
    def __init__(self) -> None:
        self.checks: list[dict[str, str]] = []

    def ok(self, what: str) -> None:
        self.checks.append({"status": "ok", "line": what})

    def note(self, what: str) -> None:
        self.checks.append({"status": "note", "line": what})

    def problem(self, what: str, fix: str) -> None:
        self.checks.append({"status": "problem", "line": f"{what}; fix: {fix}"})

    @property
    def failed(self) -> bool:
        return any(c["status"] == "problem" for c in self.checks)


def run(args: argparse.Namespace) -> int:
    ctx = Context.from_args(args)
    report = Report()
    # Found without Context.claude_home, which refuses a missing --claude-home outright.
    home = ctx.home(CLAUDE)
    settings = _settings_files(home, ctx)
    for check in CHECKS:
        if check not in (check_config, check_home) and not home.is_dir():
            break  # check_home said so; nothing else can be looked at
        try:
            check(ctx, settings, report)
        except HindsightError as exc:  # its message is the whole story, the fix included
            report.checks.append({"status": "problem", "line": str(exc)})
    if args.json:
        print_json({"ok": not report.failed, "checks": report.checks})
    else:
        for c in report.checks:
            print(f"{c['status']:<8} {c['line']}")
    return 1 if report.failed else 0


def _settings_files(home: Path, ctx: Context) -> dict[str, Path]:
    """scope -> settings.json; project scopes only where the repository is found."""
    files = {"user": home / "settings.json"}
    try:
        root = ctx.repo.root
    except HindsightError:
        return files
    files["project"] = root / ".claude" / "settings.json"
    files["local"] = root / ".claude" / "settings.local.json"
    return files


def _load(path: Path) -> dict[str, Any]:
    return claude_settings.load(path)[1]


def check_config(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    values = config.load(ctx.repo_arg)
    if not values.enabled:
        report.note(values.off_line())
    files = sorted({str(p) for p in values.sources.values()})
    report.ok(f"configuration: {', '.join(files) if files else 'none (built-in defaults)'}")


def check_home(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    home = settings["user"].parent
    if not home.is_dir():
        report.problem(
            f"Claude home {home} does not exist",
            "run Claude Code once, or point --claude-home / $CLAUDE_CONFIG_DIR at it",
        )
        return
    report.ok(f"Claude home: {home}")
    try:
        root = ctx.repo.root
    except HindsightError as exc:
        report.problem(str(exc), "run doctor inside a git repository or pass --repo DIR")
        return
    memory = ctx.memory_dir
    if memory.is_dir():
        report.ok(f"memory folder: {memory}")
    else:
        report.note(
            f"memory folder {memory} not made yet (the first run with a session of {root} makes it)"
        )


def check_hook(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    hooks: list[tuple[Path, str]] = []
    plugins: list[tuple[Path, str]] = []
    for path in settings.values():
        doc = _load(path)
        hooks += [(path, str(h.get("command"))) for _, h in claude_settings.session_end_hooks(doc)]
        enabled = doc.get("enabledPlugins")
        if isinstance(enabled, dict):
            plugins += [(path, p) for p, on in enabled.items() if p.startswith("hindsight@") and on]
    for path, command in hooks:
        program = (shlex.split(command) or [""])[0]
        if program and "/" in program and not Path(program).exists():
            report.problem(
                f"the SessionEnd hook in {path} runs {program}, which no longer exists",
                "run `hindsight uninstall` then `hindsight install --hook` with the hindsight you use now",
            )
        else:
            report.ok(f"SessionEnd hook: {path}")
    for path, plugin in plugins:
        report.ok(f"plugin {plugin} enabled in {path}")
    if not hooks and not plugins:
        report.problem(
            "no SessionEnd hook and no hindsight plugin: nothing runs hindsight when a session ends",
            "run `hindsight install --hook`, or install the plugin (`claude plugin install hindsight@hindsight`)",
        )
    elif hooks and plugins:
        report.problem(
            "both the SessionEnd hook and the plugin run hindsight: every session is read twice",
            "keep one: `hindsight uninstall` removes the hook and the plugin, then install one again",
        )
    elif (files := len({path for path, _ in hooks})) > 1:
        report.problem(
            f"SessionEnd hooks in {files} settings files run hindsight: "
            "every session end starts a run for each",
            "keep one: `hindsight uninstall --scope project` (or `--scope user`) removes one",
        )


def check_skill(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    shipped = resources.files("hindsight").joinpath("skill/SKILL.md").read_bytes()
    places = [ctx.claude_home / "skills" / "hindsight" / "SKILL.md"]
    if "project" in settings:
        places.append(settings["project"].parent / "skills" / "hindsight" / "SKILL.md")
    found = False
    for path in places:
        text = fsutil.read_bytes(path)
        if text is None:
            continue
        found = True
        if text == shipped:
            report.ok(f"skill: {path}")
        else:
            report.problem(
                f"the skill at {path} differs from this hindsight's",
                "run `hindsight install --skill` (with --scope project for the repository's copy)",
            )
    if not found:
        report.note(
            "no /hindsight skill installed (`hindsight install --skill`, or the plugin, brings it)"
        )


def check_cleanup(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    days: Any = CLEANUP_DEFAULT_DAYS
    source = "Claude Code's default"
    for path in settings.values():  # user, then project, then local: the later wins
        doc = _load(path)
        if "cleanupPeriodDays" in doc:
            days, source = doc["cleanupPeriodDays"], str(path)
    if type(days) is not int or days < 0:
        report.problem(
            f"cleanupPeriodDays in {source} is {days!r}, not a number of days",
            "set it to a whole number such as 30",
        )
        return
    if days < 7:
        report.problem(
            f"Claude Code deletes transcripts after {days} days (cleanupPeriodDays in {source}): "
            "sessions may go before hindsight reads them",
            "set cleanupPeriodDays to 30 or more in settings.json",
        )
        return
    last = _last_scan(ctx)
    if last is not None:
        age = clock.now() - last
        if age > timedelta(days=days - CLEANUP_MARGIN_DAYS):
            report.problem(
                f"hindsight last read sessions {age.days} days ago and Claude Code deletes "
                f"transcripts after {days} days (cleanupPeriodDays in {source})",
                "run `hindsight run` now, and install the hook so it runs after every session",
            )
            return
    report.ok(f"transcripts are kept {days} days (cleanupPeriodDays: {source})")


def _last_scan(ctx: Context) -> Any:
    try:
        return state.load(ctx.memory_dir).last_scan
    except HindsightError:
        return None


def check_memory_size(ctx: Context, settings: dict[str, Path], report: Report) -> None:
    try:
        path = layout.memory(ctx.memory_dir)
    except HindsightError:
        return
    data = fsutil.read_bytes(path)
    if data is None:
        return
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    end = data.find(b"<!-- hindsight:end -->")
    if lines > LOADED_LINES or len(data) > LOADED_BYTES:
        where = (
            "the hindsight block is past that"
            if end >= 0 and (data.count(b"\n", 0, end) >= LOADED_LINES or end > LOADED_BYTES)
            else "the rest is never seen"
        )
        report.problem(
            f"{path} has {lines} lines and {len(data)} bytes; Claude Code loads the first "
            f"{LOADED_LINES} lines or {LOADED_BYTES} bytes: {where}",
            "move long notes into other files MEMORY.md links to, or `hindsight memory prune`",
        )
        return
    report.ok(
        f"MEMORY.md: {lines} lines, {len(data)} bytes (Claude Code loads {LOADED_LINES} lines / {LOADED_BYTES} bytes)"
    )


CHECKS: list[Callable[[Context, dict[str, Path], Report], None]] = [
    check_config,
    check_home,
    check_hook,
    check_skill,
    check_cleanup,
    check_memory_size,
]
