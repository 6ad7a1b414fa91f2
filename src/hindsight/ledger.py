"""The ledger: every lesson's identity and life, in ``hindsight/ledger.sqlite``.

One row per lesson, keyed by its normalized title (the same key memory's dedup uses), with a
short stable id, the text hindsight wrote, the text last seen in the block (someone may have
edited it), who made it, its evidence keys, its trigger signature and the names it rests on, and
its state; a history of every state it had. MEMORY.md carries no ids: the ledger recognises its
entries by key and by its own record of their text.

States (what ``memory list`` shows):
  memory     in the block
  waiting    in the review inbox: only the person accepts (``hindsight review``)
  report     in the report only
  archived   pruned to the archive
  removed    taken out by the person; may come back on new evidence from a later session
  forgotten  out for good, whatever later sessions show (also: deleted from the block by hand)
  stale      in the block, but a name it rests on is gone from the repository: pruned first

Every change goes through the run's transaction (txn.py) as ops that are safe to apply twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from hindsight import fsutil, layout
from hindsight.errors import HindsightError

MEMORY = "memory"
WAITING = "waiting"
REPORT = "report"
ARCHIVED = "archived"
REMOVED = "removed"
FORGOTTEN = "forgotten"
STALE = "stale"
STATES = (MEMORY, WAITING, REPORT, ARCHIVED, REMOVED, FORGOTTEN, STALE)
IN_BLOCK = frozenset({MEMORY, STALE})

# Who made a lesson. The person's own (user, promoted, accepted, hand) are pruned last and never
# pushed out by a run's new lessons.
RULES = "rules"  # the built-in judge
MODEL = "model"  # a model judge (skill, claude -p, an API)
USER = "user"  # `hindsight memory add`
PROMOTED = "promoted"  # `hindsight memory promote`
ACCEPTED = "accepted"  # accepted in `hindsight review`
HAND = "hand"  # a line found in the block that hindsight never wrote
MIGRATED = "migrated"  # an entry of a memory folder older than the ledger
PERSONS = frozenset({USER, PROMOTED, ACCEPTED, HAND})


SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lessons (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    since TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    line TEXT NOT NULL,
    seen TEXT NOT NULL,
    origin TEXT NOT NULL,
    reason TEXT NOT NULL,
    evidence TEXT NOT NULL,
    trigger TEXT NOT NULL,
    names TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lessons_state ON lessons (state);
CREATE INDEX IF NOT EXISTS lessons_trigger ON lessons (trigger);
CREATE TABLE IF NOT EXISTS history (
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    state TEXT NOT NULL,
    note TEXT NOT NULL,
    UNIQUE (id, at, state, note)
);
"""
_COLUMNS = (
    "id",
    "key",
    "state",
    "since",
    "kind",
    "title",
    "body",
    "line",
    "seen",
    "origin",
    "reason",
    "evidence",
    "trigger",
    "names",
    "created",
)


def lesson_id(key: str) -> str:
    """A lesson's id: stable for its normalized title, short enough to type."""
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:8]


class Lesson(NamedTuple):
    """One lesson as the ledger knows it."""

    id: str
    key: str
    state: str
    since: str  # ISO date the current state began
    kind: str
    title: str
    body: str
    line: str  # the memory line as hindsight wrote it ('' where it never was in memory)
    seen: str  # the line as last seen in the block (another writer may have edited it)
    origin: str
    reason: str  # why it waits or stays in the report
    evidence: tuple[str, ...]
    trigger: str  # the trigger signature: normalized failing step and error class, or ''
    names: tuple[str, ...]  # the repository names it rests on ("target:check", "path:src/x.py")
    created: str

    @property
    def persons(self) -> bool:
        """The person's own lesson: pruned last, brought back from the archive on request."""
        return self.origin in PERSONS

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "state": self.state,
            "kind": self.kind,
            "title": self.title,
            "since": self.since,
            "evidence": list(self.evidence),
            "origin": self.origin,
            "reason": self.reason,
        }


class Op(NamedTuple):
    """One change to the ledger, as the journal carries it: applying it twice changes nothing
    more than applying it once (an upsert of fields and one history row)."""

    key: str
    at: str  # ISO date
    fields: dict[str, Any]  # columns to set ("state" among them changes the state)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "at": self.at, "fields": self.fields, "note": self.note}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Op:
        return cls(str(doc["key"]), str(doc["at"]), dict(doc["fields"]), str(doc.get("note", "")))


def op(key: str, at: str, note: str = "", **fields: Any) -> Op:
    """An op with its text fields redacted: nothing of a session's secrets rests in the ledger."""
    from hindsight.redact import redact

    if key == ORDER:
        return Op(key, at, {"keys": list(fields["keys"])})
    clean: dict[str, Any] = {}
    for name, value in fields.items():
        if name not in _COLUMNS or name in ("id", "key", "since", "created"):
            raise ValueError(f"not a settable ledger field: {name}")
        if isinstance(value, str):
            value = redact(value)
        elif isinstance(value, (list, tuple)):
            value = [redact(str(v)) for v in value]
        clean[name] = value
    return Op(key, at, clean, redact(note))


