"""A failed command and the one that then worked, as a lesson that names exactly what differed.

Memory takes a fix only when it is verified: the step that failed is known, another command doing
the same job succeeded, what differed between them has a name (a runner, a prefix, a folder, a
program, a subcommand, a flag, a path), and no edit came between them (an edit may have been the
real fix). Everything else is reported, not remembered.
"""

from __future__ import annotations

import re

from hindsight import fmt
from hindsight.detect import Finding, fixes, shell
from hindsight.judges.wording import code, lesson
from hindsight.lessons import Lesson

_NO_TARGET = re.compile(r"No rule to make target '([^']+)'")
_REDIRECT = re.compile(r"\s*(?:\d?>&\d|&>\s*\S+|\d?>>?\s*\S+|<\s*\S+)")


def _plain(step: str, cwd: str | None) -> str:
    text = _REDIRECT.sub("", step)
    if cwd:
        root = cwd.rstrip("/")
        text = text.replace(root + "/", "").replace(root, ".")
    return " ".join(text.split())


def show(step: str, cwd: str | None, limit: int = 60) -> str:
    """A step as the title names it: as typed (runner and prefix kept), redirections dropped,
    paths relative to the session's folder, clipped between words."""
    return code(_plain(step, cwd), limit)


def _around(words: list[str], start: int, limit: int) -> str:
    """The words from ``start`` on, after as many leading words as fit, the rest elided."""
    tail = words[start:]
    head = words[:1]
    while len(head) < start and len(" ".join([*words[: len(head) + 1], "…", *tail])) <= limit:
        head = words[: len(head) + 1]
    return " ".join(head + (["…"] if len(head) < start else []) + tail)


_SIDE = 60  # characters of each command when a title sets two side by side


def pair(failed: str, worked: str, cwd: str | None, limit: int = _SIDE) -> tuple[str, str]:
    """Two steps as a lesson names them side by side. Where clipping would make them read the
    same (a flag added at the end of a long line), the shared middle is elided instead, so the
    difference stays in sight; no token is ever cut."""
    a, b = show(failed, cwd, limit), show(worked, cwd, limit)
    if a != b:
        return a, b
    wa, wb = _plain(failed, cwd).split(), _plain(worked, cwd).split()
    first = next((i for i, (x, y) in enumerate(zip(wa, wb, strict=False)) if x != y), None)
    first = min(len(wa), len(wb)) if first is None else first
    start = max(first - 1, 1)  # one shared word before the difference, for context
    a, b = (code(_around(w, min(start, len(w)), limit), limit) for w in (wa, wb))
    if a != b:
        return a, b
    return code(_plain(failed, cwd), 400), code(_plain(worked, cwd), 400)


def _folder(path: str, cwd: str | None) -> str:
    root = (cwd or "").rstrip("/")
    if root and path.startswith(root + "/"):
        return code(path[len(root) + 1 :])
    return code(path)


def _made_absolute(step: str, fixed_paths: str) -> bool:
    """Whether the fix spelled out, as an absolute path, a relative path of the failing step."""
    relative = [w.strip("./") for w in shell.split(step)[1:] if not w.startswith(("-", "/", "~"))]
    return any(
        p.startswith(("/", "~")) and any(r and p.rstrip("/").endswith("/" + r) for r in relative)
        for p in fixed_paths.split()
    )


def _title(d: dict[str, object], fail: str, fix: str, cwd: str | None, verified: bool) -> str:
    kind, differs, category = d["difference"], str(d["differs"]), d["category"]
    if not verified:  # a report line: say what happened, instruct nothing
        return f"{fail} failed; later {fix} worked"
    error = str(d["error"])
    if kind == fixes.PROGRAM and category == shell.MISSING_DEPENDENCY:
        before = shell.split(str(d["step"]))
        return f"{code(before[0] if before else fail)} is not available here; use {code(differs)}"
    if kind == fixes.SUBCOMMAND and _NO_TARGET.search(error):
        return f"{fail} has no target here; use {fix}"
    if kind == fixes.FOLDER:  # the same step both times: name it once, clipped on its own
        return f"Run {show(str(d.get('fix_step') or d['step']), cwd)} from {_folder(differs, cwd)}"
    if kind == fixes.SETUP:  # the same step, after what set the shell up
        return f"Run {code(differs + ' && ' + _plain(str(d['step']), cwd), 120)}, not {fail}"
    if kind == fixes.PATH:
        if _made_absolute(str(d["step"]), differs):
            # A relative path that resolves once spelled out: the shell was not where it looked.
            whole = show(str(d.get("fix_step") or d["fix_command"]), None)
            return f"Use the absolute path: {whole}, not {fail} (the shell keeps its folder between calls)"
        return f"{fail} fails: wrong path; use {fix}"
    step = str(d["step"])
    fix_step = str(d.get("fix_step") or d["fix_command"])
    if max(len(_plain(step, cwd)), len(_plain(fix_step, cwd))) > _SIDE and differs:
        # Too long to set side by side: the shared command once, and what differed by name.
        whole = show(step, cwd, 100)
        dropped = differs.startswith("no ")
        named = code(differs[3:] if dropped else differs, 40)
        if kind == fixes.FLAGS:
            return f"Run {whole} {'without' if dropped else 'with'} {named}"
        if kind == fixes.RUNNER:
            return f"Run {whole} {'without' if dropped else 'through'} {named}"
        if kind == fixes.PREFIX:
            return f"Run {whole} {'without' if dropped else 'with'} {named} in front"
    return f"Run {fix}, not {fail}"


