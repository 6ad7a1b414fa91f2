"""What a model judge would be sent for the shipped example: bytes and estimated tokens, per judge
and per --max-input-bytes, from `hindsight run --example --judge J --dry-run --json` (nothing is
sent, no key is needed). Also the import cost each transport adds to a run that uses it.

    .venv/bin/python bench/judge_cost.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

JUDGES = ("claude", "anthropic", "openai")
CAPS = (60_000, 8_000, 5_000)
SDKS = {"anthropic": "anthropic", "openai": "openai"}


def dry_run(judge: str, cap: int) -> dict[str, object]:
    env = {**os.environ, "HINDSIGHT_OPENAI_MODEL": os.environ.get("HINDSIGHT_OPENAI_MODEL", "m")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "hindsight",
            "run",
            "--example",
            "--judge",
            judge,
            "--dry-run",
            "--json",
            "--max-input-bytes",
            str(cap),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    summary = json.loads(done.stdout)
    request = summary["request"]
    return {
        "judge": judge,
        "max_input_bytes": cap,
        "findings": summary["findings"],
        "bytes": request["bytes"],
        "instructions_bytes": len(request["system"].encode()),
        "evidence_bytes": len(request["user"].encode()),
        "estimated_tokens": request["estimated_tokens"],
        "clipped": "(clipped to fit --max-input-bytes)" in request["user"],
    }


def import_cpu(module: str) -> float:
    """CPU seconds of `import MODULE` in a fresh interpreter, minus a bare interpreter's."""

    def cpu(code: str) -> float:
        before = os.times()
        subprocess.run([sys.executable, "-c", code], check=True)
        after = os.times()
        return (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )

    runs = [cpu(f"import {module}") - cpu("pass") for _ in range(3)]
    return sorted(runs)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    rows = [dry_run(judge, cap) for judge in JUDGES for cap in CAPS]
    imports = {name: round(import_cpu(module), 3) for name, module in SDKS.items()}
    if args.json:
        print(json.dumps({"requests": rows, "sdk_import_cpu_s": imports}, indent=2))
        return
    print("judge      cap     sent bytes  instructions  evidence  ~tokens  clipped")
    for r in rows:
        print(
            f"{r['judge']:<10} {r['max_input_bytes']:<7} {r['bytes']:<11} "
            f"{r['instructions_bytes']:<13} {r['evidence_bytes']:<9} {r['estimated_tokens']:<8} "
            f"{r['clipped']}"
        )
    for name, seconds in imports.items():
        print(f"import {name} SDK: {seconds:.3f} s CPU (only in runs with --judge {name})")
    print(f"({time.monotonic() - started:.1f} s)")


if __name__ == "__main__":
    main()
