"""The JSON every judge returns, its schema, and its validation (nothing is written from bad JSON)."""

from __future__ import annotations

from typing import Any

from hindsight.errors import HindsightError
from hindsight.memory import KINDS
from hindsight.record import Record

RECOMMENDATION_TYPES = ("improve_skill", "propose_skill", "extract_script")
MAX_TITLE = 160
MAX_BODY = 1200
MAX_QUOTE = 400  # the user's words a memory entry quotes: a sentence or three


class Lesson(Record):
    _fields = ("title", "body", "kind", "strength", "evidence", "memory", "where")
    title: str
    body: str
    kind: str
    strength: int
    evidence: list[str]  # evidence keys from the digest
    memory: bool
    where: list[str]  # file:line pointers, for people
    # A model judge's pick of the user's own words a memory lesson rests on (SCHEMA's "quote"):
    # where the gate holds the lesson's own wording, memory may take these words instead. Read
    # from the judge's JSON, never written back (not one of _fields).
    quote: str

    def __init__(
        self,
        title: str,
        body: str,
        kind: str,
        strength: int,
        evidence: list[str] | None = None,
        memory: bool = False,
        where: list[str] | None = None,
        quote: str = "",
    ) -> None:
        self.title = title
        self.body = body
        self.kind = kind
        self.strength = strength
        self.evidence = [] if evidence is None else evidence
        self.memory = memory
        self.where = [] if where is None else where
        self.quote = quote


class Recommendation(Record):
    _fields = ("type", "friction", "where", "fix", "evidence")
    type: str
    friction: str
    where: str
    fix: str
    evidence: list[str]

    def __init__(
        self, type: str, friction: str, where: str, fix: str, evidence: list[str] | None = None
    ) -> None:
        self.type = type
        self.friction = friction
        self.where = where
        self.fix = fix
        self.evidence = [] if evidence is None else evidence


class Unfinished(Record):
    _fields = ("title", "body", "evidence")
    title: str
    body: str
    evidence: list[str]

    def __init__(self, title: str, body: str, evidence: list[str] | None = None) -> None:
        self.title = title
        self.body = body
        self.evidence = [] if evidence is None else evidence


class Judgement(Record):
    _fields = ("judge", "lessons", "recommendations", "unfinished")
    judge: str
    lessons: list[Lesson]
    recommendations: list[Recommendation]
    unfinished: list[Unfinished]
    cost: str  # what a model judge was sent and spent, for the report (not part of the JSON)

    def __init__(
        self,
        judge: str,
        lessons: list[Lesson] | None = None,
        recommendations: list[Recommendation] | None = None,
        unfinished: list[Unfinished] | None = None,
    ) -> None:
        self.judge = judge
        self.lessons = [] if lessons is None else lessons
        self.recommendations = [] if recommendations is None else recommendations
        self.unfinished = [] if unfinished is None else unfinished
        self.cost = ""

    def to_json(self) -> dict[str, Any]:
        return self.as_dict()

    def keys(self) -> set[str]:
        out: set[str] = set()
        for group in (self.lessons, self.recommendations, self.unfinished):
            for item in group:
                out.update(item.evidence)
        return out


