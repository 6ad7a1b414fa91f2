"""Format drift: record the same session with the pinned agent CLIs (.ci/clients.txt) and with the
newest published ones, and report what changed in what they write (record types, fields) and in
what hindsight reads from it. Reports; never fails the build (exit 0 whatever drifted).

    python bench/drift.py [--json]

Needs node/npm and the npm registry (installs the newest versions into
~/.cache/hindsight/clients-latest, reused while they stay the newest).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import run_cli  # noqa: E402
from integration.live import claude_session, pins, shop  # noqa: E402

STEPS = [  # planted traps: a fix, a missing tool, a missing file, then a summary
    {"tool": "Bash", "input": {"command": "make test", "description": "tests"}},
    {"tool": "Bash", "input": {"command": "make check", "description": "checks"}},
    {"tool": "Bash", "input": {"command": "acme-lint --all", "description": "lint"}},
    {"tool": "Read", "input": {"file_path": "__REPO__/conf/deploy.yaml"}},
    {"text": "done"},
]


def newest(package: str) -> str:
    done = subprocess.run(
        ["npm", "view", package, "version"], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.strip()


def install(versions: list[tuple[str, str, str]], cache: str) -> Path:
    """The bin folder of those versions, through .ci/install-clients (its own cache folder)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.writelines(f"{p}@{v} {c}\n" for p, v, c in versions)
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "install-clients"), handle.name],
        env={**os.environ, "HINDSIGHT_CLIENTS_CACHE": cache},
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    os.unlink(handle.name)
    return Path(done.stdout.strip())


def record(claude: Path, base: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One planted session by this claude: its records, and what `hindsight run` made of them."""
    repo, home = shop(base)
    steps = json.loads(json.dumps(STEPS).replace("__REPO__", str(repo)))
    claude_session(str(claude), repo, home, steps, "run the tests", "--allowedTools", "Bash Read")
    records = [
        json.loads(line)
        for path in sorted(home.glob("projects/*/*.jsonl"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    done = run_cli("run", "--json", "--claude-home", str(home), cwd=repo)
    summary = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr.strip()}
    return records, summary


def shape(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    """record type -> its field paths: top-level keys, message keys, content block types and keys,
    toolUseResult keys (what the reader looks at)."""
    fields: dict[str, set[str]] = defaultdict(set)
    for r in records:
        kind = str(r.get("type"))
        fields[kind] |= set(r)
        message = r.get("message")
        if isinstance(message, dict):
            fields[kind] |= {f"message.{k}" for k in message}
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict):
                    fields[kind] |= {f"content[{block.get('type')}].{k}" for k in block}
        result = r.get("toolUseResult")
        if isinstance(result, dict):
            fields[kind] |= {f"toolUseResult.{k}" for k in result}
    return fields


def compare(old: dict[str, set[str]], new: dict[str, set[str]]) -> dict[str, Any]:
    types = sorted(set(old) | set(new))
    return {
        "new_record_types": sorted(set(new) - set(old)),
        "gone_record_types": sorted(set(old) - set(new)),
        "fields": {
            t: {"new": sorted(new[t] - old[t]), "gone": sorted(old[t] - new[t])}
            for t in types
            if t in old and t in new and old[t] != new[t]
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    pinned = pins()
    latest = [(p, newest(p), c) for p, _, c in pinned]
    out: dict[str, Any] = {
        "versions": {
            p: {"pinned": v, "newest": n}
            for (p, v, _), (_, n, _) in zip(pinned, latest, strict=True)
        }
    }
    cache = Path.home() / ".cache" / "hindsight"
    old_bin = install(pinned, str(cache / "clients"))
    new_bin = install(latest, str(cache / "clients-latest"))
    with tempfile.TemporaryDirectory(prefix="hindsight-drift-") as tmp:
        old_records, old_run = record(old_bin / "claude", Path(tmp) / "pinned")
        new_records, new_run = record(new_bin / "claude", Path(tmp) / "newest")
    keys = ("sessions_read", "lines_skipped", "findings", "lessons", "lessons_added", "error")
    out["claude-code"] = {
        "records": {"pinned": len(old_records), "newest": len(new_records)},
        **compare(shape(old_records), shape(new_records)),
        "hindsight": {
            "pinned": {k: old_run[k] for k in keys if k in old_run},
            "newest": {k: new_run[k] for k in keys if k in new_run},
        },
    }
    # Codex and Gemini: versions only until their scripted servers are in the tests (FORMATS.md
    # says how they were recorded by hand); their readers are another issue's.
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for package, v in out["versions"].items():
        same = "same" if v["pinned"] == v["newest"] else "NEWER"
        print(f"{package:<28} pinned {v['pinned']:<10} newest {v['newest']:<10} {same}")
    c = out["claude-code"]
    print(
        f"\nclaude-code records: pinned {c['records']['pinned']}, newest {c['records']['newest']}"
    )
    print(f"new record types:  {', '.join(c['new_record_types']) or 'none'}")
    print(f"gone record types: {', '.join(c['gone_record_types']) or 'none'}")
    for kind, change in c["fields"].items():
        for word in ("new", "gone"):
            if change[word]:
                print(f"{kind}: {word} fields: {', '.join(change[word])}")
    print(f"hindsight on pinned: {c['hindsight']['pinned']}")
    print(f"hindsight on newest: {c['hindsight']['newest']}")
    if c["hindsight"]["pinned"] != c["hindsight"]["newest"]:
        print("DRIFT: hindsight reads the newest version's session differently (see above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
