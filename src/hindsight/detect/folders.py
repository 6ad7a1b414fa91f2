"""A `cd` that failed because an earlier Bash call had already moved the shell.

Claude Code runs every Bash call of a session in one shell, and writes the shell's folder on each
record: after ``cd crates/core && cargo test`` the next call starts in ``crates/core``, and a
second ``cd crates/core`` fails ("no such file or directory"). The records prove the cause: the
call ran outside the session's folder, and the folder it looked for is one the shell was in (that
very one, or another the session's records name), relative to the session's folder. Both are
facts of the transcript, not a reading of tool output, so the lesson is verified.

A file tool's relative path resolves against the same folder: a search of ``server.js`` made
while the records put the shell in ``frontend`` fails, for a file used with success from the
session's folder; the error must name the path it missed.
"""

from __future__ import annotations

import ntpath
import posixpath
from collections.abc import Iterator
from datetime import datetime
from types import ModuleType

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell, steps
from hindsight.detect.failures import signature
from hindsight.detect.streams import main_stream, tool_of

MAX_EXAMPLES = 3


def _paths(cwd: str) -> ModuleType:
    return ntpath if "\\" in cwd or (len(cwd) > 1 and cwd[1] == ":") else posixpath


def _cd_target(step: str) -> str | None:
    """The folder of a ``cd DIR`` step, when relative (an absolute one is never stale)."""
    words = shell.split(step)
    if len(words) != 2 or words[0] != "cd":
        return None
    target = words[1].rstrip("/\\")
    if not target or target.startswith(("/", "\\", "~", "$", "-")) or target in (".", ".."):
        return None
    if len(target) > 1 and target[1] == ":":  # C:\... on Windows
        return None
    return target


def _inside(path: str, root: str, mod: ModuleType) -> str | None:
    """``path`` relative to ``root`` when inside it, else None."""
    rel: str = mod.relpath(path, root)
    return None if rel == ".." or rel.startswith(("../", "..\\")) else rel


def _relative_words(step: str) -> list[str]:
    """The relative paths a step names (``./scripts/fc1``, ``scripts/fc1``), as typed."""
    out = []
    for word in shell.split(step):
        bare = word[2:] if word.startswith("./") else word
        if "/" in bare and not bare.startswith(("/", "~", "$", "-", "..")) and "=" not in bare:
            out.append(bare.rstrip("/"))
    return out


def _relative_path(path: str) -> str | None:
    """A file tool's path when relative (``server.js``, ``./src/app.ts``), as typed."""
    bare = path[2:] if path.startswith("./") else path
    if not bare or bare.startswith(("/", "\\", "~", "$", "-", "..")) or bare[1:2] == ":":
        return None
    return bare.rstrip("/\\")


def _at_root(stream: list[s.Event], root: str) -> set[str]:
    """Relative paths used with success while the shell stood in the session's folder: named by
    a command that worked there, or a file a tool read or wrote (by its absolute path anywhere,
    by a relative one there), as the agent wrote them."""
    known: set[str] = set()
    prefix = root.rstrip("/\\") + "/"
    for event in stream:
        call = event.tool
        if call is None or call.failed or call.status != s.OK:
            continue
        if call.command is not None:
            if call.cwd is None:
                for step in steps.split(call.command):
                    known.update(_relative_words(step))
        else:
            known.update(p[len(prefix) :] for p in call.paths if p.startswith(prefix))
            if call.cwd is None:
                known.update(r for r in map(_relative_path, call.paths) if r is not None)
    return known


def _example(
    call: s.ToolCall, root: str, mod: ModuleType, been: set[str], known: set[str]
) -> dict[str, object] | None:
    """What a failing call shows of a stale folder, or None: the ``cd`` it could not make from
    where the shell stood, or a path it could not find there that works from the root."""
    norm = mod.normpath
    here = norm(str(call.cwd))
    folder = _inside(here, norm(root), mod)
    if folder is None or folder == ".":
        return None
    if not call.command:
        return _file_example(call, folder.replace("\\", "/"), known)
    category = shell.classify(call.exit_code, call.output)
    if category not in (shell.WRONG_PATH, shell.MISSING_DEPENDENCY):
        return None
    step, known_step = steps.failing(call.command, call.output)
    if not known_step and step != steps.split(call.command)[0]:
        return None
    folder = folder.replace("\\", "/")
    target = _cd_target(step) if category == shell.WRONG_PATH else None
    if target is not None:
        wanted = norm(mod.join(root, target))
        # The folder it looked for is one the shell was in: from the session's folder the `cd`
        # would have worked; from where the shell stood, it could not.
        if wanted != norm(mod.join(here, target)) and wanted in been:
            return {"step": step, "folder": folder, "already_there": wanted == here}
        return None
    error = shell.error_line(call.output)
    for path in _relative_words(step):
        # The path the error says is missing, used with success from the session's folder.
        if path in known and path in error:
            return {"step": step, "folder": folder, "already_there": False, "path": path}
    return None


