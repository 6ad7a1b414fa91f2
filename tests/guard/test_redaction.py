"""Secrets: the corpus redacted line by line, and end to end through `run`, `digest`, `scan`, `status`."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Script, make_repo, run_cli, written_text
from guard.corpus import LOOKALIKES, SECRETS
from hindsight.redact import redact
from hindsight.sources.claude_files import claude_folder_name


def test_every_secret_in_the_corpus_is_redacted() -> None:
    assert len(SECRETS) >= 60
    missed = [line for _, line, secret in SECRETS if secret in redact(line)]
    assert missed == []
    assert all("[REDACTED:" in redact(line) for _, line, _ in SECRETS)


def test_look_alikes_survive() -> None:
    assert len(LOOKALIKES) >= 60
    changed = [line for line in LOOKALIKES if redact(line) != line]
    assert changed == []  # false-positive rate 0 / 62 on this corpus


def test_rest_of_the_line_stays_readable() -> None:
    assert redact("curl -u admin:Pa55w0rd-2024 https://jenkins.internal/api/json") == (
        "curl -u admin:[REDACTED:password] https://jenkins.internal/api/json"
    )
    assert (
        redact("DB_PASSWORD=hunter2-x9 make migrate")
        == "DB_PASSWORD=[REDACTED:password] make migrate"
    )


def _sessions(root: Path) -> list[list[dict]]:
    out = []
    for i, (kind, line, _) in enumerate(SECRETS):
        s = Script(cwd=str(root))
        s.prompt(f"deploy service {i}", 0)
        command = line if kind == "command" else f"./svc{i}.sh --check"
        s.bash(command, 1, 2, 1, line)
        s.prompt(
            f"no, use the other config: {line}" if kind == "prompt" else "no, don't do that", 5
        )
        s.bash(f"./svc{i}.sh", 8, 1)
        out.append(s.records)
    return out


def test_no_secret_is_written_or_printed_end_to_end(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    for n, records in enumerate(_sessions(root)):
        (folder / f"s{n:03d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    env = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}
    outputs = []
    for args in (
        ["digest"],
        ["digest", "--json"],
        ["scan", "--json"],
        ["run", "--dry-run", "--json"],
        ["run", "--dry-run"],  # the report section printed as text
        ["run", "--json", "--max-new", "200"],
        ["status", "--json"],
        ["memory", "show"],
    ):
        done = (
            run_cli(*args, "--claude-home", str(home), "--since", "3650d", cwd=root, env=env)
            if args[0] in ("digest", "scan", "run")
            else run_cli(*args, "--claude-home", str(home), cwd=root)
        )
        assert done.returncode == 0, (args, done.stderr)
        outputs.append(done.stdout + done.stderr)
    assert "would append to the report:" in outputs[4]
    summary = json.loads(outputs[5])
    assert summary["sessions_read"] == len(SECRETS) and summary["quarantined"] == 0
    assert summary["lessons"] >= len(SECRETS)  # lessons holding a secret are kept, redacted
    written = [written_text(folder / "memory")]
    everything = "\n".join(outputs + written)
    assert "[REDACTED:" in everything
    leaked = [secret for _, _, secret in SECRETS if secret in everything]
    assert leaked == []
    check = run_cli("memory", "check", "--claude-home", str(home), cwd=root)
    assert check.returncode == 0, check.stdout


def test_each_secret_really_travels_a_writing_path(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Without redaction each secret would be written: it sits in a lesson, a finding or the timeline."""
    from conftest import session_from_records
    from hindsight import digest
    from hindsight import redact as guard
    from hindsight.detect import shell

    monkeypatch.setattr(guard, "redact_json", lambda value: value)
    monkeypatch.setattr(guard, "redact", lambda text: text)  # fmt.clip, shell.error_line
    monkeypatch.setattr(digest, "redact", lambda text: text)
    shell.error_line.cache_clear()  # computed with redaction by earlier tests

    from hindsight.detect import run_all
    from hindsight.digest import _session_block
    from hindsight.judges.rules import RulesJudge

    sessions = [
        session_from_records(tmp_path, r, f"s{n}") for n, r in enumerate(_sessions(tmp_path))
    ]
    findings = run_all(sessions)
    judged = RulesJudge().judge(findings)
    raw = "\n".join(
        [f"{x.title} {x.body}" for x in judged.lessons]
        + [json.dumps(f.data) for f in findings]
        + [_session_block(sess, 4)[0] for sess in sessions]
    )
    hidden = [
        line
        for _, line, secret in SECRETS
        if secret not in raw and json.dumps(secret)[1:-1] not in raw
    ]
    # Two private keys never reach a written path at all (an error's key lines are not error
    # lines); every other secret does (the digest quotes a failure's error lines, not only its
    # first, and its last line: the key cut before its END line travels that way), and is
    # redacted.
    shell.error_line.cache_clear()
    assert len(hidden) == 2 and all("PRIVATE KEY" in line for line in hidden)
