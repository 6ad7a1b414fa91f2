"""Kill `hindsight run` at random moments (SIGKILL), rerun it, and compare with a run nobody
killed: every line must be written exactly once.

    .venv/bin/python bench/kills.py --kills 200 --json

The memory folder starts near the 6 KB cap (so runs prune to the archive) under curated notes;
the sessions are the shipped recordings. tests/test_txn.py kills at every write step instead
(the short form that runs in CI).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

NOW = "2026-11-30T15:00:00Z"
CURATED = "# My notes\n\nKeep the staging DB read-only.\n"


def hand_block() -> str:
    lines = [
        f"- **Old lesson {n}** (2026-10-{n % 28 + 1:02d}) {'an older body ' * 6}[trap]"
        for n in range(50)
    ]
    return (
        "<!-- hindsight:start -->\n" + "\n".join(lines) + f"\n<!-- hindsight:end -->\n\n{CURATED}"
    )


def command(root: Path, home: Path, memory: Path) -> list[str]:
    return [
        sys.executable, "-m", "hindsight", "run", "--quiet",
        "--claude-home", str(home), "--memory-dir", str(memory), "--repo", str(root),
    ]  # fmt: skip


def outcome(memory: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for path in sorted(memory.rglob("*")):
        if not path.is_file() or path.name in (".lock", "hook.log"):
            continue
        if path.name == "state.json":
            doc = json.loads(path.read_text())
            doc.pop("last_run", None)
            out["state"] = doc
        elif path.name == "ledger.sqlite":
            out["ledger"] = _ledger_rows(path)  # its pages differ by history, its rows may not
        elif path.name.startswith("ledger.sqlite-"):
            continue  # SQLite's rollback journal of a transaction under way
        else:
            out[str(path.relative_to(memory))] = path.read_bytes()
    return out


def _ledger_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    import sqlite3

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {
            table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall())
            for table in ("lessons", "history", "meta")
        }
    finally:
        conn.close()


def entry_lines(memory: Path) -> Counter[str]:
    lines: Counter[str] = Counter()
    for name in ("MEMORY.md", "MEMORY.archive.md"):
        path = memory / name
        if path.exists():
            lines.update(x for x in path.read_text().splitlines() if x.startswith("- **"))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from hindsight import example

    rng = random.Random(args.seed)
    env = {**os.environ, "HINDSIGHT_NOW": NOW}
    env.pop("CLAUDE_CONFIG_DIR", None)
    with tempfile.TemporaryDirectory(prefix="hindsight-kills-") as tmp:
        base = Path(tmp)
        ex = example.install(base)
        seed = base / "seed"
        seed.mkdir()
        (seed / "MEMORY.md").write_text(hand_block())
        reference = base / "reference"
        shutil.copytree(seed, reference)
        began = time.monotonic()
        subprocess.run(command(ex.root, ex.claude_home, reference), env=env, check=True)
        span = time.monotonic() - began
        expected, expected_lines = outcome(reference), entry_lines(reference)
        killed = differ = lost = twice = 0
        for n in range(args.kills):
            memory = base / f"m{n}"
            shutil.copytree(seed, memory)
            proc = subprocess.Popen(command(ex.root, ex.claude_home, memory), env=env)
            time.sleep(rng.random() * span)
            if proc.poll() is None:
                proc.kill()
                killed += 1
            proc.wait()
            subprocess.run(command(ex.root, ex.claude_home, memory), env=env, check=True)
            got = entry_lines(memory)
            lost += sum((expected_lines - got).values())
            twice += sum(count - 1 for count in got.values() if count > 1)
            differ += outcome(memory) != expected
            shutil.rmtree(memory)
    result = {
        "runs": args.kills,
        "killed_mid_run": killed,
        "run_seconds": round(span, 3),
        "outcomes_differing_from_unkilled": differ,
        "lost_lines": lost,
        "duplicated_lines": twice,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<34} {value}")
    return 0 if differ == lost == twice == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
