"""Throughput, CPU, memory and start-up of hindsight on a generated history (see bench/corpus.py).

From one set of files, interleaved, medians of --runs runs with the spread (min-max):
- the full pipeline, `hindsight run --dry-run` with the rules judge, in MB/s;
- two baselines in the same process tree: reading every line, and parsing every line with orjson;
- the CPU ratio between the orjson baseline and the pipeline (user + sys of each process);
- peak RSS of the pipeline;
- a no-op rerun (nothing new since the watermark), and `hindsight --help`.

    python bench/run.py [--corpus DIR] [--size 100MB] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus

READ_LINES = """
import sys
n = 0
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        for line in f:
            n += 1
print(n)
"""
PARSE_LINES = """
import sys, orjson
n = 0
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        for line in f:
            try:
                orjson.loads(line)
            except orjson.JSONDecodeError:
                pass
            n += 1
print(n)
"""


def measure(argv: list[str], cwd: Path | None = None) -> dict[str, float]:
    """Wall, CPU (user + sys) and peak RSS of one process and its children, via wait4."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[:4]} failed: {err}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def compile_package() -> None:
    """Byte-compile hindsight first, as pip does when it installs a wheel: an editable install run
    with PYTHONDONTWRITEBYTECODE (set on some machines) would otherwise compile every module on
    every run, about 30 ms a run that no installed copy pays."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("hindsight")
    for folder in spec.submodule_search_locations or [] if spec else []:
        compileall.compile_dir(folder, quiet=1)


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus", type=Path, help="folder made by bench/corpus.py (made when missing)"
    )
    parser.add_argument("--size", type=corpus.parse_size, default=corpus.parse_size("100MB"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    base = args.corpus or Path(tempfile.gettempdir()) / f"hindsight-bench-{args.size >> 20}MB"
    repo, home = base / "repo.app_v2", base / "claude-home"
    if not home.exists():
        corpus.build(base, args.size, seed=7)
    files = sorted(str(p) for p in home.rglob("*.jsonl"))
    total = sum(os.path.getsize(f) for f in files)
    mb = total / (1 << 20)
    py = sys.executable
    hindsight = [py, "-m", "hindsight"]
    compile_package()

    def run_argv(memory: Path, *extra: str) -> list[str]:
        return [
            *hindsight,
            "run",
            "--quiet",
            "--claude-home",
            str(home),
            "--memory-dir",
            str(memory),
            *extra,
        ]

    pipeline_argv = run_argv(base / "dry-memory", "--dry-run", "--since", "3650d")
    # Start-up alone: the pipeline over an empty Claude home, the baseline over no file.
    empty_home = Path(tempfile.mkdtemp(prefix="hindsight-bench-empty-"))
    (empty_home / "projects").mkdir()
    empty_argv = [
        *hindsight,
        "run",
        "--quiet",
        "--claude-home",
        str(empty_home),
        "--memory-dir",
        str(empty_home / "memory"),
        "--dry-run",
        "--since",
        "3650d",
    ]
    results: dict[str, list[dict[str, float]]] = {
        "pipeline": [],
        "read_lines": [],
        "orjson_lines": [],
        "pipeline_startup": [],
        "orjson_startup": [],
    }
    for _ in range(args.runs):  # interleaved, so drift on the machine hits all of them alike
        results["pipeline"].append(measure(pipeline_argv, cwd=repo))
        results["read_lines"].append(measure([py, "-c", READ_LINES, *files]))
        results["orjson_lines"].append(measure([py, "-c", PARSE_LINES, *files]))
        results["pipeline_startup"].append(measure(empty_argv, cwd=repo))
        results["orjson_startup"].append(measure([py, "-c", PARSE_LINES]))
    memory = Path(tempfile.mkdtemp(prefix="hindsight-bench-mem-"))
    real = run_argv(memory, "--since", "3650d")
    measure(real, cwd=repo)
    noop = [measure(run_argv(memory), cwd=repo) for _ in range(args.runs)]
    helps = [measure([*hindsight, "--help"]) for _ in range(max(args.runs, 5))]
    # The corpus is kept for the next series; these two folders are not needed again.
    shutil.rmtree(empty_home, ignore_errors=True)
    shutil.rmtree(memory, ignore_errors=True)

    def stat(name: str, key: str) -> dict[str, float]:
        return summary([r[key] for r in results[name]])

    out = {
        "corpus_mb": round(mb, 1),
        "files": len(files),
        "runs": args.runs,
        "pipeline_wall_s": stat("pipeline", "wall"),
        "pipeline_cpu_s": stat("pipeline", "cpu"),
        "pipeline_mb_per_s_cpu": mb / stat("pipeline", "cpu")["median"],
        "pipeline_mb_per_s_wall": mb / stat("pipeline", "wall")["median"],
        "pipeline_peak_rss_mb": stat("pipeline", "rss_mb"),
        "read_lines_cpu_s": stat("read_lines", "cpu"),
        "orjson_lines_cpu_s": stat("orjson_lines", "cpu"),
        "orjson_over_pipeline_cpu": stat("orjson_lines", "cpu")["median"]
        / stat("pipeline", "cpu")["median"],
        "pipeline_over_read_cpu": stat("pipeline", "cpu")["median"]
        / stat("read_lines", "cpu")["median"],
        "pipeline_startup_cpu_s": stat("pipeline_startup", "cpu"),
        "orjson_startup_cpu_s": stat("orjson_startup", "cpu"),
        # The same ratio without each side's start-up (interpreter, imports): the cost of the bytes.
        "orjson_over_pipeline_cpu_beyond_startup": (
            stat("orjson_lines", "cpu")["median"] - stat("orjson_startup", "cpu")["median"]
        )
        / (stat("pipeline", "cpu")["median"] - stat("pipeline_startup", "cpu")["median"]),
        "noop_rerun_wall_s": summary([r["wall"] for r in noop]),
        "help_wall_s": summary([r["wall"] for r in helps]),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return

    def spread(d: dict[str, float], unit: str = "s") -> str:
        return f"{d['median']:.3f} {unit} ({d['min']:.3f}-{d['max']:.3f})"

    print(
        f"corpus: {out['corpus_mb']} MB in {out['files']} files; medians of {args.runs} interleaved runs (min-max)"
    )
    print(
        f"pipeline (run --dry-run)  cpu {spread(out['pipeline_cpu_s'])}  wall {spread(out['pipeline_wall_s'])}"
    )
    print(
        f"  throughput              {out['pipeline_mb_per_s_cpu']:.0f} MB/s of CPU, "
        f"{out['pipeline_mb_per_s_wall']:.0f} MB/s wall"
    )
    print(f"  peak RSS                {spread(out['pipeline_peak_rss_mb'], 'MB')}")
    print(f"baseline: read lines      cpu {spread(out['read_lines_cpu_s'])}")
    print(f"baseline: orjson lines    cpu {spread(out['orjson_lines_cpu_s'])}")
    print(f"orjson / pipeline CPU     {out['orjson_over_pipeline_cpu']:.2f}x  (target >= 1.5x)")
    print(
        f"start-up alone            pipeline cpu {spread(out['pipeline_startup_cpu_s'])}, "
        f"orjson baseline cpu {spread(out['orjson_startup_cpu_s'])}"
    )
    print(
        f"  ratio beyond start-up   {out['orjson_over_pipeline_cpu_beyond_startup']:.2f}x  "
        "(what each new MB costs)"
    )
    print(f"no-op rerun               wall {spread(out['noop_rerun_wall_s'])}  (target < 0.3 s)")
    print(f"hindsight --help          wall {spread(out['help_wall_s'])}  (target < 0.15 s)")


if __name__ == "__main__":
    main()
