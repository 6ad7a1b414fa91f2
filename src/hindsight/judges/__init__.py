"""Judges turn evidence into lessons; every judge returns the same JSON (lessons.SCHEMA)."""

from __future__ import annotations

from typing import Any, Protocol

from hindsight.detect import Finding
from hindsight.errors import HindsightError
from hindsight.lessons import Judgement

JUDGES = ("rules",)


class Judge(Protocol):
    name: str

    def judge(self, findings: list[Finding], digest: dict[str, Any] | None = None) -> Judgement:
        """Lessons from the findings (a model judge reads the digest, the same evidence rendered)."""
        ...


def get(name: str) -> Judge:
    if name == "rules":
        from hindsight.judges.rules import RulesJudge

        return RulesJudge()
    raise HindsightError(
        f"unknown judge {name!r}; built in: {', '.join(JUDGES)} (a model judges through the skill: "
        "'hindsight digest' -> lessons JSON -> 'hindsight apply')"
    )
