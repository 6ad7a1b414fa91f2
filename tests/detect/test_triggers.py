"""Triggers met in earlier runs: a hook's run (one session) sees a failure or a refusal of an
earlier session again, from state.json's ids and hashes alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import ROOT, Script, run_cli, session_from_records, shared_fixture
from hindsight import state
from hindsight.detect import Options, failures, triggers
from hindsight.sources.base import Transcript
from hindsight.sources.claude_code import ClaudeCodeSource

RICKITHADI = "claude-code/real/rickithadi+uluwatu-surf-school"
FIRST, SECOND = "75b021c4", "cba2adf3"  # the order the sessions ended in


def _session(folder: Path, prefix: str):  # -> Session
    (path,) = folder.glob(f"{prefix}*.jsonl")
    return ClaudeCodeSource().read(Transcript(path, "claude-code", path.stem, 0, 0), [])


def test_a_refusal_met_in_an_earlier_run_is_the_same_trigger_again() -> None:
    folder = shared_fixture(RICKITHADI)
    first, second = _session(folder, FIRST), _session(folder, SECOND)
    # Each session alone: one refusal each, no repeat.
    assert list(failures.repeated_refusals([first], Options())) == []
    assert list(failures.repeated_refusals([second], Options())) == []
    saved = state.merge_triggers({}, failures.met([first], "2026-12-01T10:00:00.000Z"))
    (found,) = failures.repeated_refusals([second], Options(triggers=saved))
    assert (found.data["word"], found.data["is_program"]) == ("rm", True)
    assert (found.data["sessions"], found.data["times"]) == (2, 2)
    assert [w.path.name for w in found.where] == [second.path.name]  # this run's evidence only
    # The same session read again (a watermark not moved) is no second session.
    assert list(failures.repeated_refusals([first], Options(triggers=saved))) == []


def test_what_is_kept_is_ids_and_hashes_never_text() -> None:
    folder = shared_fixture(RICKITHADI)
    met = failures.met([_session(folder, FIRST)], "2026-12-01T10:00:00.000Z")
    text = json.dumps(met)
    assert '"rm"' not in text and "rm -rf" not in text
    assert "Dangerous" not in text and ".next" not in text and "sitemap" not in text
    assert all(k.startswith("k") and len(k) == 21 for k in met)
    ids = {i for t in met.values() for i in t["sessions"]}
    assert ids == {_session(folder, FIRST).session_id}


def test_a_failure_met_in_an_earlier_run_is_repeated(tmp_path: Path) -> None:
    def failing(name: str):  # -> Session
        s = Script().bash("make deploy", 0, 1, 2, "make: *** No rule to make target 'deploy'.")
        return session_from_records(tmp_path, s.records, name)

    one, two = failing("one"), failing("two")
    assert list(failures.repeated_failures([two], Options())) == []
    saved = state.merge_triggers({}, failures.met([one], "2026-12-01T10:00:00.000Z"))
    (found,) = failures.repeated_failures([two], Options(triggers=saved))
    assert (found.data["sessions"], found.data["times"]) == (2, 2)
    # Within one run the same two sessions give the same numbers.
    (batch,) = failures.repeated_failures([one, two], Options())
    assert (batch.data["sessions"], batch.data["times"]) == (2, 2)


def test_hook_runs_one_session_each_put_the_refusal_in_memory(tmp_path: Path) -> None:
    """Two runs through the real CLI, each reading one real session (what the SessionEnd hook
    does): the second admits the rule met in both. A dry run records no trigger."""
    sys.path.insert(0, str(ROOT / "bench"))
    import quality_layout

    layout = quality_layout.Layout(shared_fixture(RICKITHADI), tmp_path)
    where = ["--repo", str(layout.repo), "--claude-home", str(layout.home)]
    where += ["--memory-dir", str(layout.memory)]
    assert [t.name[:8] for t in layout.transcripts] == [FIRST, SECOND]
    layout.lay(layout.transcripts[0].name)
    done = run_cli("run", *where, "--quiet", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert state.load(layout.memory).triggers == {}
    done = run_cli("run", *where, "--quiet")
    assert done.returncode == 0, done.stderr
    memory = layout.memory / "MEMORY.md"
    assert "refused here" not in (memory.read_text() if memory.exists() else "")
    assert len(state.load(layout.memory).triggers) >= 1
    layout.lay(layout.transcripts[1].name)
    done = run_cli("run", *where, "--quiet", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sessions_read"] == 1
    assert "Commands running `rm` were refused here by a hook" in memory.read_text()


def test_trigger_keys_are_stable_and_distinct() -> None:
    assert triggers.key(triggers.FAILURE, "x") == triggers.key(triggers.FAILURE, "x")
    assert triggers.key(triggers.FAILURE, "x") != triggers.key(triggers.REFUSAL, "x")
    assert triggers.hashed(["rm", "rm", "cd"]) == sorted(set(triggers.hashed(["cd", "rm"])))