_EVIDENCE = {"type": "array", "items": {"type": "string", "minLength": 1}}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "hindsight lessons",
    "description": "What a judge returns: lessons (to the report; the strongest with memory=true also to "
    "MEMORY.md), recommendations, unfinished work. 'evidence' lists the finding keys of `hindsight digest`; "
    "a lesson whose keys were all reported before is not reported again.",
    "type": "object",
    "required": ["lessons"],
    "additionalProperties": False,
    "properties": {
        "judge": {"type": "string", "description": "who judged, e.g. rules, claude-code"},
        "lessons": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["title", "body", "kind", "strength", "evidence", "memory"],
                "additionalProperties": False,
                "properties": {
                    "title": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": MAX_TITLE,
                        "description": "short and specific; the dedup key of memory",
                    },
                    "body": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": MAX_BODY,
                        "description": "what to do next time, one or two sentences",
                    },
                    "kind": {"enum": list(KINDS)},
                    "strength": {"type": "integer", "minimum": 1, "maximum": 5},
                    "evidence": _EVIDENCE,
                    "memory": {
                        "type": "boolean",
                        "description": "true: worth loading in every session",
                    },
                    "where": {"type": "array", "items": {"type": "string"}},
                    "quote": {
                        "type": "string",
                        "maxLength": MAX_QUOTE,
                        "description": "for a memory lesson resting on the user's words: those "
                        "words exactly as typed, whole sentences that state the rule on their own "
                        "(no question); memory takes them as the entry. Empty: none",
                    },
                },
            },
        },
        "recommendations": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["type", "friction", "where", "fix"],
                "additionalProperties": False,
                "properties": {
                    "type": {"enum": list(RECOMMENDATION_TYPES)},
                    "friction": {"type": "string", "minLength": 1},
                    "where": {"type": "string"},
                    "fix": {"type": "string", "minLength": 1},
                    "evidence": _EVIDENCE,
                },
            },
        },
        "unfinished": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["title", "body"],
                "additionalProperties": False,
                "properties": {
                    "title": {"type": "string", "minLength": 1},
                    "body": {"type": "string"},
                    "evidence": _EVIDENCE,
                },
            },
        },
    },
}


class _Check:
    """Validates a parsed document against SCHEMA's rules, naming the first bad field."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc

    def fail(self, where: str, what: str) -> HindsightError:
        return HindsightError(f"invalid lessons JSON: {where}: {what}")

    def obj(self, value: Any, where: str, spec: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, "expected an object")
        for name in spec.get("required", []):
            if name not in value:
                raise self.fail(where, f"missing '{name}'")
        extra = set(value) - set(spec["properties"])
        if extra:
            raise self.fail(where, f"unknown field '{sorted(extra)[0]}'")
        for name, sub in spec["properties"].items():
            if name in value:
                self.value(value[name], f"{where}.{name}", sub)
        return value

    def value(self, value: Any, where: str, spec: dict[str, Any]) -> None:
        if "enum" in spec:
            if value not in spec["enum"]:
                raise self.fail(
                    where, f"{value!r} is not one of {', '.join(map(str, spec['enum']))}"
                )
            return
        kind = spec.get("type")
        if kind == "object":
            self.obj(value, where, spec)
        elif kind == "array":
            if not isinstance(value, list):
                raise self.fail(where, "expected an array")
            for i, item in enumerate(value):
                self.value(item, f"{where}[{i}]", spec["items"])
        elif kind == "string":
            if not isinstance(value, str):
                raise self.fail(where, "expected a string")
            if len(value.strip()) < spec.get("minLength", 0):
                raise self.fail(where, f"shorter than {spec['minLength']} characters")
            if len(value) > spec.get("maxLength", 1 << 30):
                raise self.fail(where, f"longer than {spec['maxLength']} characters")
        elif kind == "integer":
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.fail(where, "expected a whole number")
            if not spec["minimum"] <= value <= spec["maximum"]:
                raise self.fail(where, f"{value} is outside {spec['minimum']}..{spec['maximum']}")
        elif kind == "boolean" and not isinstance(value, bool):
            raise self.fail(where, "expected true or false")


def validate(doc: Any, default_judge: str = "model") -> Judgement:
    """The judge's JSON as a Judgement, or one HindsightError naming the first problem."""
    checked = _Check(doc).obj(doc, "$", SCHEMA)
    return Judgement(
        judge=str(checked.get("judge") or default_judge),
        lessons=[Lesson(**{"where": [], **item}) for item in checked["lessons"]],
        recommendations=[
            Recommendation(**{"evidence": [], **item})
            for item in checked.get("recommendations", [])
        ],
        unfinished=[
            Unfinished(**{"evidence": [], **item}) for item in checked.get("unfinished", [])
        ],
    )
