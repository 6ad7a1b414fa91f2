"""Issue #25: secrets by their command-line slot, a field redacted with its command, and public
values kept byte for byte (tests/guard/secrets_slots.py holds the corpus; test_secret_corpus.py
runs it through every output of the real CLI with the others)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Script, session_from_records
from guard.placement import leaks
from guard.secrets_slots import PUBLIC, SLOT_LOOKS, SLOTS
from hindsight.redact import redact, redact_blocks, redact_with


def test_the_slot_corpus_is_as_large_as_the_issue_asks() -> None:
    assert len(SLOTS) >= 120
    assert len({kind for kind, *_ in SLOTS}) >= 60
    assert len(PUBLIC) >= 100
    positions = {p for _, p, _, _ in SLOTS}
    assert {"command", "error", "prompt", "todo", "tool_input", "cat", "write"} <= positions


@pytest.mark.parametrize(("kind", "line", "secret"), [(k, ln, s) for k, _, ln, s in SLOTS])
def test_each_slot_secret_is_redacted(kind: str, line: str, secret: str) -> None:
    assert not leaks(secret, redact(line)), kind


@pytest.mark.parametrize(("kind", "line"), PUBLIC)
def test_each_public_value_stays_byte_for_byte(kind: str, line: str) -> None:
    assert redact(line) == line
    assert redact_blocks(line) == line


def test_the_rest_of_a_slot_line_stays_readable() -> None:
    assert redact("mysqldump -h db -uroot -pWq9x!rT2 shop") == (
        "mysqldump -h db -uroot -p[REDACTED:password] shop"
    )
    assert redact("echo Wq9x!rT2 | kinit svc@CORP") == "echo [REDACTED:password] | kinit svc@CORP"
    assert redact("vault kv put secret/api db=Wq9x!rT2 user=api") == (
        "vault kv put secret/api db=[REDACTED:secret] user=[REDACTED:secret]"
    )
    assert redact("Password:\nWq9x!rT2\nok") == "Password:\n[REDACTED:password]\nok"
    assert redact("tool --contraseña Wq9x!rT2 --usuario admin") == (
        "tool --contraseña [REDACTED:password] --usuario admin"
    )


def test_a_program_kinds_short_option_is_data() -> None:
    from hindsight.secret_slots import PASSWORD_OPTIONS

    redis = next(row for row in PASSWORD_OPTIONS if "redis-cli" in row[0])
    assert redis[1] == "a" and "valkey-cli" in redis[0]
    # a port stays: the kind's password option is -a, not -p
    assert redact("valkey-cli -p 6380 ping") == "valkey-cli -p 6380 ping"


def test_a_label_split_from_its_value_by_lines_is_redacted_as_a_block() -> None:
    """The digest splits an output into lines after redact_blocks: the label's line and the
    value's line are seen together first."""
    text = "Created user deploy.\nPassword:\nWq9x!rT2\n"
    assert "Wq9x!rT2" not in redact_blocks(text)
    assert all("Wq9x" not in redact(line) for line in redact_blocks(text).splitlines())


def test_a_field_is_redacted_with_the_command_it_belongs_to() -> None:
    command = "redis-cli -h cache -p 6380 PING -a Wq9x!rT2"
    assert "Wq9x" not in redact_with("-a Wq9x!rT2", command)
    assert redact_with("-p 6380", command) == "-p 6380"
    assert redact_with("-a", "redis-cli -a") == "-a"


def test_what_differed_in_a_fix_shows_no_secret(tmp_path: Path) -> None:
    """#25: the fix's flags were redacted apart from the program that makes ``-a`` a password:
    the lesson read 'Run `redis-cli ...` with `-a <password>`'."""
    from hindsight.detect import run_all
    from hindsight.judges.rules import RulesJudge

    secret = "Xq7vR2mKp9"
    base = "redis-cli -h cache.internal.example.com -p 6380 --tls --cacert ca.pem PING"
    s = Script(cwd=str(tmp_path)).prompt("check the cache", 0)
    s.bash(base, 1, 1, 1, "NOAUTH Authentication required.")
    s.bash(f"{base} -a {secret}", 80, 1, 0, "PONG")
    findings = run_all([session_from_records(tmp_path, s.records, "fix")])
    fixed = [f for f in findings if f.kind == "failed_then_fixed"]
    assert fixed and fixed[0].data["differs"].startswith("-a [REDACTED:")
    judged = RulesJudge().judge(findings)
    text = json.dumps([f.to_json() for f in findings]) + " ".join(
        f"{x.title} {x.body}" for x in judged.lessons
    )
    assert secret not in text and "6380" in text


def test_slot_look_alikes_are_in_the_public_corpus() -> None:
    assert set(SLOT_LOOKS) <= {line for _, line in PUBLIC}
