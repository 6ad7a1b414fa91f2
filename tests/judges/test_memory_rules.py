"""The trust gate's rules, told to every model judge in one text (judges/memory_rules.py)."""

from __future__ import annotations

from importlib import resources

from hindsight.judges import model
from hindsight.judges.memory_rules import MEMORY_CHOICE, MEMORY_RULES


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_skill_tells_the_model_the_same_rules_word_for_word() -> None:
    skill = resources.files("hindsight").joinpath("skill/SKILL.md").read_text(encoding="utf-8")
    assert _words(MEMORY_RULES) in _words(skill)
    assert _words(MEMORY_CHOICE) in _words(skill)


def test_the_api_and_headless_judges_are_told_them_too() -> None:
    text = model.instructions()
    assert text.endswith(MEMORY_RULES) and _words(MEMORY_CHOICE) in _words(text)
    assert "the few lessons" not in text  # memory is not the judge's to ration
    assert "{" + "memory_rules}" not in text and '"lessons"' in text  # the schema is filled in
