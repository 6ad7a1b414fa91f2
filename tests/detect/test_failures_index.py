"""failed_then_fixed answers "the next failure / success of this program" by bisection over an
index; here it is checked against the plain definition (scan every later call) on random
sessions, which is what it was before it had to scale to thousands of shell calls."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hindsight import session as s
from hindsight.detect import Options, evidence_key, failures
from hindsight.detect import shell as sh

T0 = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
COMMANDS = [
    "make test",
    "make tset",
    "make check",
    "make",
    "npm test",
    "npm tset",
    "npm install",
    "true",
]
OUTCOMES = ["ok", "fail", "error_no_code", "rejected", "background"]


def _call(i: int, command: str, outcome: str) -> s.ToolCall:
    call = s.ToolCall(f"t{i}", "Bash", {"command": command}, command=command)
    call.status, call.exit_code, call.output = s.OK, 0, "done"
    if outcome == "fail":
        call.status, call.exit_code, call.is_error, call.output = s.ERROR, 2, True, "Error: boom"
    elif outcome == "error_no_code":
        call.status, call.exit_code, call.is_error = s.ERROR, None, True
    elif outcome == "rejected":
        call.status, call.exit_code = s.REJECTED, None
    elif outcome == "background":
        call.status, call.exit_code = s.BACKGROUND, None
    return call


@st.composite
def sessions(draw: st.DrawFn) -> s.Session:
    sess = s.Session("claude-code", "rand", Path("/t/rand.jsonl"), cwd="/t")
    second = 0.0
    for i in range(draw(st.integers(0, 40))):
        second += draw(st.sampled_from([0.0, 1.0, 5.0, 40.0, 90.0]))  # equal times happen
        ts = None if draw(st.integers(0, 15)) == 0 else T0 + timedelta(seconds=second)
        at = s.Where(sess.path, i + 1)
        if draw(st.integers(0, 5)) == 0:
            edit = s.ToolCall(f"e{i}", "Edit", {"file_path": "/t/Makefile"}, status=s.OK)
            sess.events.append(s.Event(s.TOOL, ts, at, uuid=f"u{i}", tool=edit))
            continue
        call = _call(i, draw(st.sampled_from(COMMANDS)), draw(st.sampled_from(OUTCOMES)))
        sess.events.append(s.Event(s.TOOL, ts, at, uuid=f"u{i}", tool=call))
    return sess


def _plain(sess: s.Session) -> list[tuple[str, int, bool | None, list[str] | None]]:
    """(evidence key, attempts, typo, changed) by the definition: look at every later call."""
    shells = [e for e in sess.events if e.tool is not None and e.tool.command is not None]
    fails = [failures._real_failure(e.tool) for e in shells]  # type: ignore[arg-type]
    oks = [failures._succeeded(e.tool) for e in shells]  # type: ignore[arg-type]
    jobs = [sh.job(e.tool.command or "") for e in shells]  # type: ignore[union-attr]
    out = []
    for idx, event in enumerate(shells):
        if not fails[idx] or not event.tool.command:  # type: ignore[union-attr]
            continue
        prog, sub = jobs[idx]
        later = [j for j in range(idx + 1, len(shells)) if jobs[j][0] == prog]
        until = []
        for j in later:
            if oks[j]:
                break
            until.append(j)
        if any(fails[j] for j in until):
            continue
        attempts = 1 + sum(1 for j in range(idx) if fails[j] and jobs[j] == (prog, sub))
        exact = [j for j in later if oks[j] and jobs[j] == (prog, sub)]
        same_prog = [j for j in later if oks[j]]
        fix_at = exact[0] if exact else (same_prog[0] if same_prog else None)
        call = event.tool
        if fix_at is None:
            out.append((evidence_key("unresolved", sess.session_id, call.id), attempts, None, None))  # type: ignore[union-attr]
            continue
        fix = shells[fix_at]
        a, b = sh.normalize(call.command or ""), sh.normalize(fix.tool.command or "")  # type: ignore[union-attr]
        lost = (fix.ts - event.ts).total_seconds() if fix.ts and event.ts else None
        between = [e for e in shells if event.ts and fix.ts and e.ts and event.ts < e.ts < fix.ts]
        slip = [(x, y) for x, y in zip(a.split(), b.split(), strict=False) if x != y]
        one_slip = len(a.split()) == len(b.split()) and len(slip) == 1
        typo = (
            a != b
            and not between
            and lost is not None
            and lost < 30
            and one_slip
            and sh.similar(*slip[0]) >= 0.75
        )
        # What came between is noted for every fix: an edit may have been the real one.
        inside = sess.events[sess.events.index(event) + 1 : sess.events.index(fix)]
        notes = []
        for e in inside:
            t = e.tool
            if t is None or t.status != s.OK:
                continue
            if t.name == "Edit":
                notes.append(f"edited {t.input['file_path']}")
            elif t.command and failures._INSTALL.search(t.command):
                notes.append(f"ran `{t.command}`")
        changed = list(dict.fromkeys(notes))
        key = evidence_key("fix", sess.session_id, call.id, fix.tool.id)  # type: ignore[union-attr]
        out.append((key, attempts, typo, changed))
    return out


@settings(max_examples=300, deadline=None)
@given(sessions())
def test_the_index_gives_what_the_definition_gives(sess: s.Session) -> None:
    found = [
        (f.key, f.data["attempts"], f.data.get("typo"), f.data.get("changed"))
        for f in failures.failed_then_fixed([sess], Options())
    ]
    assert found == _plain(sess)
