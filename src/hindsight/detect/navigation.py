"""Long searches that ended at a file, and the references an agent needed."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key
from hindsight.detect.streams import relative, streams, tool_of

MIN_SEARCHES = 3
_DOC = re.compile(r"(?:\.(?:md|rst|txt|adoc|org)$|(?:^|/)docs?/)", re.I)


def _is_search(call: s.ToolCall) -> bool:
    return call.name in s.SEARCH_TOOLS or bool(call.command and s.is_search_command(call.command))


def _target(call: s.ToolCall) -> str | None:
    if call.name in s.READ_TOOLS or call.name in s.EDIT_TOOLS:
        path = (
            call.input.get("file_path") or call.input.get("notebook_path") or call.input.get("path")
        )
        return path if isinstance(path, str) else None
    return None


def _mentions(output: str, path: str, cwd: str | None) -> bool:
    rel = relative(path, cwd)
    return (
        path in output
        or rel in output
        or (os.path.basename(path) in output and len(os.path.basename(path)) > 3)
    )


def _query(call: s.ToolCall) -> str:
    """A search as one line: the shell command, or ``Grep: pattern`` for a search tool."""
    if call.command:
        return call.command
    for key in ("pattern", "query", "path", "glob"):
        value = call.input.get(key)
        if isinstance(value, str) and value:
            return f"{call.name}: {value}"
    return call.name


def long_searches(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Three or more searches in a row, then the file the last one found is read or edited."""
    for sess in sessions:
        for stream in streams(sess):
            run: list[s.Event] = []
            for event in stream:
                call = event.tool
                if call is None:
                    continue
                if _is_search(call):
                    run.append(event)
                    continue
                target = _target(call)
                if (
                    target
                    and len(run) >= MIN_SEARCHES
                    and _mentions(tool_of(run[-1]).output, target, sess.cwd)
                ):
                    spent = (
                        (event.ts - run[0].ts).total_seconds() if event.ts and run[0].ts else None
                    )
                    data = {
                        "path": relative(target, sess.cwd),
                        "searches": len(run),
                        "queries": [_query(tool_of(e)) for e in run][:8],
                        "seconds": spent,
                    }
                    strength = 4 if len(run) >= 5 or (spent or 0) >= 120 else 3
                    yield Finding(
                        "long_search",
                        evidence_key("search", sess.session_id, call.id),
                        sess.session_id,
                        [run[0].at, event.at],
                        run[0].ts,
                        strength,
                        data,
                    )
                run = []


def references(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """URLs fetched, and documents read more than once (across the sessions of this run)."""
    reads: dict[str, list[tuple[s.Session, s.Event]]] = {}
    for sess in sessions:
        for event in sess.events:
            call = event.tool
            if call is None or call.status != s.OK:
                continue
            if call.name == "WebFetch" and isinstance(call.input.get("url"), str):
                url = str(call.input["url"])
                yield Finding(
                    "reference",
                    evidence_key("url", sess.session_id, url),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    1,
                    {"url": url, "why": "fetched"},
                )
            target = _target(call)
            if target and call.name in s.READ_TOOLS and _DOC.search(target):
                reads.setdefault(target, []).append((sess, event))
    for path, hits in reads.items():
        if len(hits) < 2:
            continue
        sess = hits[0][0]
        data = {
            "path": relative(path, sess.cwd),
            "reads": len(hits),
            "sessions": len({h[0].session_id for h in hits}),
            "why": "read more than once",
        }
        yield Finding(
            "reference",
            evidence_key("doc", path, *(tool_of(e).id for _, e in hits)),
            sess.session_id,
            [e.at for _, e in hits][:6],
            hits[0][1].ts,
            2,
            data,
        )
