from __future__ import annotations

from pathlib import Path

import pytest

from hindsight.lessons import Judgement, Lesson
from hindsight.locate import Repo
from hindsight.session import Where


def test_equality_repr_and_hash_follow_the_fields() -> None:
    a, b = Where(Path("/t/a.jsonl"), 3), Where(Path("/t/a.jsonl"), 3)
    assert a == b and a != Where(Path("/t/a.jsonl"), 4)
    assert a != ("/t/a.jsonl", 3)  # another type is never equal
    assert repr(a) == "Where(path=PosixPath('/t/a.jsonl'), line=3)"
    with pytest.raises(TypeError):
        hash(a)  # mutable records are unhashable, like dataclasses
    # Values are hashable by their fields.
    assert len({Repo(Path("/r")), Repo(Path("/r")), Repo(Path("/r"), (Path("/w"),))}) == 2


def test_as_dict_turns_nested_records_into_plain_values() -> None:
    judgement = Judgement("rules", [Lesson("t", "b", "fix", 3, ["k1"], True, ["f:1"])])
    assert judgement.to_json() == {
        "judge": "rules",
        "lessons": [
            {
                "title": "t",
                "body": "b",
                "kind": "fix",
                "strength": 3,
                "evidence": ["k1"],
                "memory": True,
                "where": ["f:1"],
            }
        ],
        "recommendations": [],
        "unfinished": [],
    }


def test_defaults_are_fresh_per_instance() -> None:
    one, two = Lesson("t", "b", "fix", 1), Lesson("t", "b", "fix", 1)
    one.evidence.append("k")
    assert two.evidence == []
