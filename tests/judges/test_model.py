"""What every model judge shares (judges/model.py) and the registry that offers them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import recorded_sessions, run_cli
from hindsight import judges
from hindsight.detect import run_all
from hindsight.errors import HindsightError
from hindsight.judges import model
from hindsight.lessons import SCHEMA, validate
from hindsight.redact import bare_token


def test_the_registry_feeds_help_errors_and_get(tmp_path: Path) -> None:
    assert judges.names() == ["rules", "claude", "anthropic", "openai"]
    helped = " ".join(run_cli("run", "--help").stdout.split())  # unwrapped
    for name, spec in judges.JUDGES.items():
        assert f"{name}: {spec.help}" in helped
    # Each judge says what it reads; building one imports no SDK and sends nothing.
    reads = {n: judges.get(n, judges.Options(model="m")).reads for n in judges.names()}
    assert reads == {
        "rules": "findings",
        "claude": "digest",
        "anthropic": "digest",
        "openai": "digest",
    }
    with pytest.raises(HindsightError, match="unknown judge 'oracle'; choose from rules, claude"):
        judges.get("oracle")
    bad_env = run_cli("run", "--dry-run", cwd=tmp_path, env={"HINDSIGHT_JUDGE": "oracle"})
    assert (
        bad_env.returncode == 2
        and "(from $HINDSIGHT_JUDGE) unknown judge 'oracle'" in bad_env.stderr
    )


def test_settings_never_show_the_key() -> None:
    settings = model.Settings("m", None, "sk-ant-api03-secretsecretsecret", 60_000, 30.0)
    assert "secret" not in repr(settings) and "api_key='[hidden]'" in repr(settings)
    assert "secret" not in str(settings) and "secret" not in f"{settings!r}"


def test_the_wire_schema_is_the_structured_output_subset_of_the_lessons_schema() -> None:
    wire = model.wire_schema()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            assert not {"minLength", "maxLength", "minimum", "maximum", "$schema"} & set(node)
            if node.get("type") == "object":
                assert node["required"] == list(node["properties"])
                assert node["additionalProperties"] is False
            if "enum" in node:
                assert node["type"] == "string"
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(wire)
    assert "judge" not in wire["properties"] and set(wire["properties"]) < set(SCHEMA["properties"])
    # An answer shaped by the wire schema passes the full validation.
    doc = {
        "lessons": [
            {
                "title": "Use make check",
                "body": "make test does not exist.",
                "kind": "fix",
                "strength": 3,
                "evidence": [],
                "memory": True,
                "where": [],
            }
        ],
        "recommendations": [],
        "unfinished": [],
    }
    assert validate(doc).lessons[0].title == "Use make check"


def test_todays_schema_answers_are_still_accepted() -> None:
    """Backward compatible: 'judge' given, 'where' and the optional groups left out."""
    old = {
        "judge": "claude-code",
        "lessons": [
            {
                "title": "Use make check",
                "body": "make test does not exist.",
                "kind": "fix",
                "strength": 3,
                "evidence": ["k0123456789abcdef0123"],
                "memory": False,
            }
        ],
    }
    judged = validate(model.extract("Sure:\n```json\n" + json.dumps(old) + "\n```"))
    assert judged.judge == "claude-code" and judged.lessons[0].where == []


def test_extract_and_its_refusals() -> None:
    assert model.extract('{"lessons": []}') == {"lessons": []}
    assert model.extract('Here:\n```json\n{"lessons": []}\n```\nDone.') == {"lessons": []}
    assert model.extract('I think {"lessons": []} is it') == {"lessons": []}
    for bad in ("no JSON here", '{"lessons": ['):
        with pytest.raises(model.Failure, match="the answer is not JSON"):
            model.extract(bad)
    with pytest.raises(model.Failure, match="the answer is empty"):
        model.extract(" \n")


def test_ground_keeps_only_real_evidence_and_takes_pointers_from_findings() -> None:
    findings = run_all(recorded_sessions())
    real = findings[0]
    judged = validate(
        {
            "lessons": [
                {
                    "title": "A lesson",
                    "body": "Body.",
                    "kind": "trap",
                    "strength": 3,
                    "evidence": ["kdeadbeefdeadbeefdead", real.key, real.key],
                    "memory": True,
                    "where": ["/etc/passwd:1"],
                }
            ],
            "unfinished": [{"title": "T", "body": "B", "evidence": ["kinvented"]}],
        }
    )
    lesson = model.ground(judged, findings).lessons[0]
    assert lesson.evidence == [real.key]
    assert lesson.where == [f"{w.path}:{w.line}" for w in real.where]
    assert judged.unfinished[0].evidence == []


def test_the_governor_cuts_the_digest_and_redacts_it() -> None:
    judge = judges.get("anthropic", judges.Options(max_input_bytes=8_000))
    digest = "# hindsight digest\n" + "".join(
        f"line {n} AKIAQ3EGUVXLPJ5TMRWK\n" for n in range(2_000)
    )
    plan = judge.plan(digest)
    assert plan.bytes <= 8_000 and plan.bytes == len(plan.system.encode()) + len(plan.user.encode())
    assert "AKIAQ3EGUVXLPJ5TMRWK" not in plan.user and "[REDACTED:aws" in plan.user
    assert plan.user.endswith("(clipped to fit --max-input-bytes)\n")
    assert plan.estimated_tokens == -(-plan.bytes * 2 // 7)
    assert plan.model == "claude-sonnet-4-5" and plan.judge == "anthropic"
    with pytest.raises(HindsightError, match="--max-input-bytes 4000 leaves no room for evidence"):
        judges.get("openai", judges.Options(model="m", max_input_bytes=4_000))


def test_nothing_to_judge_sends_nothing(tmp_path: Path) -> None:
    judge = judges.get("openai", judges.Options(model="m", base_url="http://127.0.0.1:9/v1"))
    assert judge.judge([], None).lessons == [] and judge.spent is None


@pytest.mark.parametrize(
    ("typed", "redacted"),
    [
        ("Zq8xR2mLp4Tn7Vb1Kd9Fh3Ws", True),
        ("  x9K2-pQ7z-L4mN-8vR3-T6wY\n", True),
        ("fix the tests please", False),
        ("src/app/main_v2.py", False),
        ("feature/JIRA-1234-fix", False),
        ("123e4567-e89b-12d3-a456-426614174000", False),
        ("0123456789abcdef0123456789abcdef01234567", False),
        ("2026-11-30T10:00:00Z", False),
        ("http://127.0.0.1:8000/v1", False),
        ("v1.2.3-rc1+build45", False),
    ],
)
def test_a_typed_prompt_that_is_only_a_token_is_redacted(typed: str, redacted: bool) -> None:
    assert (bare_token(typed) == "[REDACTED:token]") is redacted
    assert bare_token(typed) == ("[REDACTED:token]" if redacted else typed)
