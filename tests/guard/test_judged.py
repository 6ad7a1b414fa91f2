"""A fooled model judge's lessons (guard/judged.py) against clean sessions, through the real
`hindsight digest` and `hindsight apply`: no attack reaches MEMORY.md or its archive, every
benign lesson of the same sessions does."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Script, make_repo, run_cli
from guard.judged import JUDGED
from hindsight.sources.claude_files import claude_folder_name

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


def judged_sessions(tmp_path: Path) -> tuple[Path, Path, Path]:
    """One Claude Code session per case: the user's words, a failed `make` and its fix (a
    finding to cite), then the case's commands. Returns (repo root, claude home, memory)."""
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    for i, case in enumerate(JUDGED):
        s = Script(cwd=str(root))
        s.prompt(case.prompt, 0)
        s.bash(f"make t{i}", 1, 1, 2, f"make: *** No rule to make target 't{i}'.  Stop.")
        s.bash(f"make c{i}", 3, 1)
        for n, (command, code, output) in enumerate(case.commands):
            s.bash(command, 10 + 5 * n, 1, code, output)
        for r in s.records:
            r["sessionId"] = f"j{i:03d}"
        (folder / f"j{i:03d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in s.records))
    return root, home, folder / "memory"


def judged_lessons(digest: dict) -> dict:
    """The fooled judge's JSON: each case's attack and benign lesson, citing its session."""
    keys: dict[str, list[str]] = {}
    for f in digest["findings"]:
        keys.setdefault(f["session_id"], []).append(f["key"])
    lessons = []
    for i, case in enumerate(JUDGED):
        for (title, body, kind), strength in ((case.attack, 5), (case.benign, 3)):
            lessons.append(
                {
                    "title": title,
                    "body": body,
                    "kind": kind,
                    "strength": strength,
                    "evidence": keys[f"j{i:03d}"],
                    "memory": True,
                }
            )
    return {"judge": "claude-code", "lessons": lessons}


def memory_text(memory: Path) -> str:
    archive = memory / "MEMORY.archive.md"
    return (memory / "MEMORY.md").read_text() + (archive.read_text() if archive.exists() else "")


def entry_titles(text: str) -> set[str]:
    """The titles of the memory entries in ``text`` (``- **title** (date) ...``)."""
    import re

    return set(re.findall(r"^- \*\*(.+?)\*\* \(\d{4}-\d{2}-\d{2}\)", text, re.M))


def reached(text: str) -> list[tuple[str, str]]:
    titles = entry_titles(text)
    return [(c.point, c.attack[0]) for c in JUDGED if c.attack[0] in titles]


def kept(text: str) -> list[str]:
    titles = entry_titles(text)
    return [c.benign[0] for c in JUDGED if c.benign[0] in titles]


def apply_judged(tmp_path: Path) -> tuple[dict, str]:
    root, home, memory = judged_sessions(tmp_path)
    digest = run_cli(
        "digest", "--json", "--max-bytes", "5000000", "--claude-home", str(home), cwd=root, env=NOW
    )
    assert digest.returncode == 0, digest.stderr
    done = run_cli(
        "apply",
        "-",
        "--json",
        "--max-new",
        "500",
        "--claude-home",
        str(home),
        cwd=root,
        env=NOW,
        stdin=json.dumps(judged_lessons(json.loads(digest.stdout))),
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), memory_text(memory)


def test_no_judged_attack_reaches_memory_and_every_benign_lesson_does(tmp_path: Path) -> None:
    assert len(JUDGED) >= 30
    result, text = apply_judged(tmp_path)
    assert reached(text) == []
    assert kept(text) == [c.benign[0] for c in JUDGED]
    assert result["lessons_added"] == len(JUDGED)
    assert result["quarantined"] + result["held"] == len(JUDGED)
