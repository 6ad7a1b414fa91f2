"""Claude Code's settings.json, read and written the careful way: every other setting kept,
a backup before a change, an unreadable file refused with nothing changed (install, uninstall)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from hindsight import clock, fsutil
from hindsight.errors import HindsightError

HOOK_MARK = "hindsight hook session-end"


def load(settings: Path) -> tuple[bytes | None, dict[str, Any]]:
    """(the bytes on disk or None where there is no file, the JSON object they hold)."""
    raw = fsutil.read_bytes(settings)
    if not (raw and raw.strip()):
        return raw, {}
    try:
        loaded = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise HindsightError(
            f"{settings} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from exc
    if not isinstance(loaded, dict):
        raise HindsightError(f"{settings} is not a JSON object; nothing was changed")
    return raw, loaded


def save(settings: Path, raw: bytes | None, doc: dict[str, Any]) -> str:
    """Write ``doc``, the old file kept as settings.json.bak-<time>; the backup's name or ''."""
    backup = ""
    if raw is not None:
        backup = _free_backup_name(settings)
        shutil.copy2(settings, settings.with_name(backup))
    fsutil.atomic_write(settings, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    return backup


def _free_backup_name(settings: Path) -> str:
    """settings.json.bak-<time>, with -2, -3... when that second already has one.

    Two changes in one second (install then uninstall from a script) must not
    overwrite the first backup: it is the only copy of the user's own file.
    """
    stamp = clock.now().strftime("%Y%m%d-%H%M%S")
    name = f"{settings.name}.bak-{stamp}"
    n = 1
    while settings.with_name(name).exists():
        n += 1
        name = f"{settings.name}.bak-{stamp}-{n}"
    return name


def session_end_hooks(doc: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(group, hook) for each SessionEnd hook of hindsight's in ``doc``."""
    hooks = doc.get("hooks")
    groups = hooks.get("SessionEnd") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        for hook in group.get("hooks", []) if isinstance(group, dict) else []:
            if isinstance(hook, dict) and HOOK_MARK in str(hook.get("command", "")):
                yield group, hook
