"""The ledger through the real CLI: every lesson has an id and a life, across reruns."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import example_options, run_cli
from hindsight import example, ledger
from hindsight.memory import START

NOW = {"HINDSIGHT_NOW": "2026-12-02T10:00:00Z"}


def cli(tmp_path: Path, ex: object, *args: str) -> tuple[int, str, str]:
    done = run_cli(*args, *example_options(tmp_path, ex), env=NOW)
    return done.returncode, done.stdout, done.stderr


def lessons(tmp_path: Path, ex: object, *extra: str) -> list[dict[str, object]]:
    code, out, err = cli(tmp_path, ex, "memory", "list", "--json", *extra)
    assert code == 0, err
    return list(json.loads(out)["lessons"])


def block(tmp_path: Path) -> str:
    return (tmp_path / "memory" / "MEMORY.md").read_text()


@pytest.fixture
def ran(tmp_path: Path) -> object:
    ex = example.install(tmp_path)
    code, _, err = cli(tmp_path, ex, "run", "--since", "3650d")
    assert code == 0, err
    return ex


def test_a_run_records_every_lesson_with_its_state(tmp_path: Path, ran: object) -> None:
    listed = lessons(tmp_path, ran)
    in_memory = [x for x in listed if x["state"] == "memory"]
    text = block(tmp_path)
    assert in_memory and all(f"**{x['title']}**" in text for x in in_memory)
    assert {x["state"] for x in listed} <= set(ledger.STATES)
    assert all(len(str(x["id"])) == 8 and x["evidence"] for x in in_memory)
    assert [x["title"] for x in lessons(tmp_path, ran, "--state", "memory")] == [
        x["title"] for x in in_memory
    ]
    # Plain listing: one line each, the id first.
    code, out, _ = cli(tmp_path, ran, "memory", "list")
    assert code == 0 and out.count("\n") == len(listed)
    assert out.split()[0] == listed[0]["id"]


def test_remove_takes_it_out_and_a_rerun_without_new_evidence_leaves_it_out(
    tmp_path: Path, ran: object
) -> None:
    first = next(x for x in lessons(tmp_path, ran) if x["state"] == "memory")
    code, out, _ = cli(tmp_path, ran, "memory", "remove", str(first["id"]))
    assert code == 0 and out.startswith("removed from memory: ")
    assert f"**{first['title']}**" not in block(tmp_path)
    # The same sessions read again: no new evidence, it stays out.
    state = tmp_path / "memory" / "hindsight" / "state.json"
    state.unlink()
    code, _, err = cli(tmp_path, ran, "run", "--since", "3650d")
    assert code == 0, err
    assert f"**{first['title']}**" not in block(tmp_path)
    again = next(x for x in lessons(tmp_path, ran) if x["id"] == first["id"])
    assert again["state"] == "removed"


def test_forget_then_promote_refused_and_an_unknown_ref_is_one_error(
    tmp_path: Path, ran: object
) -> None:
    first = next(x for x in lessons(tmp_path, ran) if x["state"] == "memory")
    before = block(tmp_path)
    code, out, _ = cli(tmp_path, ran, "memory", "forget", str(first["title"]))
    assert code == 0 and out.startswith("forgotten: ")
    assert f"**{first['title']}**" not in block(tmp_path)
    assert len(block(tmp_path)) < len(before)
    code, _, err = cli(tmp_path, ran, "memory", "promote", str(first["id"]))
    assert code == 1 and err.count("\n") == 1 and "was forgotten" in err
    unchanged = block(tmp_path)
    code, _, err = cli(tmp_path, ran, "memory", "remove", "no such lesson at all")
    assert code == 1 and err.count("\n") == 1 and "no lesson with the id or title" in err
    assert block(tmp_path) == unchanged


def test_promote_puts_a_report_only_lesson_into_memory(tmp_path: Path, ran: object) -> None:
    reported = next(x for x in lessons(tmp_path, ran) if x["state"] == "report")
    code, out, err = cli(tmp_path, ran, "memory", "promote", str(reported["id"]))
    assert code == 0, err
    assert out == f"promoted into memory: {reported['title']}\n"
    assert f"**{reported['title']}**" in block(tmp_path).split("\n")[1]  # on top
    now = next(x for x in lessons(tmp_path, ran) if x["id"] == reported["id"])
    assert now["state"] == "memory" and now["origin"] == "promoted"


def test_an_entry_deleted_by_hand_is_forgotten_and_never_added_back(
    tmp_path: Path, ran: object
) -> None:
    path = tmp_path / "memory" / "MEMORY.md"
    lines = path.read_text().split("\n")
    victim = lines[1]
    path.write_text("\n".join(line for line in lines if line != victim))
    (tmp_path / "memory" / "hindsight" / "state.json").unlink()  # every finding is new again
    code, _, err = cli(tmp_path, ran, "run", "--since", "3650d")
    assert code == 0, err
    assert victim not in block(tmp_path)
    title = victim.split("**")[1]
    record = next(x for x in lessons(tmp_path, ran) if x["title"] == title)
    assert record["state"] == "forgotten"


def test_an_edited_entry_keeps_its_words(tmp_path: Path, ran: object) -> None:
    path = tmp_path / "memory" / "MEMORY.md"
    text = path.read_text()
    line = text.split("\n")[1]
    edited = line.replace(" [fix]", " (my words) [fix]").replace(" [trap]", " (my words) [trap]")
    path.write_text(text.replace(line, edited))
    (tmp_path / "memory" / "hindsight" / "state.json").unlink()
    code, _, err = cli(tmp_path, ran, "run", "--since", "3650d")
    assert code == 0, err
    assert edited in block(tmp_path) and line not in block(tmp_path)
    title = line.split("**")[1]
    conn = sqlite3.connect(tmp_path / "memory" / "hindsight" / "ledger.sqlite")
    seen, state = conn.execute(
        "SELECT seen, state FROM lessons WHERE title = ?", (title,)
    ).fetchone()
    assert (seen, state) == (edited, "memory")


def test_a_vanished_block_comes_back_with_the_notes_intact(tmp_path: Path, ran: object) -> None:
    path = tmp_path / "memory" / "MEMORY.md"
    entries = [x for x in path.read_text().split("\n") if x.startswith("- **")]
    notes = "# My notes\n\nClaude compacted this file.\n"
    path.write_text(notes)
    code, out, err = cli(tmp_path, ran, "run", "--since", "1h")
    assert code == 0, err
    text = path.read_text()
    assert text.startswith(START) and text.endswith(notes)
    assert [x for x in text.split("\n") if x.startswith("- **")] == entries
    assert "restored the hindsight block" in out


def test_a_run_never_archives_an_entry_the_person_added(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    mine = [f"Release rule {n} of the team" for n in range(5)]
    for title in mine:  # the person's own entries fill most of the 6 KB block
        code, _, err = cli(
            tmp_path, ex, "memory", "add", "--title", title, "--body", "Keep it. " * 126,
            "--kind", "preference",
        )  # fmt: skip
        assert code == 0, err
    code, _, err = cli(tmp_path, ex, "run", "--since", "3650d")
    assert code == 0, err
    assert all(f"**{title}**" in block(tmp_path) for title in mine)
    archive = tmp_path / "memory" / "MEMORY.archive.md"
    assert not archive.exists()
    no_room = [
        x
        for x in lessons(tmp_path, ex, "--state", "report")
        if x["reason"] == "no room: your own entries fill the block"
    ]
    assert no_room  # the strong lessons that found no room stay in the report


def test_an_older_memory_folder_migrates_and_nothing_is_reported_again(
    tmp_path: Path, ran: object
) -> None:
    own = tmp_path / "memory" / "hindsight"
    (own / "ledger.sqlite").unlink()  # as a folder written before the ledger existed
    before = sorted((own / "reports").iterdir())
    sizes = [p.stat().st_size for p in before]
    code, _, err = cli(tmp_path, ran, "run", "--since", "3650d")
    assert code == 0, err
    assert [p.stat().st_size for p in sorted((own / "reports").iterdir())] == sizes
    listed = lessons(tmp_path, ran)
    assert listed and all(x["state"] == "memory" and x["origin"] == "migrated" for x in listed)
