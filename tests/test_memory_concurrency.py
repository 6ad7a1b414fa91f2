"""Two real processes adding at once lose nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hindsight.memory import ARCHIVE_FILE, MemoryStore

WORKER = """
import sys
from datetime import date
from pathlib import Path
from hindsight.memory import Entry, MemoryStore
store = MemoryStore(Path(sys.argv[1]))
for n in range(int(sys.argv[3])):
    e = Entry.make(f"{sys.argv[2]} lesson {n}", "a body of some length " * 3, "trap", date(2026, 11, 30))
    assert store.add([e], max_bytes=2048).added
"""


def test_two_processes_adding_at_once(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("# curated\n")
    count = 40
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), name, str(count)])
        for name in ("alpha", "beta")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    lines = MemoryStore(tmp_path).read().lines
    archived = [
        line for line in (tmp_path / ARCHIVE_FILE).read_text().splitlines() if line.startswith("- ")
    ]
    titles = sorted(line.split("**")[1] for line in lines + archived)
    expected = sorted(f"{name} lesson {n}" for name in ("alpha", "beta") for n in range(count))
    assert titles == expected
    assert (tmp_path / "MEMORY.md").read_text().endswith("\n# curated\n")
