"""Judges turn evidence into lessons; every judge returns the same JSON (lessons.SCHEMA)."""

from __future__ import annotations

from typing import Protocol

from hindsight.detect import Finding
from hindsight.errors import HindsightError
from hindsight.lessons import Judgement

JUDGES = ("rules", "claude")


class Judge(Protocol):
    name: str

    def judge(self, findings: list[Finding], digest: str | None = None) -> Judgement:
        """Lessons from the findings (a model judge reads the digest: the same evidence, rendered)."""
        ...


def get(name: str) -> Judge:
    if name == "rules":
        from hindsight.judges.rules import RulesJudge

        return RulesJudge()
    if name == "claude":
        from hindsight.judges.claude_cli import ClaudeCliJudge

        return ClaudeCliJudge()
    raise HindsightError(
        f"unknown judge {name!r}; built in: {', '.join(JUDGES)} (any other model judges through the "
        "skill: 'hindsight digest' -> lessons JSON -> 'hindsight apply')"
    )