def _row(row: Sequence[Any]) -> Lesson:
    values = dict(zip(_COLUMNS, row, strict=True))
    values["evidence"] = tuple(orjson.loads(values["evidence"]))
    values["names"] = tuple(orjson.loads(values["names"]))
    return Lesson(**values)


class Ledger:
    """``hindsight/ledger.sqlite`` of one memory folder. Reading a ledger that does not exist
    finds nothing and creates nothing (dry runs, status); the file is made by the first write."""

    def __init__(self, memory_dir: Path) -> None:
        self.memory_dir = memory_dir
        self.path = layout.ledger(memory_dir)

    @property
    def exists(self) -> bool:
        return self.path.is_file()

    @contextlib.contextmanager
    def _connect(self, write: bool) -> Iterator[sqlite3.Connection]:
        if write:
            fsutil.ensure_dir(self.path.parent)
            fsutil.confine(self.memory_dir, self.path)
            fresh = not self.path.exists()
            if fresh:
                # Private from the first byte, as every file hindsight makes.
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, fsutil.PRIVATE_FILE))
        try:
            uri = f"{self.path.resolve().as_uri()}?mode={'rw' if write else 'ro'}"
            conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise HindsightError(f"cannot open the ledger {self.path}: {exc}") from exc
        try:
            if write:
                conn.executescript(_SCHEMA)
            yield conn
        except sqlite3.DatabaseError as exc:
            raise HindsightError(
                f"the ledger {self.path} cannot be used ({exc}); move it aside to start a new one"
            ) from exc
        finally:
            conn.close()

    def all(self) -> list[Lesson]:
        if not self.exists:
            return []
        with self._connect(write=False) as conn:
            try:
                rows = conn.execute(
                    f"SELECT {', '.join(_COLUMNS)} FROM lessons ORDER BY since DESC, id"
                ).fetchall()
            except sqlite3.OperationalError:
                return []  # made but never written: no table yet
        return [_row(r) for r in rows]

    def by_key(self) -> dict[str, Lesson]:
        return {x.key: x for x in self.all()}

    def history(self, lesson: str) -> list[tuple[str, str, str]]:
        """(date, state, note) of one lesson id, oldest first."""
        if not self.exists:
            return []
        with self._connect(write=False) as conn:
            rows = conn.execute(
                "SELECT at, state, note FROM history WHERE id = ? ORDER BY at, rowid", (lesson,)
            ).fetchall()
        return [(str(a), str(s), str(n)) for a, s, n in rows]

    def order(self) -> list[str]:
        """The keys of the block's entries as the last write left them, top first."""
        if not self.exists:
            return []
        with self._connect(write=False) as conn:
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'order'").fetchone()
            except sqlite3.OperationalError:
                return []
        return list(orjson.loads(row[0])) if row else []

    def find(self, ref: str) -> Lesson:
        """The lesson an id (or a unique prefix of one, 4 characters at least) or a title names;
        one HindsightError when none or several do."""
        from hindsight.memory import normalize_title

        lessons = self.all()
        ref = ref.strip()
        key = normalize_title(ref)
        hits = [x for x in lessons if x.id == ref.lower()] or [x for x in lessons if x.key == key]
        if not hits and len(ref) >= 4:
            hits = [x for x in lessons if x.id.startswith(ref.lower())]
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise HindsightError(f"{ref!r} names {len(hits)} lessons; use a longer id")
        raise HindsightError(f"no lesson with the id or title {ref!r} ('hindsight memory list')")

    def apply(self, ops: Iterable[Op]) -> None:
        """Every op in one SQLite transaction (all or nothing)."""
        ops = list(ops)
        if not ops:
            return
        with self._connect(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
                    (str(SCHEMA_VERSION),),
                )
                for change in ops:
                    _apply_one(conn, change)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise


ORDER = "#order"  # the op that records the block's order (a key no title normalizes to)


def _apply_one(conn: sqlite3.Connection, change: Op) -> None:
    if change.key == ORDER:
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('order', ?)",
            (orjson.dumps(change.fields["keys"]).decode(),),
        )
        return
    ident = lesson_id(change.key)
    fields = dict(change.fields)
    for name in ("evidence", "names"):
        if name in fields:
            fields[name] = orjson.dumps(sorted(set(fields[name]))).decode()
    old = conn.execute("SELECT state FROM lessons WHERE id = ?", (ident,)).fetchone()
    if old is None:
        row = {name: "" for name in _COLUMNS}
        row.update(
            id=ident,
            key=change.key,
            state=REPORT,
            since=change.at,
            kind="trap",
            evidence="[]",
            names="[]",
            created=change.at,
            origin=RULES,
        )
        row.update(fields)
        conn.execute(
            f"INSERT INTO lessons ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
            [row[name] for name in _COLUMNS],
        )
    else:
        if "state" in fields and fields["state"] != old[0]:
            fields["since"] = change.at
        if fields:
            sets = ", ".join(f"{name} = ?" for name in fields)
            conn.execute(f"UPDATE lessons SET {sets} WHERE id = ?", [*fields.values(), ident])
    state = fields.get("state") or (old[0] if old else REPORT)
    conn.execute(
        "INSERT OR IGNORE INTO history (id, at, state, note) VALUES (?, ?, ?, ?)",
        (ident, change.at, state, change.note),
    )
