"""What the Claude Code reader makes of the development set, per source: run before and after a
reader change and compare (issue #10, the reader side).

Each file of ``../shared/fixtures/claude-code/real/<source>/`` is read as one session, as discovery
would hand it over. Per source it prints: records used; lines skipped as unknown types; shell
calls; failed shell calls with an exit code, failed without one (older versions write only the
output and ``is_error``), and the failures the detectors act on; harness refusals; timeouts; agent streams; records read twice (the same
``uuid`` copied into a resumed session); the user's own ``!`` shell commands; sessions that left
todo lists.

    python bench/reader_census.py [--fixtures DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from hindsight import session as s  # noqa: E402
from hindsight.sources.base import Transcript  # noqa: E402
from hindsight.sources.claude_code import ClaudeCodeSource  # noqa: E402

COLUMNS = (
    "records",
    "unknown",
    "shell",
    "failed_exit",
    "failed_no_exit",
    "detected",
    "blocked",
    "timeout",
    "streams",
    "copies",
    "dup_left",
    "user_shell",
    "todo_sessions",
)


def census(files: list[Path]) -> Counter[str]:
    out: Counter[str] = Counter()
    source = ClaudeCodeSource()
    # Oldest first, as discovery orders them (by first record: the fixtures' mtimes are the
    # copy's), sharing the record ids read so far so that a resume's copy counts once.
    seen: set[str] = set()
    for path in sorted(files, key=_first_timestamp):
        st = path.stat()
        transcript = Transcript(path, "claude-code", path.stem, st.st_size, st.st_mtime)
        try:
            sess = source.read(transcript, [], seen)
        except TypeError:  # a reader from before #10: no shared ids
            sess = source.read(transcript, [])
        out["copies"] += getattr(sess.stats, "copies", 0)
        out["records"] += sess.stats.records
        out["unknown"] += sess.stats.skipped["unknown_type"]
        shells = sess.shell_calls()
        out["shell"] += len(shells)
        for call in shells:
            status = call.status
            # What the failure detectors act on: before #10's reader, a written exit code only.
            on_its_own = getattr(call, "failed_on_its_own", None)
            if on_its_own is None:
                on_its_own = status == s.ERROR and call.exit_code not in (None, 0)
            out["detected"] += bool(on_its_own)
            if status == s.ERROR and call.exit_code not in (None, 0):
                out["failed_exit"] += 1
            elif status == s.ERROR:
                out["failed_no_exit"] += 1
            elif status == s.BLOCKED:
                out["blocked"] += 1
            elif status == getattr(s, "TIMEOUT", "timeout"):
                out["timeout"] += 1
        out["streams"] += len({e.subagent for e in sess.events})
        uuids = Counter(e.uuid for e in sess.events if e.uuid and e.kind != s.TOOL)
        tool_ids = Counter(t.id for t in sess.tools())
        out["dup_left"] += sum(n - 1 for n in uuids.values()) + sum(
            n - 1 for n in tool_ids.values()
        )
        out["user_shell"] += sum(1 for t in sess.tools() if getattr(t, "by_user", False))
        out["todo_sessions"] += bool(sess.final_todos())
    return out


def _first_timestamp(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            found = re.search(r'"timestamp":\s*"([^"]+)"', line)
            if found:
                return found.group(1)
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fixtures",
        type=Path,
        default=ROOT.parent / "shared" / "fixtures" / "claude-code" / "real",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sources = sorted(p for p in args.fixtures.iterdir() if p.is_dir())
    if not sources:
        raise SystemExit(f"no sources in {args.fixtures}")
    rows = {src.name: census(sorted(src.glob("*.jsonl"))) for src in sources}
    total: Counter[str] = Counter()
    for row in rows.values():
        total.update(row)
    if args.json:
        print(json.dumps({"sources": rows, "total": total}, indent=1))
        return
    width = max(len(name) for name in rows)
    print(f"{'source':<{width}} " + " ".join(f"{c:>{len(c)}}" for c in COLUMNS))
    for name, row in [*rows.items(), ("TOTAL", total)]:
        print(f"{name:<{width}} " + " ".join(f"{row[c]:>{len(c)}}" for c in COLUMNS))


if __name__ == "__main__":
    main()
