"""A smoke run of the benchmark on a tiny corpus: the numbers themselves are measured by hand."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_benchmark_smoke(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "run.py"),
            "--corpus",
            str(tmp_path / "c"),
            "--size",
            "2MB",
            "--runs",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["corpus_mb"] >= 2 and out["files"] > 0
    for key in (
        "pipeline_cpu_s",
        "orjson_lines_cpu_s",
        "read_lines_cpu_s",
        "noop_rerun_wall_s",
        "help_wall_s",
        "pipeline_startup_cpu_s",
        "orjson_startup_cpu_s",
    ):
        assert out[key]["median"] > 0
    # The start-up runs read nothing: cheaper than the runs over the corpus.
    assert out["pipeline_startup_cpu_s"]["median"] < out["pipeline_cpu_s"]["median"]
    # A ratio of two differences: on 2 MB the baseline's share beyond its start-up is a few
    # milliseconds, below the noise of a loaded machine, so only its being a number is checked.
    assert math.isfinite(out["orjson_over_pipeline_cpu_beyond_startup"])
    assert out["pipeline_peak_rss_mb"]["median"] < 150
