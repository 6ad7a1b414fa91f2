"""One memory for a repository, whichever agent worked in it: sessions recorded with the real Claude
Code, Codex CLI and Gemini CLI, in the main checkout and a linked worktree, read by one run of the
real CLI into one MEMORY.md; a rerun adds nothing."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from conftest import example_options, run_cli
from hindsight import example

SECRET = "sk-proj-Zq8vR2mN5tY7wK3pL9xC4bH6jD1fG0sA"  # planted in a recorded Codex command

# One lesson of each agent's sessions, as the rules judge words it.
FROM_CLAUDE = "**`make test` has no target here; use `make check`**"
FROM_CODEX = "**`make format` has no target here; use `make fmt-check`**"
# The Codex worktree session's correction was sent with ``codex exec resume``: a program's prompt,
# not words typed into the TUI, so no preference is learned from it (issue #11, SDK prompts).
CODEX_EXEC_CORRECTION = "no, use conf/settings.ini instead"
FROM_GEMINI = "**`make unit` has no target here; use `make check`**"


def test_scan_lists_every_agents_sessions_of_root_and_worktree(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    done = run_cli("scan", "--json", *example_options(tmp_path, ex))
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["transcripts"]
    assert Counter(r["agent"] for r in rows) == {"claude-code": 6, "codex": 2, "gemini": 2}
    cwds = {(r["agent"], r["cwd"]) for r in rows if r["agent"] != "claude-code"}
    assert cwds == {
        ("codex", str(ex.root)),
        ("codex", str(ex.worktree)),
        ("gemini", str(ex.root)),
        ("gemini", str(ex.worktree)),
    }
    status = json.loads(run_cli("status", "--json", *example_options(tmp_path, ex)).stdout)
    assert status["homes"] == {
        "claude-code": str(ex.claude_home),
        "codex": str(tmp_path / "codex-home"),
        "gemini": str(tmp_path / "gemini-home"),
    }
    text = run_cli("scan", *example_options(tmp_path, ex)).stdout
    assert sum(line.lstrip().startswith("codex ") for line in text.splitlines()) == 2


def test_one_memory_from_three_agents_and_a_rerun_adds_nothing(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    first = run_cli("run", "--max-new", "20", "--json", *example_options(tmp_path, ex))
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["sessions_read"] == 10
    memory = tmp_path / "memory" / "MEMORY.md"
    block = memory.read_text(encoding="utf-8")
    for lesson in (FROM_CLAUDE, FROM_CODEX, FROM_GEMINI):
        assert block.count(lesson) == 1, lesson
    [report] = (tmp_path / "memory" / "hindsight" / "reports").glob("*.md")
    text = report.read_text(encoding="utf-8")
    assert CODEX_EXEC_CORRECTION not in block  # found, and held in the report by the gate
    held = text.split(f'User preference: "{CODEX_EXEC_CORRECTION}"', 1)[0].rsplit("\n", 8)[-7:]
    assert any("Report only" in line for line in held), held
    assert "(claude-code 6, codex 2, gemini 2)" in text
    # The Gemini worktree session's long search is report-only now (memory admits verified fixes,
    # the user's words and repeats): no search lesson reaches the block.
    assert "[search]" not in block and "Report only (search" in text
    # Each piece of evidence names the agent whose transcript it points into.
    evidence = [line for line in text.splitlines() if line.lstrip().startswith("Evidence: ")]
    assert any("gemini `" in line and "/gemini-home/tmp/" in line for line in evidence)
    assert any("codex `" in line and "/codex-home/sessions/" in line for line in evidence)
    assert all(
        ("codex-home" in part) == part.startswith("codex `")
        for line in evidence
        for part in line.split("Evidence: ", 1)[1].split(", ")
    )
    # The token planted in a Codex command is nowhere hindsight wrote or printed.
    written = [p.read_bytes() for p in (tmp_path / "memory").rglob("*") if p.is_file()]
    assert not any(SECRET.encode() in b for b in written) and SECRET not in first.stdout
    assert "[REDACTED:" in text

    before = {p: p.read_bytes() for p in (tmp_path / "memory").rglob("*.md")}
    again = run_cli(
        "run", "--max-new", "20", "--since", "3d", "--json", *example_options(tmp_path, ex)
    )
    assert again.returncode == 0, again.stderr
    rerun = json.loads(again.stdout)
    assert (rerun["sessions_read"], rerun["lessons_added"]) == (10, 0)
    assert {p: p.read_bytes() for p in (tmp_path / "memory").rglob("*.md")} == before


def test_the_watermark_holds_for_every_agent(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    assert run_cli("run", "--json", *example_options(tmp_path, ex)).returncode == 0
    quiet = json.loads(run_cli("run", "--json", *example_options(tmp_path, ex)).stdout)
    assert quiet["sessions_read"] == 0
    # A resumed Gemini chat grows: the next run reads that session alone.
    [chat] = (tmp_path / "gemini-home" / "tmp" / "acme-app-v2" / "chats").glob("*.jsonl")
    with chat.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"$set": {"lastUpdated": "2026-11-30T23:00:00.000Z"}}) + "\n")
    scan = json.loads(run_cli("scan", "--json", *example_options(tmp_path, ex)).stdout)
    assert [(r["agent"], r["path"]) for r in scan["transcripts"]] == [("gemini", str(chat))]
