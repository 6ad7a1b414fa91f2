"""The memory folder's paths, owned in one place (pre-commit's Store idea)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

MEMORY_FILE = "MEMORY.md"
ARCHIVE_FILE = "MEMORY.archive.md"


def own_dir(memory_dir: Path) -> Path:
    """hindsight's own folder inside the memory folder."""
    return memory_dir / "hindsight"


def memory(memory_dir: Path) -> Path:
    return memory_dir / MEMORY_FILE


def archive(memory_dir: Path) -> Path:
    return memory_dir / ARCHIVE_FILE


def lock(memory_dir: Path) -> Path:
    return own_dir(memory_dir) / ".lock"


def state(memory_dir: Path) -> Path:
    return own_dir(memory_dir) / "state.json"


def journal(memory_dir: Path) -> Path:
    """The intent of a run whose writes have begun; present only until they all landed."""
    return own_dir(memory_dir) / "journal.json"


def reports(memory_dir: Path) -> Path:
    return own_dir(memory_dir) / "reports"


def report(memory_dir: Path, day: date) -> Path:
    return reports(memory_dir) / f"{day.isoformat()}.md"


def hook_log(memory_dir: Path) -> Path:
    return own_dir(memory_dir) / "hook.log"


def ledger(memory_dir: Path) -> Path:
    """Every lesson's identity and life (ledger.py)."""
    return own_dir(memory_dir) / "ledger.sqlite"