_LOCKED = re.compile(r"\bcannot remove a locked working tree\b")


def _unlocks(d: dict[str, object]) -> bool:
    """Whether a forced fix is `git worktree remove -f -f` after git refused a locked worktree
    (hindsight's reading of the error; its words are never quoted)."""
    step = shell.split(str(d["step"]))
    return (
        step[:3] == ["git", "worktree", "remove"]
        and str(d["differs"]).split() in (["-f", "-f"], ["--force", "--force"])
        and _LOCKED.search(str(d["error"])) is not None
    )


def fixed(f: Finding) -> Lesson | None:
    d = f.data
    if d.get("typo"):
        return None  # put right at once: not a lesson
    command, fix_command = str(d["command"]), str(d["fix_command"])
    cwd = d.get("cwd") if isinstance(d.get("cwd"), str) else None
    step = str(d.get("step") or command)
    fix_step = str(d.get("fix_step") or fix_command)
    lost_s = d.get("lost_s")
    lost = (
        f" {fmt.duration(lost_s)} later"
        if isinstance(lost_s, (int, float)) and lost_s >= 5
        else " right after"
    )
    tries = f" {d['attempts']} times" if int(str(d["attempts"])) > 1 else ""
    changed = [str(c) for c in d.get("changed") or []]
    fail, fix = pair(step, fix_step, cwd)
    ran, worked = pair(command, fix_command, None, 120)
    # The exit code and hindsight's own reading of the error, never the tool's words: a lesson
    # may reach memory, and tool output must not (the report quotes it, fenced as data).
    exit_code = d.get("exit_code")
    why = f"exit {exit_code}" if exit_code is not None else "no exit code"  # 1.0.x wrote none
    why += f", {d['category']}" if d["category"] != shell.OTHER else ""
    if d.get("difference") == fixes.SAME:
        if not changed:
            body = f"{code(command)} failed ({why}) and later passed as is; the cause is unclear."
            return lesson(f, f"{fail} fails intermittently", body, "trap", False)
        body = f"{code(command)} failed{tries} ({why}); it passed after {'; '.join(changed[:3])}."
        setup = [c for c in changed if not c.startswith("edited ")]
        if not setup:
            # Edit, rerun, pass: the ordinary development loop, worth a report line, not memory.
            return lesson(f, f"{fail} passed after edits", body, "fix", False, min(f.strength, 2))
        title = f"{fail} needs: {fmt.clip_words(setup[0], 70)}"
        # An install that cured a missing dependency of a known step; other setups may be chance.
        memory = (
            f.strength >= 3
            and len(setup) == len(changed)
            and bool(d.get("step_known"))
            and d["category"] == shell.MISSING_DEPENDENCY
        )
        return lesson(f, title, body, "fix", memory)
    verified = (
        d.get("difference") in fixes.NAMED
        and bool(d.get("step_known"))
        and not any(c.startswith("edited ") for c in changed)
    )
    forced = d.get("difference") == fixes.FLAGS and fixes.overrides(str(d["differs"]))
    body = f"{ran} failed{tries} ({why}); {worked} worked{lost}."
    if forced and _unlocks(d):
        # git's own way to remove a locked worktree is to force twice: the lock is the check,
        # and the same worktrees are locked again next time.
        # In the command's general form: the worktrees' names came from git's output.
        title = f"A locked worktree needs {code('git worktree remove -f -f <path>')}"
        body = (
            f"{code('git worktree remove <path>')} failed ({why}, the worktree is locked); "
            f"{code('git worktree remove -f -f <path>')} worked{lost}."
        )
        return lesson(f, title, body, "fix", verified)
    if forced:
        # The step passed by overriding its own check: true, but no instruction for next time.
        body += f" It passed by forcing past a check ({code(str(d['differs']))})."
        return lesson(f, _title(d, fail, fix, cwd, False), body, "fix", False)
    return lesson(f, _title(d, fail, fix, cwd, verified), body, "fix", verified)
