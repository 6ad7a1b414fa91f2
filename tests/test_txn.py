"""A run is one transaction: killed or failed at any write step, the rerun ends where an
uninterrupted run ends, every line written exactly once; an error exit leaves MEMORY.md as it was."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from conftest import AS_NOBODY, GIT_ANY_OWNER, install_recording, open_up, run_cli
from hindsight import txn

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


def _bench_kills() -> ModuleType:
    # The seed and the comparison are the benchmark's (bench/kills.py, the long form of this).
    path = Path(__file__).resolve().parent.parent / "bench" / "kills.py"
    spec = importlib.util.spec_from_file_location("bench_kills", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KILLS = _bench_kills()
CURATED, hand_block, outcome = KILLS.CURATED, KILLS.hand_block, KILLS.outcome


def trial(
    root: Path, home: Path, memory: Path, wrap: list[str] | None = None, **env: str
) -> tuple[int, str]:
    done = run_cli(
        "run",
        "--quiet",
        "--claude-home",
        str(home),
        "--memory-dir",
        str(memory),
        cwd=root,
        env={**NOW, **env},
        wrap=wrap,
    )
    return done.returncode, done.stderr


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, dict, int]:
    """One repo and Claude home; each trial gets its own memory folder, seeded the same way."""
    base = tmp_path_factory.mktemp("txn")
    root, _, home = install_recording(base)
    seed = base / "seed"
    seed.mkdir()
    (seed / "MEMORY.md").write_text(hand_block())
    reference = base / "reference"
    shutil.copytree(seed, reference)
    log = base / "points.log"
    assert trial(root, home, reference, HINDSIGHT_FAULT_LOG=str(log)) == (0, "")
    points = len(log.read_text().splitlines())
    return root, home, seed, outcome(reference), points


def test_the_reference_run_prunes_reports_and_commits(world: tuple) -> None:
    expected, points = world[3], world[4]
    memory = expected["MEMORY.md"].decode()
    assert memory.endswith(CURATED)
    archive = expected["MEMORY.archive.md"].decode()
    assert archive.startswith("\n## Archived 2026-11-30\n\n- **Old lesson ")
    # The oldest (bottom) entries moved, each to exactly one of the two files.
    assert memory.count("- **Old lesson") + archive.count("- **Old lesson") == 50
    assert archive.count("- **Old lesson") >= 5 and "- **Old lesson 49**" in archive
    assert expected["state"]["last_scan"] == "2026-11-30T15:00:00.000Z"
    assert "hindsight/journal.json" not in expected
    # Every step of the transaction is a place a kill or an error can land.
    assert points >= 12


def test_killed_at_every_step_the_rerun_writes_each_line_once(world: tuple, tmp_path: Path) -> None:
    root, home, seed, expected, points = world
    for k in range(1, points + 1):
        memory = tmp_path / f"kill-{k}"
        shutil.copytree(seed, memory)
        code, _ = trial(root, home, memory, HINDSIGHT_FAULT=f"kill:{k}")
        assert code == 137, k
        assert trial(root, home, memory) == (0, ""), k
        got = outcome(memory)
        assert got == expected, f"killed at step {k}: {sorted(set(got) ^ set(expected))}"


def test_an_error_at_any_step_leaves_memory_as_it_was(world: tuple, tmp_path: Path) -> None:
    root, home, seed, expected, points = world
    before = (seed / "MEMORY.md").read_bytes()
    failed = 0
    for k in range(1, points + 1):
        memory = tmp_path / f"error-{k}"
        shutil.copytree(seed, memory)
        code, err = trial(root, home, memory, HINDSIGHT_FAULT=f"error:{k}")
        if code != 0:
            failed += 1
            assert code == 1, (k, err)
            assert err.startswith("hindsight: error: ") and err.count("\n") == 1, err
            assert "No space left on device" in err
            assert (memory / "MEMORY.md").read_bytes() == before, k
        assert trial(root, home, memory) == (0, ""), k
        assert outcome(memory) == expected, k
    assert failed >= points - 4  # all but the steps after the last change (the run's log)


def test_a_folder_where_the_report_goes_stops_the_run_before_any_change(
    world: tuple, tmp_path: Path
) -> None:
    root, home, seed, _, _ = world
    memory = tmp_path / "memory"
    shutil.copytree(seed, memory)
    (memory / "hindsight" / "reports" / "2026-11-30.md").mkdir(parents=True)
    code, err = trial(root, home, memory)
    assert code == 1
    assert err.endswith("reports/2026-11-30.md is a folder, expected a file\n")
    assert (memory / "MEMORY.md").read_text() == hand_block()
    assert not (memory / "MEMORY.archive.md").exists()


def test_a_read_only_report_folder_stops_the_run_before_any_change(open_tmp: Path) -> None:
    root, _, home = install_recording(open_tmp)
    memory = open_tmp / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(hand_block())
    (memory / "hindsight" / "reports").mkdir(parents=True)
    open_up(open_tmp)
    (memory / "hindsight" / "reports").chmod(0o555)
    code, err = trial(root, home, memory, wrap=AS_NOBODY, **GIT_ANY_OWNER)
    assert code == 1, err
    assert (
        err == f"hindsight: error: cannot write in {memory}/hindsight/reports: Permission denied\n"
    )
    assert (memory / "MEMORY.md").read_text() == hand_block()
    assert not (memory / "MEMORY.archive.md").exists()


def test_a_journal_left_by_a_crash_is_finished_by_the_next_writer(tmp_path: Path) -> None:
    from datetime import date

    from hindsight.memory import Entry, MemoryStore

    store = MemoryStore(tmp_path)
    (tmp_path / "hindsight").mkdir()
    line = Entry.make("Left half-done", "by a killed run", "fix", date(2026, 11, 30)).line()
    intent = txn.Intent(date(2026, 11, 30), add=[line], report="\n## 10:00 run\n\n- x\n")
    (tmp_path / "hindsight" / "journal.json").write_bytes(intent.to_json())
    store.add([Entry.make("Next", "a later add", "trap", date(2026, 11, 30))])
    assert [x.split("**")[1] for x in store.read().lines] == ["Next", "Left half-done"]
    assert (tmp_path / "hindsight" / "reports" / "2026-11-30.md").read_text().count("10:00") == 1
    assert not (tmp_path / "hindsight" / "journal.json").exists()
