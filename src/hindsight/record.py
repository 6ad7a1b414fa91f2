"""Plain data classes that cost nothing to define.

``@dataclass`` writes and compiles code for each class when its module is imported: ~0.4 ms a
class, ~10 ms of every start for hindsight's two dozen, and hindsight runs from hooks. These
classes write their ``__init__`` by hand and name their fields once, in ``_fields``; ``Record``
gives them equality, a repr and a dict form from that list.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Record:
    """Equality, repr and ``as_dict`` over ``_fields``; unhashable, like a mutable dataclass."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    def as_dict(self) -> dict[str, Any]:
        """The fields as plain JSON-like values, records inside lists and dicts included."""
        return {f: _plain(getattr(self, f)) for f in self._fields}


class Value(Record):
    """A record never changed after it is made: hashable by its fields."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # Record is unhashable on purpose
        return hash(tuple(getattr(self, f) for f in self._fields))


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.as_dict()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
