"""Where memory lessons go: Claude Code's MEMORY.md (the default), the repository's AGENTS.md
(Codex CLI and many agents load it), Gemini CLI's GEMINI.md, or all three.

Every target is the same fenced block with the same cap, dedup and guard (memory.MemoryStore); only
the file differs. Archives stay in hindsight's own folder, never in the repository. AGENTS.md is
read by Codex up to 32 KiB (``project_doc_max_bytes``), so its block's cap also counts the
bytes around it. Gemini CLI 0.61 loads ``GEMINI.md`` (DEFAULT_CONTEXT_FILENAME) from the project
root down to the cwd.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from hindsight import fsutil, layout
from hindsight.errors import HindsightError
from hindsight.memory import (
    AddResult,
    Entry,
    MemoryStore,
    Order,
    archive_section,
    block_size,
)

if TYPE_CHECKING:
    from hindsight.context import Context

CLAUDE = "claude"
NAMES = (CLAUDE, "agents-md", "gemini-md")
CHOICES = (*NAMES, "all")
AGENTS_MD_LIMIT = 32 * 1024
_FILES = {"agents-md": ("AGENTS.md", AGENTS_MD_LIMIT), "gemini-md": ("GEMINI.md", None)}


class Target(NamedTuple):
    name: str
    store: MemoryStore
    limit: int | None  # the whole file's cap, where the agent reads only so much of it


def expand(choice: str | None) -> list[str]:
    return list(NAMES) if choice == "all" else [choice or CLAUDE]


def resolve(ctx: Context, name: str) -> Target:
    store = MemoryStore(ctx.memory_dir)
    if name == CLAUDE:
        return Target(name, store, None)
    filename, limit = _FILES[name]
    # The block lives in the repository; its archive in hindsight's own folder; writes are
    # confined to the repository root (no writing through a link below it).
    store.path = ctx.repo.root / filename
    store.archive_path = layout.own_dir(ctx.memory_dir) / "archives" / f"{name}.md"
    store.folder = ctx.repo.root
    store.loads = None  # its agent's limit is the whole file's (``limit``, ``cap``)
    return Target(name, store, limit)


def cap(target: Target, max_bytes: int) -> int:
    """The block's cap: ``max_bytes``, and for AGENTS.md what 32 KiB leaves beside the rest."""
    if target.limit is None:
        return max_bytes
    doc = target.store.read()
    whole = len(fsutil.read_bytes(target.store.path) or b"")
    around = whole - (block_size(doc.lines, doc.newline) if doc.span is not None else 0)
    room = target.limit - around
    if room < block_size([]):
        raise HindsightError(
            f"{target.store.path} is {whole} bytes: no room for hindsight's block within the "
            f"{target.limit} bytes its agent reads; nothing was written"
        )
    return min(max_bytes, room)


def plan(
    target: Target, entries: Sequence[Entry], max_bytes: int, order: Order | None = None
) -> AddResult:
    return target.store.plan(list(entries), cap(target, max_bytes), order)


def write(target: Target, result: AddResult, day: date) -> None:
    """Pruned lines to the archive first (a crash in between loses none), then the block.

    Both steps are safe to repeat: the archive section is appended once, the block swap is
    idempotent. The caller holds hindsight's lock.
    """
    if not (result.added or result.pruned):
        return
    store = target.store
    if result.pruned:
        archive = store.archive_path
        fsutil.ensure_dir(archive.parent)
        fsutil.append_once(archive, archive_section(result.pruned, day), root=archive.parent)
    store.swap_lines([e.line() for e in result.added], result.pruned)


def change(
    ctx: Context, target: Target, entries: Sequence[Entry], max_bytes: int, day: date
) -> AddResult:
    """Add ``entries`` (none: prune to the cap) to one target, under hindsight's lock."""
    if target.name == CLAUDE:
        store = target.store
        return store.add(entries, max_bytes, day) if entries else store.prune(max_bytes, day)
    target.store.read()  # a malformed block fails before the lock creates anything
    with fsutil.locked(layout.lock(ctx.memory_dir)):
        result = plan(target, entries, max_bytes)
        write(target, result, day)
    return result


def summary(applied_targets: dict[str, AddResult], ctx: Context) -> dict[str, dict[str, object]]:
    """What each other target got, for --json and the printed summary."""
    return {
        name: {
            "path": str(resolve(ctx, name).store.path),
            "added": len(result.added),
            "duplicates_refused": len(result.duplicates),
            "pruned": len(result.pruned),
            "no_room": len(result.no_room),
        }
        for name, result in applied_targets.items()
    }


def print_summary(rows: dict[str, dict[str, object]]) -> None:
    for name, row in rows.items():
        print(
            f"{name}: {row['added']} added, {row['duplicates_refused']} refused as duplicates, "
            f"{row['pruned']} pruned, {row['no_room']} left to the report for want of room  "
            f"({row['path']})"
        )
