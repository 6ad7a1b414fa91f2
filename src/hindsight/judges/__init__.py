"""Judges turn evidence into lessons; every judge returns the same JSON (lessons.SCHEMA).

One registry, JUDGES, is the door for every judge, built-in or new: the CLI's `--judge` choices
and help, the error for an unknown name and `get` all read it. Modules are imported only when
their judge is chosen (the SDKs of the model judges are heavy, and hindsight runs from hooks).
A judge declares what it reads, the findings or the digest rendered from them; `run` asks it.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, NamedTuple, Protocol

from hindsight.errors import HindsightError

if TYPE_CHECKING:
    from hindsight.detect import Finding
    from hindsight.lessons import Judgement

FINDINGS = "findings"
DIGEST = "digest"
DEFAULT_MAX_INPUT_BYTES = 60_000  # what a run may send a model: instructions, schema and digest
DEFAULT_TIMEOUT_S = 300.0  # the whole judging of a run, retries included
TIMEOUT_ENV = "HINDSIGHT_JUDGE_TIMEOUT"
JUDGE_ENV = "HINDSIGHT_JUDGE"  # the default of --judge: how the hook and the skill choose one


class Spec(NamedTuple):
    target: str  # "module:Class", imported on use
    help: str


JUDGES: dict[str, Spec] = {
    "rules": Spec("hindsight.judges.rules:RulesJudge", "built in, offline and free (the default)"),
    "claude": Spec(
        "hindsight.judges.claude_cli:ClaudeCliJudge",
        "headless Claude Code (`claude -p`, your Claude account)",
    ),
    "anthropic": Spec(
        "hindsight.judges.anthropic_api:AnthropicJudge",
        "the Anthropic Messages API (extra 'anthropic'; ANTHROPIC_API_KEY)",
    ),
    "openai": Spec(
        "hindsight.judges.openai_compat:OpenAIJudge",
        "any OpenAI-compatible server (extra 'openai'; --base-url for a local one)",
    ),
}


class Options(NamedTuple):
    """What the command line said about judging; each judge fills the rest from its environment."""

    model: str | None = None
    base_url: str | None = None
    max_input_bytes: int = DEFAULT_MAX_INPUT_BYTES
    timeout_s: float = DEFAULT_TIMEOUT_S


class Spent(NamedTuple):
    """What judging one run cost: recorded for `status`, and in the report when lessons were written."""

    judge: str
    model: str | None = None
    bytes_sent: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None

    def line(self) -> str:
        tokens = (
            f"{self.input_tokens} tokens in, {self.output_tokens} out"
            if self.input_tokens is not None
            else "tokens not reported"
        )
        return f"{self.judge} judge ({self.model or 'default model'}): {self.bytes_sent} bytes sent, {tokens}"


class Plan(NamedTuple):
    """What a model judge would send: the dry run prints it, the governor has measured it."""

    judge: str
    model: str | None
    system: str
    user: str
    bytes: int
    estimated_tokens: int


class Judge(Protocol):
    name: str
    reads: str  # FINDINGS or DIGEST: what `run` must build for it
    budget: int  # the digest's byte budget (a DIGEST reader's input cap less its instructions)
    spent: Spent | None  # what the last judge() cost; None when nothing was sent

    def judge(self, findings: list[Finding], digest: str | None = None) -> Judgement:
        """Lessons from the findings (a model judge reads the digest: the same evidence, rendered)."""
        ...

    def plan(self, digest: str) -> Plan | None:
        """What judging this digest would send, without sending it (None: nothing leaves)."""
        ...


def names() -> list[str]:
    return list(JUDGES)


def choice(name: str) -> str:
    """argparse's type for --judge: a registered name, or the one error line that lists them."""
    if name not in JUDGES:
        raise _unknown(name)
    return name


def _unknown(name: str) -> HindsightError:
    return HindsightError(
        f"unknown judge {name!r}; choose from {', '.join(JUDGES)} (any other model judges "
        "through the skill: 'hindsight digest' -> lessons JSON -> 'hindsight apply')"
    )


def default_name() -> str:
    return os.environ.get(JUDGE_ENV) or "rules"


def timeout_from_env() -> float:
    raw = os.environ.get(TIMEOUT_ENV)
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if value <= 0:
        raise HindsightError(f"{TIMEOUT_ENV}={raw!r} is not a positive number of seconds")
    return value


def get(name: str, options: Options | None = None) -> Judge:
    spec = JUDGES.get(name)
    if spec is None:
        raise _unknown(name)
    module, _, cls = spec.target.partition(":")
    judge: Judge = getattr(importlib.import_module(module), cls)(options or Options())
    return judge
