"""The memory commands through the real CLI, in a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from hindsight.memory import END, START


def test_add_show_duplicate(tmp_path: Path) -> None:
    d = str(tmp_path)
    done = run_cli(
        "memory",
        "add",
        "--memory-dir",
        d,
        "--title",
        "Use `make check`",
        "--body",
        "no test target",
        "--kind",
        "fix",
        env={"HINDSIGHT_NOW": "2026-11-30T12:00:00Z"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("added to ")
    dup = run_cli(
        "memory", "add", "--memory-dir", d, "--title", "use make CHECK", "--body", "again"
    )
    assert dup.returncode == 0
    assert dup.stdout.startswith("not added: an entry titled like 'use make CHECK' is already")
    shown = run_cli("memory", "show", "--memory-dir", d)
    assert shown.stdout == "- **Use `make check`** (2026-11-30) no test target [fix]\n"
    as_json = json.loads(run_cli("memory", "show", "--memory-dir", d, "--json").stdout)
    assert as_json["entries"] == [
        {"title": "Use `make check`", "date": "2026-11-30", "body": "no test target", "kind": "fix"}
    ]
    assert run_cli("memory", "check", "--memory-dir", d).returncode == 0


def test_too_big_entry_exits_one(tmp_path: Path) -> None:
    done = run_cli(
        "memory",
        "add",
        "--memory-dir",
        str(tmp_path),
        "--title",
        "T",
        "--body",
        "x" * 300,
        "--max-bytes",
        "200",
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "does not fit the cap of 200 bytes" in done.stderr
    assert not (tmp_path / "MEMORY.md").exists()


def test_malformed_block_exits_one_untouched(tmp_path: Path) -> None:
    text = f"mine\n{END}\n{START}\n"
    (tmp_path / "MEMORY.md").write_text(text)
    for args in (["add", "--title", "T", "--body", "B"], ["prune"], ["check"]):
        done = run_cli("memory", *args, "--memory-dir", str(tmp_path))
        assert done.returncode == 1, args
        assert done.stderr.startswith("hindsight: error: ") and done.stderr.count("\n") == 1
        assert "end marker (line 2) comes before start marker (line 3)" in done.stderr
    assert (tmp_path / "MEMORY.md").read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]


def test_check_lists_problems(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text(f"{START}\n- **A** (2026-01-01) b [bogus]\n{END}\n")
    done = run_cli("memory", "check", "--memory-dir", str(tmp_path))
    assert done.returncode == 1
    assert done.stdout.strip().endswith("entry 1 (A): unknown kind [bogus]")


def test_prune_cli(tmp_path: Path) -> None:
    d = str(tmp_path)
    for n in range(5):
        assert (
            run_cli(
                "memory", "add", "--memory-dir", d, "--title", f"L{n}", "--body", "b" * 50
            ).returncode
            == 0
        )
    done = run_cli("memory", "prune", "--memory-dir", d, "--max-bytes", "210")
    assert done.returncode == 0
    assert done.stdout.startswith("pruned 3 entries to ")
    assert [
        ln.split("**")[1] for ln in run_cli("memory", "show", "--memory-dir", d).stdout.splitlines()
    ] == ["L4", "L3"]


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert run_cli("memory", "add", "--title", "only").returncode == 2
    assert (
        run_cli(
            "memory",
            "add",
            "--memory-dir",
            str(tmp_path),
            "--title",
            "t",
            "--body",
            "b",
            "--kind",
            "nope",
        ).returncode
        == 2
    )
    assert run_cli("nosuchcommand").returncode == 2
    assert run_cli().returncode == 2


def test_options_after_command_name_everywhere() -> None:
    for cmd in (
        ["run"],
        ["scan"],
        ["digest"],
        ["apply", "x"],
        ["commit"],
        ["memory", "show"],
        ["schema"],
        ["install"],
        ["hook", "session-end"],
        ["status"],
        ["selfcheck"],
    ):
        done = run_cli(*cmd, "--help")
        assert done.returncode == 0, cmd
        assert "--memory-dir DIR" in done.stdout and "--claude-home DIR" in done.stdout
        assert "examples:" in done.stdout


def test_selfcheck_cli() -> None:
    done = run_cli("selfcheck")
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("\nok    ") + done.stdout.startswith("ok    ") == 6
    assert done.stdout.endswith("selfcheck passed\n")
