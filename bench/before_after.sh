#!/usr/bin/env bash
# bench/run.py on a git revision (default: main) and on this working tree, interleaved, ROUNDS times:
# whether a change made reading slower. The revision is exported with git archive and imported
# through PYTHONPATH, so both sides use this checkout's venv and the same corpus in /tmp.
#   bench/before_after.sh [REV] [SIZE] [ROUNDS]     e.g. bench/before_after.sh main 100MB 2
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rev="${1:-main}" size="${2:-100MB}" rounds="${3:-2}"
py="$here/.venv/bin/python"
before="$(mktemp -d /tmp/hindsight-before-XXXXXX)"
git -C "$here" archive "$rev" | tar -x -C "$before"
out="$(mktemp -d /tmp/hindsight-before-after-XXXXXX)"
for i in $(seq "$rounds"); do
  PYTHONPATH="$before/src" "$py" "$before/bench/run.py" --size "$size" --runs 5 --json > "$out/before$i.json"
  "$py" "$here/bench/run.py" --size "$size" --runs 5 --json > "$out/after$i.json"
done
"$py" - "$out" "$rounds" <<'PY'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
keys = [("pipeline_cpu_s", "run --dry-run CPU s"), ("pipeline_startup_cpu_s", "start-up CPU s"),
        ("pipeline_peak_rss_mb", "peak RSS MB"), ("noop_rerun_wall_s", "no-op rerun wall s"),
        ("help_wall_s", "--help wall s")]
for side in ("before", "after"):
    for i in range(1, rounds + 1):
        d = json.load(open(f"{out}/{side}{i}.json"))
        cells = [f"{label} {d[k]['median']:.3f}" for k, label in keys]
        cells.append(f"orjson/pipeline beyond start-up {d['orjson_over_pipeline_cpu_beyond_startup']:.2f}x")
        print(f"{side} {i}: " + ", ".join(cells))
PY
rm -rf "$before"
