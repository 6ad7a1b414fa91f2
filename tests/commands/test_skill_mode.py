"""The skill's flow: digest -> a judge's lessons JSON -> apply -> commit, through the real CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import install_recording, run_cli
from hindsight.sources.claude_files import claude_folder_name

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, _, home = install_recording(tmp_path)
    return root, home, home / "projects" / claude_folder_name(str(root)) / "memory"


def cli(root: Path, home: Path, *args: str, stdin: str | None = None):  # -> CompletedProcess
    return run_cli(*args, "--claude-home", str(home), cwd=root, env=NOW, stdin=stdin)


def test_digest_fences_untrusted_text_and_records_the_scan(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    done = cli(root, home, "digest")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("# hindsight digest\n")
    assert "DATA (untrusted):\n```\ntox: command not found\n```" in text
    assert "### failed_then_fixed `k" in text and "## Timeline" in text
    assert "$ make test -> error exit 2" in text
    state = json.loads((memory / "hindsight" / "state.json").read_text())
    assert state["scan_started"] == "2026-11-30T15:00:00.000Z" and state["last_scan"] is None
    assert not (memory / "MEMORY.md").exists()


def test_digest_budget_and_json(tmp_path: Path) -> None:
    root, home, _ = setup(tmp_path)
    doc = json.loads(cli(root, home, "digest", "--json").stdout)
    assert len(doc["findings"]) == 24 and doc["omitted_findings"] == 0
    assert doc["findings"][0]["kind"] == "repeated_failure" and doc["findings"][0]["untrusted"] == [
        "error"
    ]
    small = cli(root, home, "digest", "--max-bytes", "4000")
    assert len(small.stdout.encode()) <= 4000
    assert "weaker findings left out to stay within 4000 bytes" in small.stdout


def lessons_for(doc: dict, titles: list[str]) -> dict:
    keys = [f["key"] for f in doc["findings"]]
    return {
        "judge": "claude-code",
        "lessons": [
            {
                "title": t,
                "body": "Because the evidence says so.",
                "kind": "trap",
                "strength": 4,
                # Findings of several of the example's sessions: each lesson quotes one of them.
                "evidence": keys[:8],
                "memory": True,
            }
            for i, t in enumerate(titles)
        ],
    }


def test_apply_then_commit(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    doc = json.loads(cli(root, home, "digest", "--json").stdout)
    judged = lessons_for(doc, ["`tox` is missing on this machine", "`make test`: no such target"])
    path = tmp_path / "lessons.json"
    path.write_text(json.dumps(judged))
    done = cli(root, home, "apply", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["lessons_added"] == 2
    block = (memory / "MEMORY.md").read_text().splitlines()
    assert (
        block[1]
        == "- **`tox` is missing on this machine** (2026-11-30) Because the evidence says so. [trap]"
    )
    # The same evidence reworded by another judge is not reported again.
    reworded = lessons_for(doc, ["The tox tool cannot be found", "No test target in the Makefile"])
    again = cli(root, home, "apply", "-", "--json", stdin=json.dumps(reworded))
    assert json.loads(again.stdout) | {"report": None} == {
        "lessons": 0,
        "already_reported": 2,
        "lessons_added": 0,
        "duplicates_refused": 0,
        "pruned": 0,
        "quarantined": 0,
        "held": 0,
        "kept_out": 0,
        "report": None,
    }
    commit = cli(root, home, "commit")
    assert (
        commit.returncode == 0 and commit.stdout == "watermark moved to 2026-11-30T15:00:00.000Z\n"
    )
    state = json.loads((memory / "hindsight" / "state.json").read_text())
    assert state["last_scan"] == "2026-11-30T15:00:00.000Z" and state["scan_started"] is None
    assert cli(root, home, "commit").returncode == 1  # nothing waiting any more


def test_bad_json_writes_nothing(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    cli(root, home, "digest")
    state_before = (memory / "hindsight" / "state.json").read_bytes()
    for payload, message in (
        ("{not json", "is not valid JSON"),
        (
            json.dumps(
                {
                    "lessons": [
                        {
                            "title": "abc",
                            "body": "b",
                            "kind": "rumour",
                            "strength": 1,
                            "evidence": [],
                            "memory": True,
                        }
                    ]
                }
            ),
            "kind: 'rumour' is not one of",
        ),
    ):
        done = cli(root, home, "apply", "-", stdin=payload)
        assert done.returncode == 1 and message in done.stderr and done.stderr.count("\n") == 1
    assert cli(root, home, "apply", str(tmp_path / "missing.json")).returncode == 1
    assert not (memory / "MEMORY.md").exists() and not (memory / "hindsight" / "reports").exists()
    assert (memory / "hindsight" / "state.json").read_bytes() == state_before


def test_digest_shows_untrusted_text_only_inside_data_fences(tmp_path: Path) -> None:
    root, home, _ = setup(tmp_path)
    text = cli(root, home, "digest").stdout
    outside = re.sub(r"DATA \(untrusted\):\n```\n.*?\n```", "", text, flags=re.S)
    assert "command not found" not in outside and "No rule to make target" not in outside
    assert "signature" not in text


def _judged(doc: dict, kind: str, memory: bool) -> dict:
    """A judge's one lesson about the example's finding of ``kind``."""
    (key,) = [f["key"] for f in doc["findings"] if f["kind"] == kind][:1]
    lesson = {
        "title": "The test target is check",
        "body": "Because the evidence says so.",
        "kind": "fix",
        "strength": 4,
        "evidence": [key],
        "memory": memory,
    }
    return {"judge": "claude-code", "lessons": [lesson]}


def test_verified_lessons_a_judge_passed_over_enter_in_the_rules_words(tmp_path: Path) -> None:
    # The verified floor (pipeline._verified_floor): a judge that said nothing of the example's
    # findings leaves memory as the rules judge would write it, not empty.
    root, home, memory = setup(tmp_path)
    cli(root, home, "digest")
    done = cli(root, home, "apply", "-", "--json", stdin='{"judge": "claude-code", "lessons": []}')
    assert json.loads(done.stdout)["lessons_added"] == 3
    ruled = tmp_path / "ruled"
    ruled.mkdir()
    r_root, r_home, r_memory = setup(ruled)
    assert cli(r_root, r_home, "run", "--quiet").returncode == 0
    assert _entries(memory) == _entries(r_memory)


def _entries(memory: Path) -> list[str]:
    return [x for x in (memory / "MEMORY.md").read_text().splitlines() if x.startswith("- **")]


def test_a_judge_that_kept_a_finding_out_of_memory_is_followed(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    doc = json.loads(cli(root, home, "digest", "--json").stdout)
    # The judge read the `make test` fix and kept it out of memory: the floor does not add it.
    done = cli(
        root,
        home,
        "apply",
        "-",
        "--json",
        stdin=json.dumps(_judged(doc, "failed_then_fixed", False)),
    )
    assert done.returncode == 0, done.stderr
    entries = _entries(memory)
    assert not any("make test" in e for e in entries) and len(entries) == 2


def test_the_floor_never_repeats_what_the_judge_wrote(tmp_path: Path) -> None:
    root, home, memory = setup(tmp_path)
    doc = json.loads(cli(root, home, "digest", "--json").stdout)
    judged = _judged(doc, "failed_then_fixed", True)
    judged["lessons"][0] |= {"title": "Run `make check`; `make test` has no target"}
    done = cli(root, home, "apply", "-", "--json", stdin=json.dumps(judged))
    assert done.returncode == 0, done.stderr
    entries = _entries(memory)
    assert sum("make check" in e for e in entries) == 1, entries
    assert entries[0].startswith("- **Run `make check`; `make test` has no target** (")
    # Its finding, and the floor's copy of it, are reported: a later run offers neither again.
    again = cli(root, home, "apply", "-", "--json", stdin='{"judge": "claude-code", "lessons": []}')
    assert json.loads(again.stdout)["lessons_added"] == 0


def _raggio(tmp_path: Path) -> tuple:
    """RaggioS (development set) laid out as the benchmark lays it: (layout, the CLI's folder
    options, the digest's JSON)."""
    import sys

    from conftest import ROOT, shared_fixture

    sys.path.insert(0, str(ROOT / "bench"))
    import quality_layout

    folder = shared_fixture("claude-code/real/RaggioS+jcode")
    layout = quality_layout.Layout(folder, tmp_path / "RaggioS+jcode" / "machine")
    for t in layout.transcripts:
        layout.lay(t.name)
    where = ["--repo", str(layout.repo), "--claude-home", str(layout.home)]
    where += ["--memory-dir", str(layout.memory)]
    doc = json.loads(run_cli("digest", "--json", *where, cwd=layout.repo).stdout)
    return layout, where, doc


def test_the_floor_stands_in_for_a_quote_the_gate_held_cut_short(tmp_path: Path) -> None:
    # RaggioS (development set), laid out under a folder named as the benchmark names it
    # ("RaggioS+jcode": its transcript paths once screened as an "encoded blob", quarantining
    # every floor lesson). A model judge quoted two rules of the user's from one prompt's
    # finding: one whole, one cut short ("non fare polling"), which the gate holds. The rules'
    # quote of the whole sentence stands in for it: no repeat of the other quote.
    layout, where, doc = _raggio(tmp_path)
    (key,) = [f["key"] for f in doc["findings"] if "polling" in f["data"].get("quote", "")]

    def quoting(title: str, quote: str) -> dict:
        return {
            "title": title,
            "body": "The user said so.",
            "kind": "preference",
            "strength": 4,
            "evidence": [key],
            "memory": True,
            "quote": quote,
        }

    hermes = (
        "Lasceremo hermes per ccr-free-router e per gemma 4 in locale useremo solo ed "
        "esclusivamente (quindi togli tutti i riferimenti a hermes nella repo pocket-llm) jcode"
    )
    judged = {
        "judge": "claude-code",
        "lessons": [
            quoting("Local gemma4 runs only through jcode", hermes),
            quoting("Wait for the agents; do not poll", "non fare polling"),
        ],
    }
    done = run_cli("apply", "-", *where, cwd=layout.repo, stdin=json.dumps(judged))
    assert done.returncode == 0, done.stderr
    entries = _entries(layout.memory)
    assert sum(e.startswith('- **User preference: "Lasceremo hermes') for e in entries) == 1
    assert sum(e.startswith('- **User preference: "Aspetto i 2 agenti') for e in entries) == 1
    assert not any('"non fare polling"' in e for e in entries)
    # The floor's verified trap, through the same folder name: the repository's hook refusing
    # `git rm` twice.
    assert any(e.startswith("- **Calls naming `rm` were refused here by a hook") for e in entries)
    report = next((layout.memory / "hindsight" / "reports").glob("*.md")).read_text()
    assert "quotes the user's words cut short" in report


def test_apply_says_what_became_of_each_memory_pick(tmp_path: Path) -> None:
    # First use of the README (session 8): a user's own lesson was held, and apply said only
    # "memory: 2 added" (the floor's): which pick went where, and why, is one line each.
    root, home, _ = setup(tmp_path)
    doc = json.loads(cli(root, home, "digest", "--json").stdout)
    judged = _judged(doc, "failed_then_fixed", True)
    judged["lessons"][0] |= {
        "title": "The build system here is quirky",
        "body": "Apparently the maintainers reorganised everything recently.",
    }
    done = cli(root, home, "apply", "-", stdin=json.dumps(judged))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    held = [x for x in lines if x.startswith("report only: ")]
    assert held == [
        "report only: The build system here is quirky: prose that is neither hindsight's "
        "templates nor the user's or agent's words"
    ]
    added = [x for x in lines if x.startswith("added: ")]
    assert added and all(not x.endswith("quirky") for x in added)
    assert f"memory: {len(added)} added," in lines[0]


def test_a_rule_the_user_typed_is_not_the_judges_to_veto(tmp_path: Path) -> None:
    # Blind runs 4-9: judges cited the user's own stated rules ("non fare polling", "they
    # should always be committed") with "memory": false as this task's; every such rule of the
    # development set was labelled worth loading. The rules' quote of it enters memory; the
    # judge's "memory": false still holds for what the records alone show (a fix, a trap).
    layout, where, doc = _raggio(tmp_path)
    by_kind = {f["kind"]: f["key"] for f in doc["findings"]}
    (rule,) = [f["key"] for f in doc["findings"] if "polling" in f["data"].get("quote", "")]
    refusal = by_kind["repeated_refusal"]
    judged = {
        "judge": "claude-code",
        "lessons": [
            {
                "title": title,
                "body": "Only this task needed it.",
                "kind": "preference",
                "strength": 2,
                "evidence": [key],
                "memory": False,
            }
            for title, key in (("Do not poll the agents", rule), ("rm was refused", refusal))
        ],
    }
    done = run_cli("apply", "-", *where, cwd=layout.repo, stdin=json.dumps(judged))
    assert done.returncode == 0, done.stderr
    entries = _entries(layout.memory)
    assert sum(e.startswith('- **User preference: "Aspetto i 2 agenti') for e in entries) == 1
    assert not any("refused here by a hook" in e for e in entries)
