"""Over random sequences of adds and prunes, by the person and by a run: outside bytes never
change, the cap holds, every added entry is in the block or the archive, nothing else is, the
block holds each title once, and a run's add never pushes one of the person's entries out."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hindsight.errors import HindsightError
from hindsight.ledger import RULES, USER
from hindsight.memory import ARCHIVE_FILE, MAX_LINES, Entry, MemoryStore, block_size, key_of_line

DAY = date(2026, 11, 30)

outside = st.binary(max_size=300).filter(lambda b: b"hindsight:" not in b)
titles = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "Zs")), min_size=1, max_size=40
)
bodies = st.text(min_size=1, max_size=200).filter(lambda s: s.strip())
ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), titles, bodies, st.integers(300, 3000)),
        st.tuples(st.just("run"), titles, bodies, st.integers(300, 3000)),
        st.tuples(st.just("prune"), st.just(""), st.just(""), st.integers(200, 3000)),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=outside, operations=ops)
def test_random_adds_and_prunes(prefix: bytes, operations: list[tuple[str, str, str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = MemoryStore(folder)
        store.path.write_bytes(prefix)
        added: list[str] = []
        persons: set[str] = set()
        for op, title, body, cap in operations:
            before = set(store.read().lines)
            if op in ("add", "run"):
                try:
                    e = Entry.make(title, body, "trap", DAY)
                except HindsightError:
                    continue  # titles without a letter or digit are refused before the store
                result = store.add(
                    [e], max_bytes=cap, day=DAY, origin=USER if op == "add" else RULES
                )
                added += [x.line() for x in result.added]
                if op == "add":
                    persons.update(x.line() for x in result.added)
                else:
                    # The person's entries never make room for a run's lesson.
                    assert before & persons <= set(store.read().lines)
            else:
                store.prune(max_bytes=cap, day=DAY)
            data = store.path.read_bytes()
            if b"hindsight:start" in data:
                # Everything after the block is the original file, byte for byte.
                assert data.endswith(prefix)
                doc = store.read()
                if op != "run":  # a run keeps the person's entries even over a smaller cap
                    assert block_size(doc.lines, doc.newline) <= cap
                assert len(doc.lines) + 2 <= MAX_LINES
                keys = [key_of_line(line) for line in doc.lines]
                assert len(keys) == len(set(keys))
            else:
                assert data == prefix
        doc = store.read()
        archive = (
            (folder / ARCHIVE_FILE).read_text("utf-8") if (folder / ARCHIVE_FILE).exists() else ""
        )
        archived = [line for line in archive.splitlines() if line.startswith("- ")]
        everywhere = doc.lines + archived
        # The person's add brings an archived title back: it may then stand in both.
        assert set(added) <= set(everywhere) and set(everywhere) <= set(added)
        assert all(1 <= everywhere.count(line) <= added.count(line) + 1 for line in added)
