"""--target: the same block, cap, dedup and guard in the repository's AGENTS.md and GEMINI.md; their
archives and hindsight's state stay in hindsight's own folder; the user's text around a block is
kept byte for byte; AGENTS.md's block makes room within the 32 KiB Codex reads."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import example_options, run_cli
from hindsight import example, targets

NOTES = "# Agents\r\n\r\nRun `make check` before pushing.\r\n"


def _untracked(root: Path) -> list[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(line[3:] for line in out.splitlines())


def test_all_targets_get_one_block_each_and_a_rerun_adds_nothing(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    (ex.root / "AGENTS.md").write_bytes(NOTES.encode())
    done = run_cli("run", "--target", "all", "--json", *example_options(tmp_path, ex))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["lessons_added"] == 5
    assert {k: v["added"] for k, v in summary["targets"].items()} == {
        "agents-md": 5,
        "gemini-md": 5,
    }
    memory = (tmp_path / "memory" / "MEMORY.md").read_text()
    agents = (ex.root / "AGENTS.md").read_bytes().decode()
    gemini = (ex.root / "GEMINI.md").read_text()
    block = memory[memory.index("<!-- hindsight:start -->") :]
    # The same block, on top; the user's notes after it, byte for byte (CRLF kept).
    assert agents.replace("\r\n", "\n").startswith(block.replace("\r\n", "\n").rstrip("\n"))
    assert agents.endswith(NOTES) and gemini == block
    # Only the two memory files are new in the repository: no archive, state or report there.
    assert _untracked(ex.root) == ["AGENTS.md", "GEMINI.md"]
    again = run_cli(
        "run", "--target", "all", "--since", "3d", "--json", *example_options(tmp_path, ex)
    )
    rerun = json.loads(again.stdout)
    assert rerun["lessons_added"] == 0 and all(v["added"] == 0 for v in rerun["targets"].values())
    assert (ex.root / "AGENTS.md").read_bytes().decode() == agents
    checked = run_cli("memory", "check", "--target", "all", *example_options(tmp_path, ex))
    assert checked.returncode == 0 and checked.stdout.count(": ok (5 entries)") == 3


def test_agents_md_block_fits_the_32_kib_codex_reads(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    notes = "x" * 80 + "\n"
    (ex.root / "AGENTS.md").write_text(notes * 394)  # 31,914 bytes of the team's own notes
    done = run_cli(
        "run", "--target", "agents-md", "--max-new", "20", "--json", *example_options(tmp_path, ex)
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)["targets"]["agents-md"]
    size = (ex.root / "AGENTS.md").stat().st_size
    assert size <= targets.AGENTS_MD_LIMIT and row["added"] >= 1
    # What did not fit was never in memory: it stays in the report, not in any archive.
    archive = tmp_path / "memory" / "hindsight" / "archives" / "agents-md.md"
    assert row["pruned"] == 0 and row["no_room"] >= 1 and not archive.exists()
    # --target agents-md alone leaves MEMORY.md alone.
    assert not (tmp_path / "memory" / "MEMORY.md").exists()


def test_no_room_in_agents_md_is_one_error_and_nothing_written(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    (ex.root / "AGENTS.md").write_text("y" * 32_760)
    done = run_cli("run", "--target", "all", *example_options(tmp_path, ex))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "no room for hindsight's block" in done.stderr
    assert (ex.root / "AGENTS.md").read_text() == "y" * 32_760
    assert not (tmp_path / "memory" / "MEMORY.md").exists()
    assert not (ex.root / "GEMINI.md").exists()


def test_a_malformed_block_in_gemini_md_writes_nothing(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    (ex.root / "GEMINI.md").write_text("<!-- hindsight:start -->\n- **a** (2026-01-01) b [trap]\n")
    done = run_cli("run", "--target", "all", *example_options(tmp_path, ex))
    assert done.returncode == 1 and "GEMINI.md" in done.stderr
    assert not (ex.root / "AGENTS.md").exists()
    assert not (tmp_path / "memory" / "MEMORY.md").exists()


def test_memory_add_and_show_on_agents_md(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    where = example_options(tmp_path, ex)
    args = ["--title", "Tests need PGHOST=/tmp", "--body", "Set it first.", "--kind", "fix"]
    added = run_cli("memory", "add", "--target", "agents-md", *args, *where)
    assert added.returncode == 0 and str(ex.root / "AGENTS.md") in added.stdout
    again = run_cli("memory", "add", "--target", "agents-md", *args, *where)
    assert again.stdout.startswith("not added")
    shown = json.loads(run_cli("memory", "show", "--target", "agents-md", "--json", *where).stdout)
    assert [e["title"] for e in shown["entries"]] == ["Tests need PGHOST=/tmp"]
    assert not (tmp_path / "memory" / "MEMORY.md").exists()