def _file_example(call: s.ToolCall, folder: str, known: set[str]) -> dict[str, object] | None:
    """A file tool (a read, a search) that failed on a relative path where the shell stood,
    the path one used with success from the session's folder, the error naming it."""
    if call.status != s.ERROR:
        return None  # refused, interrupted: the tool never looked
    error = shell.error_line(call.output)
    for path in call.paths:
        bare = _relative_path(path)
        if bare is not None and bare in known and bare in error:
            return {"step": bare, "folder": folder, "already_there": False, "path": bare}
    return None


def _hook_script(command: str) -> str | None:
    """The script a hook's command runs by a path relative to the shell's folder (``uv run
    .claude/hooks/stop.py``), or None: an absolute path, a variable, or a command that moves to
    its folder first (``sh -c 'cd /repo && ...'``)."""
    words = shell.split(command)
    if any(w in ("cd", "pushd") or any(c.isspace() for c in w) for w in words):
        return None  # moves first, or runs an inner command (`sh -c '...'`)
    for word in words:
        bare = word[2:] if word.startswith("./") else word
        plain = not any(c in bare for c in ("$", "=", "'", '"')) and not bare.startswith("..")
        if "/" in bare and plain and not bare.startswith(("/", "~", "-", "\\")):
            return bare
    return None


def _hook_examples(
    sess: s.Session, root: str, mod: ModuleType
) -> Iterator[tuple[dict[str, object], s.HookRun]]:
    """Hooks whose relative script was not found from the folder the failure's record puts the
    shell in, the same command having completed with the shell in the session's folder before."""
    worked: set[str] = set()
    seen: set[str] = set()
    for run in sess.hooks:
        if run.ok:
            if run.cwd is None:
                worked.add(run.command)
            continue
        script = _hook_script(run.command)
        if run.cwd is None or script is None or script in seen or run.command not in worked:
            continue
        folder = _inside(mod.normpath(run.cwd), mod.normpath(root), mod)
        if folder is None or folder == ".":
            continue
        # What the hook printed says the script was missing, by its name: it classifies the
        # failure and is never quoted.
        if script not in run.error or shell.classify(None, run.error) != shell.WRONG_PATH:
            continue
        seen.add(script)
        yield {"folder": folder.replace("\\", "/"), "already_there": False, "hook": script}, run


def stale_folders(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Per session, the relative ``cd`` steps, paths and hook scripts that failed because the
    shell was elsewhere."""
    for sess in sessions:
        root = sess.cwd
        if not root:
            continue
        mod = _paths(root)
        # By step (or hook script), first seen: the example, where, when, the call if one.
        hits: dict[object, tuple[dict[str, object], s.Where, datetime | None, s.ToolCall | None]]
        hits = {}
        stream = main_stream(sess)
        calls = [e for e in stream if e.tool is not None and e.tool.cwd]
        if calls:  # else the shell never left the session's folder (or the reader cannot tell)
            been = {mod.normpath(str(tool_of(e).cwd)) for e in calls}
            known = _at_root(stream, root)
            for event in calls:
                example = _example(tool_of(event), root, mod, been, known)
                if example is not None and example["step"] not in hits:
                    hits[example["step"]] = (example, event.at, event.ts, tool_of(event))
                    if len(hits) >= MAX_EXAMPLES:
                        break
        for example, run in _hook_examples(sess, root, mod):
            if len(hits) >= MAX_EXAMPLES:
                break
            hits[("hook", example["hook"])] = (example, run.at, run.ts, None)
        if not hits:
            continue
        _, at, ts, call = next(iter(hits.values()))
        yield Finding(
            "stale_folder",
            evidence_key("stale-folder", sess.session_id, call.id if call else f"hook:{at.line}"),
            sess.session_id,
            [where for _, where, _, _ in hits.values()],
            ts,
            4,
            # The failures it explains: the fix detector's pairings of the same calls (`cd sub`
            # failed, `cd /abs/sub` worked) stay the report's; memory takes this trap.
            {
                "examples": [example for example, *_ in hits.values()],
                "covers": [signature(c) for *_, c in hits.values() if c is not None],
            },
        )
