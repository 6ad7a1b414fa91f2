"""The guard's gates (literals looked for before a pattern runs) are only a shortcut: with every
gate removed, redaction and screening give the same answer on every text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import example, given, settings
from hypothesis import strategies as st

from guard.corpus import LOOKALIKES, SECRETS
from guard.injections import INJECTIONS
from guard.secrets_slots import PUBLIC, SLOTS
from hindsight import redact as guard_redact
from hindsight import screen as guard_screen

T = TypeVar("T")

GATES = sorted(
    {n for gate, _, _ in guard_redact._STEPS for n in gate}
    | {n for _, gate, _ in guard_screen._HIGH + guard_screen._CONTEXT for n in gate}
)
# Letters that match ASCII ones under re.I (dotless i, long s, Kelvin sign), quoting, separators.
ODD = ["ı", "İ", "ſ", "K", "ß", " ", "=", ":", '"', "'", "-", "_", "/", "@", ".", "\n", "$"]
TEXTS = [line for _, line, _ in SECRETS] + LOOKALIKES + [text for _, text, _ in INJECTIONS]
TEXTS += [line for _, _, line, _ in SLOTS] + [line for _, line in PUBLIC]
FRAGMENTS = GATES + [g.upper() for g in GATES] + [g.title() for g in GATES] + ODD + TEXTS


def ungated(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` with every gate emptied, so every pattern runs on every text."""
    saved = guard_redact._STEPS, guard_screen._HIGH, guard_screen._CONTEXT
    guard_redact._STEPS = [((), fold, step) for _, fold, step in guard_redact._STEPS]
    guard_screen._HIGH = [(name, (), p) for name, _, p in guard_screen._HIGH]
    guard_screen._CONTEXT = [(name, (), p) for name, _, p in guard_screen._CONTEXT]
    guard_redact.redact.cache_clear()
    try:
        return fn(*args)
    finally:
        guard_redact._STEPS, guard_screen._HIGH, guard_screen._CONTEXT = saved
        guard_redact.redact.cache_clear()


def _check(text: str) -> tuple[str | None, str | None, str | None]:
    screen = guard_screen.Screen(["run make test always"])
    return screen.check(text), screen.check(text, memory=False), guard_screen.check_entry(text)


def test_gates_change_nothing_on_the_corpora() -> None:
    changed = [t for t in TEXTS if guard_redact._redact(t) != ungated(guard_redact._redact, t)]
    assert changed == []
    differ = [t for t in TEXTS if _check(t) != ungated(_check, t)]
    assert differ == []
    # The gates do skip work: most look-alikes meet no gate of a token pattern.
    assert sum(any(n in t for n in guard_redact._TOKENS[3][1]) for t in LOOKALIKES) < len(
        LOOKALIKES
    )


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=10).map("".join)
)
def test_gates_change_nothing_on_any_text(text: str) -> None:
    assert guard_redact._redact(text) == ungated(guard_redact._redact, text)
    assert _check(text) == ungated(_check, text)


def _gates_hold(text: str) -> list[str]:
    """Every pattern that changes or matches ``text`` while its gate says it cannot."""
    wrong = []
    folded = guard_redact._fold(text)
    for number, (gate, fold, step) in enumerate(guard_redact._STEPS):
        hay = folded if fold else text
        if step(text) != text and gate and not any(n in hay for n in gate):
            wrong.append(f"step {number}")
    for name, gate, pattern in guard_screen._HIGH + guard_screen._CONTEXT:
        if pattern().search(text) and not guard_redact._gate(gate, folded):
            wrong.append(name)
    return wrong


def test_each_gate_holds_for_its_own_pattern_on_the_corpora() -> None:
    assert {
        t: w for t in TEXTS + [t.replace("_", " ") for t in TEXTS] if (w := _gates_hold(t))
    } == {}


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=10).map("".join)
)
# Found by a fresh clone's run (session 8): GitLab's pattern named `glsoat-`, its gate did not.
@example("glsoat-CUSTOMARYHttpsverify")
def test_each_gate_holds_for_its_own_pattern_on_any_text(text: str) -> None:
    assert _gates_hold(text) == []


def _assign_by_line(text: str) -> tuple[str, str]:
    """(the assignment step line by line, as it runs on long texts; the same on the whole text)."""
    step = guard_redact._ASSIGN().sub
    by_line = guard_redact._by_line(
        text, guard_redact._NAMES, lambda line: step(guard_redact._assignment, line)
    )
    return by_line, step(guard_redact._assignment, text)


def test_line_by_line_equals_the_whole_text_on_the_corpora() -> None:
    big = "\n".join(TEXTS) * 2
    assert len(big) > 4096
    by_line, whole = _assign_by_line(big)
    assert by_line == whole and whole != big


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=10).map("".join)
)
def test_line_by_line_equals_the_whole_text_on_any_text(text: str) -> None:
    by_line, whole = _assign_by_line((text + "\n") * (4096 // (len(text) + 1) + 1))
    assert by_line == whole
