"""A `cd` that failed because an earlier Bash call had already moved the shell.

Claude Code runs every Bash call of a session in one shell, and writes the shell's folder on each
record: after ``cd crates/core && cargo test`` the next call starts in ``crates/core``, and a
second ``cd crates/core`` fails ("no such file or directory"). The records prove the cause: the
call ran outside the session's folder, and the folder it looked for is one the shell was in (that
very one, or another the session's records name), relative to the session's folder. Both are
facts of the transcript, not a reading of tool output, so the lesson is verified.
"""

from __future__ import annotations

import ntpath
import posixpath
from collections.abc import Iterator
from types import ModuleType

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell, steps
from hindsight.detect.failures import signature
from hindsight.detect.streams import main_stream, shell_events, tool_of

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


def stale_folders(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Per session, the relative ``cd`` steps that failed because the shell was elsewhere."""
    for sess in sessions:
        root = sess.cwd
        if not root:
            continue
        calls = [e for e in shell_events(main_stream(sess)) if tool_of(e).cwd]
        if not calls:
            continue  # the shell never left the session's folder (or the reader cannot tell)
        mod = _paths(root)
        norm = mod.normpath
        been = {norm(str(tool_of(e).cwd)) for e in calls}
        examples: list[dict[str, object]] = []
        where: list[s.Where] = []
        first: s.Event | None = None
        for event in calls:
            call = tool_of(event)
            here = norm(str(call.cwd))
            if not call.command or shell.classify(call.exit_code, call.output) != shell.WRONG_PATH:
                continue
            step, known = steps.failing(call.command, call.output)
            target = _cd_target(step) if known or step == steps.split(call.command)[0] else None
            if target is None:
                continue
            wanted = norm(mod.join(root, target))
            folder = _inside(here, norm(root), mod)
            # The folder it looked for is one the shell was in: from the session's folder the
            # `cd` would have worked; from where the shell stood, it could not.
            if folder is None or wanted == norm(mod.join(here, target)) or wanted not in been:
                continue
            examples.append(
                {"step": step, "folder": folder.replace("\\", "/"), "already_there": wanted == here}
            )
            where.append(event.at)
            first = first or event
            if len(examples) >= MAX_EXAMPLES:
                break
        if first is None:
            continue
        yield Finding(
            "stale_folder",
            evidence_key("stale-folder", sess.session_id, tool_of(first).id),
            sess.session_id,
            where,
            first.ts,
            4,
            # One lesson with the failure it explains: the fix detector's pairing of the same
            # call (`cd sub` failed, `cd /abs/sub` worked) merges into it.
            {"examples": examples, "signature": signature(tool_of(first))},
        )
