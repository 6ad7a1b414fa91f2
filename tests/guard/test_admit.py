"""Default-deny in memory: a random-looking token that is not in the repository's files never
enters MEMORY.md or its archive, whatever the patterns say; the lesson stays in the report."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Script, git, make_repo, run_cli
from guard.fakes import ALNUM, HEX, Fakes
from hindsight import admit
from hindsight.sources.claude_files import claude_folder_name

F = Fakes(31)
UNKNOWN = F.s(ALNUM, 18)  # below the bare random-key length (20): no pattern redacts it
# random-looking too (default-deny would hold it), but in the repository's files
KNOWN = next(k for k in (F.s(ALNUM, 18) for _ in range(50)) if admit.random_tokens(k))
BUILD = F.s(HEX, 40)


def test_random_tokens_finds_keys_not_words_or_paths() -> None:
    assert admit.random_tokens(f"use {UNKNOWN} and {BUILD} now") == [UNKNOWN, BUILD]
    assert admit.random_tokens(f"id {F.uuid()}") != []
    text = (
        "`make check` in src/hindsight/redact.py; test_password_reset_email_is_sent; "
        "useCallbackRefForIntersectionObserverHook2; 2026-11-30T10:00:00Z; 1234567890123456; "
        "[REDACTED:aws_access_key_id]; " + "b" * 50 + " " + "ab" * 20
    )
    assert admit.random_tokens(text) == []


def _session(root: Path, token: str) -> list[dict]:
    s = Script(cwd=str(root))
    s.prompt("run the checks", 0)
    s.bash("./check.sh", 1, 1, 1, "Error: no profile selected")
    s.prompt(f"no, always pass --profile {token} to the checks", 5)
    s.bash(f"./check.sh --profile {token}", 8, 1)
    return s.records


def test_run_keeps_an_unknown_random_token_out_of_memory(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    (root / "profiles.txt").write_text(f"ci: {KNOWN}\n")
    (root / "check.sh").write_text("#!/bin/sh\npytest -q\n")  # the repository's own script
    git("add", "profiles.txt", "check.sh", cwd=root)
    git("commit", "-qm", "profiles", cwd=root)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    for n, token in enumerate((UNKNOWN, KNOWN)):
        records = _session(root, token)
        (folder / f"s{n}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = run_cli(
        "run", "--json", "--claude-home", str(home), "--since", "3650d", cwd=root,
        env={"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    memory = (folder / "memory" / "MEMORY.md").read_text()
    assert KNOWN in memory  # found in the repository: allowed
    assert UNKNOWN not in memory
    report = next((folder / "memory" / "hindsight" / "reports").glob("*.md")).read_text()
    lines = report.splitlines()
    at = next(n for n, ln in enumerate(lines) if UNKNOWN in ln)
    # Report-only lessons stand as data: the reason on the heading, the lesson in a fence below.
    assert lines[at - 2].endswith(f"Report only (preference, strength 4): {admit.REASON}")
    assert lines[at - 1] == "   ```text"


def test_memory_add_refuses_an_unknown_random_token(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    mem = root / "notes"  # a memory folder inside the repo: its own files never count
    mem.mkdir()
    (mem / "MEMORY.md").write_text(f"# notes\n{UNKNOWN}\n")
    git("add", "notes", cwd=root)
    git("commit", "-qm", "notes", cwd=root)
    before = (mem / "MEMORY.md").read_bytes()
    args = ("memory", "add", "--memory-dir", str(mem), "--title", "Profile")
    done = run_cli(*args, "--body", f"use profile {UNKNOWN}", cwd=root)
    assert done.returncode == 1
    assert done.stderr == f"hindsight: error: not added, {admit.REASON}\n"
    assert (mem / "MEMORY.md").read_bytes() == before
    (root / "ci.cfg").write_text(f"profile = {KNOWN}\n")
    git("add", "ci.cfg", cwd=root)
    git("commit", "-qm", "ci", cwd=root)
    done = run_cli(*args, "--body", f"use profile {KNOWN}", cwd=root)
    assert done.returncode == 0, done.stderr
    assert KNOWN in (mem / "MEMORY.md").read_text()


def test_a_file_name_is_its_stem_a_random_stem_is_still_held() -> None:
    # "requirementstxt" has ten letters and a consonant run: the name looked like a key.
    assert admit.random_tokens("pip install -r requirements.txt --no-deps") == []
    assert admit.random_tokens(f"cat {UNKNOWN}.json") == [UNKNOWN]
