from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import run_cli
from hindsight.errors import HindsightError
from hindsight.lessons import SCHEMA, validate

GOOD: dict[str, Any] = {
    "judge": "claude-code",
    "lessons": [
        {
            "title": "Use make check",
            "body": "No test target.",
            "kind": "fix",
            "strength": 3,
            "evidence": ["k1"],
            "memory": True,
        }
    ],
    "recommendations": [
        {
            "type": "extract_script",
            "friction": "3 steps again",
            "where": "3 sessions",
            "fix": "a make target",
        }
    ],
    "unfinished": [{"title": "Changelog", "body": "not written"}],
}


def test_valid_document() -> None:
    j = validate(GOOD)
    assert (
        j.judge == "claude-code"
        and j.lessons[0].where == []
        and j.recommendations[0].evidence == []
    )
    assert j.keys() == {"k1"}


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"lessons": "x"}, r"\$.lessons: expected an array"),
        (
            {"lessons": [{**GOOD["lessons"][0], "kind": "opinion"}]},
            r"\$.lessons\[0\].kind: 'opinion' is not one of",
        ),
        (
            {"lessons": [{**GOOD["lessons"][0], "strength": 9}]},
            r"\$.lessons\[0\].strength: 9 is outside 1..5",
        ),
        ({"lessons": [{**GOOD["lessons"][0], "memory": "yes"}]}, r"memory: expected true or false"),
        (
            {"lessons": [{k: v for k, v in GOOD["lessons"][0].items() if k != "body"}]},
            r"missing 'body'",
        ),
        ({"lessons": [{**GOOD["lessons"][0], "extra": 1}]}, r"unknown field 'extra'"),
        ({"lessons": [{**GOOD["lessons"][0], "title": "x" * 500}]}, r"longer than 160"),
        ({"bogus": []}, r"\$: unknown field 'bogus'"),
    ],
)
def test_invalid_documents(patch: dict[str, Any], message: str) -> None:
    with pytest.raises(HindsightError, match=message):
        validate({**GOOD, **patch})


def test_schema_command_prints_the_schema() -> None:
    done = run_cli("schema")
    assert done.returncode == 0 and json.loads(done.stdout) == SCHEMA
