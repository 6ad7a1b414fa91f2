"""Over random sequences of adds and prunes: outside bytes never change, the cap holds,
and every added entry is in the block or the archive exactly once."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hindsight.errors import HindsightError
from hindsight.memory import ARCHIVE_FILE, MAX_LINES, Entry, MemoryStore, block_size

DAY = date(2026, 11, 30)

outside = st.binary(max_size=300).filter(lambda b: b"hindsight:" not in b)
titles = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "Zs")), min_size=1, max_size=40
)
bodies = st.text(min_size=1, max_size=200).filter(lambda s: s.strip())
ops = st.lists(
    st.one_of(
        st.tuples(st.just("add"), titles, bodies, st.integers(300, 3000)),
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
        for op, title, body, cap in operations:
            if op == "add":
                try:
                    e = Entry.make(title, body, "trap", DAY)
                except HindsightError:
                    continue  # titles without a letter or digit are refused before the store
                result = store.add([e], max_bytes=cap, day=DAY)
                added += [x.line() for x in result.added]
            else:
                store.prune(max_bytes=cap, day=DAY)
            data = store.path.read_bytes()
            if b"hindsight:start" in data:
                # Everything after the block is the original file, byte for byte.
                assert data.endswith(prefix)
                doc = store.read()
                assert block_size(doc.lines, doc.newline) <= cap
                assert len(doc.lines) + 2 <= MAX_LINES
            else:
                assert data == prefix
        doc = store.read()
        archive = (
            (folder / ARCHIVE_FILE).read_text("utf-8") if (folder / ARCHIVE_FILE).exists() else ""
        )
        archived = [line for line in archive.splitlines() if line.startswith("- ")]
        everywhere = doc.lines + archived
        for line in added:
            assert everywhere.count(line) == 1
        assert len(everywhere) == len(added)
