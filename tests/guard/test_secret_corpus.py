"""Secrets measured on the scanners' shapes and the red-team classes, through the real CLI.

Recall and false positives per kind: bench/secrets.py prints the table the README quotes.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli, written_text
from guard.corpus import LOOKALIKES, SECRETS
from guard.lookalikes import LOOKS
from guard.placement import leaks, write_sessions
from guard.secrets_fifth import FIFTH, FIFTH_LOOKS
from guard.secrets_redteam import REDTEAM
from guard.secrets_scanners import SCANNER
from guard.secrets_slots import PUBLIC, SLOTS
from hindsight.redact import redact

ALL = SCANNER + REDTEAM + FIFTH + SLOTS + [("legacy " + p, p, line, s) for p, line, s in SECRETS]
ALL_LOOKS = LOOKS + FIFTH_LOOKS + PUBLIC + [("legacy", line) for line in LOOKALIKES]


def test_the_corpus_is_as_large_as_the_issue_asks() -> None:
    assert len(SCANNER + REDTEAM) >= 300
    assert len({kind for kind, *_ in SCANNER + REDTEAM}) >= 40
    assert len(ALL_LOOKS) >= 150
    positions = {p for _, p, _, _ in ALL}
    assert {"command", "stdout", "stderr", "cat", "prompt", "error", "tool_input"} <= positions
    assert {"assistant", "write"} <= positions  # the agent's prose, code it wrote


def test_every_secret_is_redacted_line_by_line() -> None:
    missed = [(kind, line) for kind, _, line, secret in ALL if leaks(secret, redact(line))]
    assert missed == []


def test_no_look_alike_is_changed() -> None:
    changed = [(kind, line) for kind, line in ALL_LOOKS if redact(line) != line]
    assert changed == []


def test_redaction_is_stable() -> None:
    """Redacting twice changes nothing more: outputs are redacted again where they are printed."""
    for _, _, line, _ in ALL:
        once = redact(line)
        assert redact(once) == once


def test_no_secret_reaches_any_output_or_file(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = write_sessions(home, root, [(p, line) for _, p, line, _ in ALL])
    env = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}
    where = ["--claude-home", str(home)]
    outputs: list[str] = []
    # `scan` and `run --dry-run --json` print nothing the runs below do not (the older corpus's
    # test covers them); each run here costs seconds on ~560 sessions.
    for args in (
        ["digest", "--max-bytes", "2000000"],
        ["digest", "--json", "--max-bytes", "2000000"],
        ["run", "--dry-run"],
        ["run", "--json", "--max-new", "2000"],
    ):
        done = run_cli(*args, *where, "--since", "3650d", cwd=root, env=env)
        assert done.returncode == 0, (args, done.stderr)
        outputs.append(done.stdout + done.stderr)
    summary = json.loads(outputs[-1])
    assert summary["sessions_read"] == len(ALL)
    for args in (
        ["status"],
        ["status", "--json"],
        ["memory", "show"],
        ["memory", "show", "--json"],
        ["memory", "prune", "--max-bytes", "1024"],
        ["memory", "check"],
    ):
        done = run_cli(*args, *where, cwd=root)
        outputs.append(done.stdout + done.stderr)
    assert (folder / "memory" / "MEMORY.archive.md").is_file()
    everything = "\n".join([*outputs, written_text(folder / "memory")])
    assert everything.count("[REDACTED:") > len(ALL)
    leaked = [(kind, secret) for kind, _, _, secret in ALL if leaks(secret, everything)]
    assert leaked == []


def test_a_secret_cut_by_the_readers_caps_leaves_no_half(tmp_path: Path) -> None:
    """The reader keeps a long output's head and tail, a huge line's first bytes: a secret the
    cut falls in is dropped whole, never kept as a half no pattern knows."""
    from conftest import Script, session_from_records
    from hindsight.sources.claude_code import OUTPUT_HEAD

    secret = SCANNER[0][3]  # an AWS key id: 20 characters
    head = len("Exit code 1\n") + 10  # the output starts with the exit line; 10 into the key
    cases = [(OUTPUT_HEAD - head, 10_000), (8000 - head, 200_000)]
    for at, rest in cases:  # a capped output; a line over 256 KB, skimmed
        filler = "error: " + "x" * (at - 8)
        output = filler + " " + secret + " " + "y " * rest
        s = Script(cwd=str(tmp_path)).prompt("go", 0).bash("./a.sh", 1, 1, 1, output)
        sess = session_from_records(tmp_path, s.records, f"cut{at}")
        outputs = [e.tool.output for e in sess.events if e.tool is not None]
        assert outputs and all(not leaks(secret, o, window=6) for o in outputs), at
