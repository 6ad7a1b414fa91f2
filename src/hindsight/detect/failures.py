"""Failed commands and the fix that worked, repeats across sessions, tool errors, slow commands."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from hindsight import fmt
from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, fixes, shell, steps, triggers
from hindsight.detect.streams import relative, shell_events, streams, tool_of

TYPO_SECONDS = 30.0
_INSTALL = re.compile(
    r"\b(?:pip3?|uv pip|npm|pnpm|yarn|apt(?:-get)?|brew|cargo|go|gem|poetry|uv|bundle|conda|mix)\s+"
    r"(?:install|add|get|sync|i)\b"
)
_EXPORT = re.compile(r"^\s*(?:export\s+\w+=|source\s|\.\s)")


_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "findstr"})


def _real_failure(call: s.ToolCall) -> bool:
    if not call.failed_on_its_own:  # exit code known or not (1.0.x wrote none)
        return False
    # `... | grep x` exiting 1 with nothing printed found nothing: an answer, not a failure.
    if call.exit_code == 1 and call.command:
        last = steps.split(call.command)[-1:]
        quiet = not _EXIT_LINE.sub("", call.output).strip()
        if last and steps.program_of(last[0]) in _FILTERS and quiet:
            return False
    return True


_EXIT_LINE = re.compile(r"^(?:Error: )?Exit code \d+\s*$", re.M)


def _succeeded(call: s.ToolCall) -> bool:
    return call.status in (s.OK, s.BACKGROUND) and call.exit_code in (0, None) and not call.is_error


_SEPARATE_JOBS = frozenset({"git", "gh"})


def failed_then_fixed(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """A failing shell call and the later call that did the same job, or 'unresolved'."""
    for sess in sessions:
        for stream in streams(sess):
            index = _ShellIndex(stream)
            failed_before: dict[tuple[str, str], int] = {}
            for idx, event in enumerate(index.shells):
                call = tool_of(event)
                if not index.failed[idx]:
                    continue
                job = index.jobs[idx]
                failed_before[job] = failed_before.get(job, 0) + 1
                if not call.command:
                    continue
                prog = job[0]
                # A later failure of the same program carries the chain: report once, at its end.
                next_ok = index.next(index.ok_by_prog, prog, idx)
                next_fail = index.next(index.failed_by_prog, prog, idx)
                if next_fail is not None and (next_ok is None or next_fail < next_ok):
                    continue
                # Same program and subcommand first; else the next successful attempt with it
                # (`make test` -> `make check`), but never another of git's or gh's jobs:
                # `git remote -v` does not do what a failed `git remote add` did.
                fix = index.next(index.ok_by_job, job, idx)
                if fix is None and prog not in _SEPARATE_JOBS:
                    fix = next_ok
                yield _finding(
                    sess,
                    index,
                    idx,
                    None if fix is None else index.shells[fix],
                    failed_before[job],
                )


class _ShellIndex:
    """A stream's shell calls with, per program and per (program, subcommand), the positions of
    their failures and successes: each question about "the next one" is a bisection, so a session
    with thousands of shell calls costs n log n, not n squared."""

    def __init__(self, stream: list[s.Event]) -> None:
        self.stream = stream
        self.shells = shell_events(stream)
        self.failed = [_real_failure(tool_of(e)) for e in self.shells]
        # A failure is about the step that failed; a success did the job of each of its steps.
        self.steps: list[tuple[str, bool]] = []
        self.jobs: list[tuple[str, str]] = []
        self.ok_by_prog: dict[str, list[int]] = {}
        self.failed_by_prog: dict[str, list[int]] = {}
        self.ok_by_job: dict[tuple[str, str], list[int]] = {}
        for idx, event in enumerate(self.shells):
            call = tool_of(event)
            command = call.command or ""
            step = steps.failing(command, call.output) if self.failed[idx] else (command, False)
            self.steps.append(step)
            self.jobs.append(shell.job(step[0]))
            if _succeeded(call):
                for job in steps.jobs(command):
                    if idx not in self.ok_by_prog.get(job[0], [])[-1:]:
                        self.ok_by_prog.setdefault(job[0], []).append(idx)
                    self.ok_by_job.setdefault(job, []).append(idx)
            elif self.failed[idx]:
                self.failed_by_prog.setdefault(self.jobs[idx][0], []).append(idx)

    # Made on first use: most streams have no failure that a fix follows.
    @functools.cached_property
    def shell_times(self) -> list[datetime]:
        return sorted(e.ts for e in self.shells if e.ts)

    @functools.cached_property
    def position(self) -> dict[int, int]:
        return {id(e): i for i, e in enumerate(self.stream)}

    @staticmethod
    def next(positions: dict[Any, list[int]], key: Any, after: int) -> int | None:
        found = positions.get(key, [])
        at = bisect.bisect_right(found, after)
        return found[at] if at < len(found) else None

    def shells_between(self, start: datetime, end: datetime) -> bool:
        """Whether a shell call ran strictly between two moments."""
        return bisect.bisect_right(self.shell_times, start) < bisect.bisect_left(
            self.shell_times, end
        )


def _finding(
    sess: s.Session, index: _ShellIndex, idx: int, fix: s.Event | None, attempts: int
) -> Finding:
    event = index.shells[idx]
    call = tool_of(event)
    command = call.command or ""
    error = shell.error_line(call.output)
    step, known = index.steps[idx]
    data: dict[str, object] = {
        "command": command,
        "step": step,
        "step_known": known,
        "exit_code": call.exit_code,
        "error": error,
        "category": shell.classify(call.exit_code, call.output),
        "attempts": attempts,
        "signature": signature(call),
        "cwd": sess.cwd,
    }
    where = [event.at]
    if fix is None:
        strength = 3 if data["category"] != shell.OTHER else 2
        return Finding(
            "unresolved_failure",
            evidence_key("unresolved", sess.session_id, call.id),
            sess.session_id,
            where,
            event.ts,
            strength,
            data,
            untrusted=("error",),
        )
    fixed = tool_of(fix)
    lost = (fix.ts - event.ts).total_seconds() if fix.ts and event.ts else None
    fix_cmd = fixed.command or ""
    fix_step = fixes.step_of(fix_cmd, index.jobs[idx])
    kind, differs = fixes.difference(step, command, fix_step, fix_cmd, str(data["category"]))
    data.update(fix_command=fix_cmd, fix_step=fix_step, difference=kind, differs=differs)
    data["lost_s"] = lost
    same = kind == fixes.SAME
    data["changed"] = _changes_between(index, event, fix)
    between_shells = bool(event.ts and fix.ts and index.shells_between(event.ts, fix.ts))
    typo = (
        not same
        and not between_shells
        and (lost is not None and lost < TYPO_SECONDS)
        and _one_token_slip(step, fix_step)
    )
    data["typo"] = typo
    strength = 1 if typo else 3
    if lost is not None and lost >= 60:
        strength += 1
    if attempts >= 3:
        strength += 1
    if same and not data["changed"]:
        strength = min(strength, 2)
    where.append(fix.at)
    return Finding(
        "failed_then_fixed",
        evidence_key("fix", sess.session_id, call.id, fixed.id),
        sess.session_id,
        where,
        event.ts,
        min(strength, 5),
        data,
        untrusted=("error",),
    )


def _one_token_slip(failed: str, fixed: str) -> bool:
    """A typo: the same words but one, and that one a near-identical token (``test_aap`` for
    ``test_app``). A runner, a prefix, a flag or a folder added is a fix, never a typo."""
    a, b = shell.split(failed), shell.split(fixed)
    if len(a) != len(b):
        return False
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(diff) == 1 and shell.similar(*diff[0]) >= 0.75


def _changes_between(index: _ShellIndex, fail: s.Event, fix: s.Event) -> list[str]:
    """What changed between two runs of the same command: edits, installs, variables."""
    out: list[str] = []
    start, end = index.position[id(fail)] + 1, index.position[id(fix)]
    for e in index.stream[start:end]:
        if e.tool is None or e.tool.status != s.OK:
            continue
        t = e.tool
        if t.name in s.EDIT_TOOLS:
            path = t.input.get("file_path") or t.input.get("path")
            if isinstance(path, str):
                out.append(f"edited {path}")
        elif t.command and (_INSTALL.search(t.command) or _EXPORT.match(t.command)):
            out.append(f"ran `{fmt.clip(t.command, 80)}`")
    return list(dict.fromkeys(out))


_DIGITS = re.compile(r"\d+")
_PATHISH = re.compile(r"(?:/[\w.\-]+)+")


def signature(call: s.ToolCall) -> str:
    prog, sub = shell.job(steps.failing(call.command or "", call.output)[0])
    err = _DIGITS.sub("N", _PATHISH.sub("P", shell.error_line(call.output).lower()))
    return f"{prog} {sub}|{err}"


def _failures(sessions: list[s.Session]) -> dict[str, list[tuple[s.Session, s.Event]]]:
    """Each failure signature of these sessions with its failed calls."""
    seen: dict[str, list[tuple[s.Session, s.Event]]] = {}
    for sess in sessions:
        for stream in streams(sess):
            for event in shell_events(stream):
                call = tool_of(event)
                if _real_failure(call) and call.command:
                    seen.setdefault(signature(call), []).append((sess, event))
    return seen


def _times(hits: list[tuple[s.Session, s.Event]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for sess, _ in hits:
        out[sess.session_id] = out.get(sess.session_id, 0) + 1
    return out


def repeated_failures(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """The same failure (normalized command and error) in two or more sessions, those of earlier
    runs counted (``opts.triggers``)."""
    for sig, hits in _failures(sessions).items():
        here = _times(hits)
        before = triggers.earlier(opts.triggers, triggers.FAILURE, sig, here)
        session_ids = sorted({*here, *before})
        if len(session_ids) < 2:
            continue
        first = tool_of(hits[0][1])
        data = {
            "command": first.command,
            "error": shell.error_line(first.output),
            "category": shell.classify(first.exit_code, first.output),
            "exit_code": first.exit_code,
            "sessions": len(session_ids),
            "times": len(hits) + sum(before.values()),
            "signature": sig,
        }
        yield Finding(
            "repeated_failure",
            evidence_key("repeat", sig, *session_ids),
            hits[0][0].session_id,
            [e.at for _, e in hits][:6],
            hits[0][1].ts,
            5,
            data,
            untrusted=("error",),
        )


_TOOL_ERRORS = [
    (
        "edit_mismatch",
        re.compile(r"String to replace not found|old_string .* not found|not unique", re.I),
    ),
    ("missing_file", re.compile(r"File does not exist|No such file|ENOENT", re.I)),
    ("tool_unavailable", re.compile(r"No such tool available|is not available|is disabled", re.I)),
    ("file_too_large", re.compile(r"exceeds maximum allowed tokens|too large", re.I)),
    ("binary_file", re.compile(r"cannot read binary files", re.I)),
    ("sibling", re.compile(r"Sibling tool call errored", re.I)),
]


def tool_error_kind(call: s.ToolCall) -> str:
    if call.status == s.BLOCKED:
        return "blocked"
    for name, pattern in _TOOL_ERRORS:
        if pattern.search(call.output[:500]):
            return name
    return "other"


def tool_errors(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Errors of non-shell tools (and harness refusals of shell calls), grouped by tool and kind."""
    for sess in sessions:
        groups: dict[tuple[str, str], list[s.Event]] = {}
        for event in sess.events:
            call = event.tool
            if call is None or call.status not in (s.ERROR, s.BLOCKED):
                continue
            if call.is_shell and call.status != s.BLOCKED:
                continue
            kind = tool_error_kind(call)
            if kind != "sibling":
                groups.setdefault((call.name, kind), []).append(event)
        for (name, kind), events in groups.items():
            call = tool_of(events[0])
            target = call.input.get("file_path") or call.input.get("path") or call.command or ""
            target = relative(str(target), sess.cwd)
            strength = {
                "tool_unavailable": 3,
                "blocked": 3,
                "file_too_large": 2,
                "missing_file": 2,
                "binary_file": 2,
            }.get(kind, 1)
            data = {
                "tool": name,
                "error_kind": kind,
                "read_in_parts": kind == "file_too_large" and _read_in_parts(sess, events[-1]),
                "count": len(events),
                "target": str(target),
                "error": shell.error_line(
                    call.output.replace("<tool_use_error>", "").replace("</tool_use_error>", "")
                ),
            }
            yield Finding(
                "tool_error",
                evidence_key("tool", sess.session_id, *(tool_of(e).id for e in events)),
                sess.session_id,
                [e.at for e in events][:6],
                events[0].ts,
                strength + (1 if len(events) >= 3 else 0),
                data,
                untrusted=("error",),
            )


# A refusal's reason without what varies between the calls it refused: the quoted command or
# folder, paths, numbers; for a hook, the words after its command ("[uv run .../hook.py]: ").
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_HOOK_HEAD = re.compile(r"^.*?\bhook\b[^\[]*\[[^\]]*\]:?\s*", re.I)
_WORD = re.compile(r"(?<![\w.-])\.?[A-Za-z_][\w.-]*")
_WHO = {s.BY_HOOK, s.BY_PERMISSION}


def _refusal_rule(call: s.ToolCall) -> str:
    """Which rule refused a call, as the same text for every call it refused."""
    reason = shell.error_line(call.output.replace("<tool_use_error>", ""))
    reason = _HOOK_HEAD.sub("", reason) if call.refused_by == s.BY_HOOK else reason
    reason = _QUOTED.sub("Q", reason)
    return f"{call.refused_by}|{_DIGITS.sub('N', _PATHISH.sub('P', reason.lower()))[:120]}"


def hook_script(command: str | None, cwd: str | None) -> str | None:
    """The repository's script a refusing hook's command runs, relative to the session's folder
    (``uv run .claude/hooks/pre_tool_use.py``); None for a hook of the user's home (no file of
    the repository) or none known (``ToolCall.hook``, as the reader found it)."""
    if command is None:
        return None
    root = (cwd or "").rstrip("/")
    words = shell.split(command)
    for word in [w for outer in words for w in (shell.split(outer) if " " in outer else [outer])]:
        # `sh -c 'cd <root> && uv run .claude/hooks/x.py'`: the inner command's words too
        word = word.strip("'\"").replace("$CLAUDE_PROJECT_DIR/", "")
        if root and word.startswith(root + "/"):
            word = word[len(root) + 1 :]
        plain = not any(c in word for c in ("..", "=", "$"))  # no assignment, no variable
        if "/" in word and plain and not word.startswith(("/", "~", "-")):
            return word
    return None


def _refused_words(call: s.ToolCall, cwd: str | None) -> tuple[set[str], set[str]]:
    """(the programs of a refused call's steps, every word of it): a shell call's words as the
    agent typed them, a file tool's file name; never the folders of the session's root."""
    if call.command:
        text = call.command
        programs = {steps.program_of(step) for step in steps.split(text)}
    else:
        text = " ".join(p.rsplit("/", 1)[-1] for p in call.paths)
        programs = set()
    root = set((cwd or "").split("/"))
    words = {w for w in _WORD.findall(text) if w not in root and len(w) > 1}
    return programs & words, words


def _shown(sess: s.Session, call: s.ToolCall) -> str:
    """A refused call as the agent wrote it, the session's root left out of its paths."""
    root = (sess.cwd or "").rstrip("/")
    text = call.command or (call.paths[0] if call.paths else call.name)
    return text.replace(root + "/", "") if root else text


def _refusals(sessions: list[s.Session]) -> dict[str, list[tuple[s.Session, s.Event]]]:
    """Each rule of the user's that refused calls in these sessions, with those calls."""
    groups: dict[str, list[tuple[s.Session, s.Event]]] = {}
    for sess in sessions:
        for event in sess.events:
            call = event.tool
            if call is not None and call.status == s.BLOCKED and call.refused_by in _WHO:
                groups.setdefault(_refusal_rule(call), []).append((sess, event))
    return groups


def _shared_words(hits: list[tuple[s.Session, s.Event]]) -> tuple[set[str], set[str]]:
    """(the programs, the words) every refused call held."""
    programs: set[str] | None = None
    words: set[str] | None = None
    for sess, event in hits:
        p, w = _refused_words(tool_of(event), sess.cwd)
        programs = p if programs is None else programs & p
        words = w if words is None else words & w
    return programs or set(), words or set()


def met(sessions: list[s.Session], seen: str) -> dict[str, dict[str, Any]]:
    """The triggers these sessions met (failure signatures, refusing rules), as state.json keeps
    them for later runs (detect/triggers.py); ``seen`` is this run's time."""
    out = dict(
        triggers.record(triggers.FAILURE, sig, _times(hits), seen)
        for sig, hits in _failures(sessions).items()
    )
    for rule, hits in _refusals(sessions).items():
        programs, words = _shared_words(hits)
        out.update([triggers.record(triggers.REFUSAL, rule, _times(hits), seen, programs, words)])
    return out


# A hook's own words for refusing (its message after the harness's "hook error: [command]:"):
# a hook that failed to start ("Failed to spawn", "No such file") refused nothing on purpose.
_DELIBERATE = re.compile(r"\b(?:blocked|denied|prohibited|not allowed|prevented|refused)\b", re.I)


def _reason(call: s.ToolCall) -> str:
    """A hook's message without the harness's head naming the hook's command."""
    text = call.output.replace("<tool_use_error>", "")[:1000]
    return _HOOK_HEAD.sub("", text, count=1)


def _named(words: list[str], reason: str) -> list[str]:
    """The words a refusal's reason names itself (``rm`` of "Dangerous rm command", ``.env`` of
    "Access to .env files"; ``.env.local`` for ``.env``): the agent's own words, picked by it."""
    tokens = set(re.findall(r"(?<![\w.-])\.?[A-Za-z_][\w-]*", reason.lower()))

    def first_part(word: str) -> str:  # `.env.local` is one of the ".env files"
        dot = word.startswith(".")
        return ("." if dot else "") + word[dot:].split(".", 1)[0]

    return [w for w in words if {w.lower(), first_part(w.lower())} & tokens]


def _named_twice(
    hits: list[tuple[s.Session, s.Event]], reason: str
) -> tuple[list[tuple[s.Session, s.Event]], set[str], set[str]]:
    """The refused calls holding the word the reason names that most of them hold, two at
    least, with (the programs, the words) those calls share; no calls where none is held twice."""
    named: dict[str, list[tuple[s.Session, s.Event]]] = {}
    for sess, event in hits:
        programs, words = _refused_words(tool_of(event), sess.cwd)
        for word in {*_named(sorted(programs), reason), *_named(sorted(words), reason)}:
            named.setdefault(word, []).append((sess, event))
    best = max(named.items(), key=lambda kv: (len(kv[1]), len(kv[0]), kv[0]), default=None)
    if best is None or len(best[1]) < 2:
        return [], set(), set()
    programs, words = _shared_words(best[1])
    return best[1], programs, words


def repeated_refusals(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """A rule of the user's (a hook, the permission settings) refusing the agent's calls, named
    by what those calls had in common: a program all of them ran (``rm``), else a word all of
    them held (``.env``). Met in two or more sessions, it is the same trigger again. In one
    session only a hook that said it refused on purpose, naming the word itself ("BLOCKED:
    Dangerous rm command"): one the repository carries (its script named in the harness's
    message), the project's rule written down, from its first refusal; one of the user's home
    once it refused two calls holding that word (the agent met it again). A permission
    prompt's denial and a hook that failed to start stay a per-session tool error until they
    are met in another session."""
    for rule, hits in _refusals(sessions).items():
        here = _times(hits)
        before = triggers.earlier(opts.triggers, triggers.REFUSAL, rule, here)
        session_ids = sorted({*here, *before})
        first = tool_of(hits[0][1])
        programs, words = _shared_words(hits)
        if before:  # what the calls of the earlier sessions shared too (matched by hash)
            programs = triggers.shared(opts.triggers, rule, "programs", programs)
            words = triggers.shared(opts.triggers, rule, "words", words)
        common = sorted(programs) or sorted(words, key=lambda w: (-len(w), w))
        scripts = {hook_script(tool_of(e).hook, sess.cwd) for sess, e in hits}
        script = scripts.pop() if len(scripts) == 1 else None
        if len(session_ids) < 2:
            # One session: a hook that said it refused on purpose, naming the word: a program
            # of the refused calls, else a word of them (`rm` of `git rm`).
            reason = _reason(first)
            if first.refused_by != s.BY_HOOK or not _DELIBERATE.search(reason):
                continue
            if script is None:
                # A hook of the user's home: the same word named by two of its refusals here.
                hits, programs, words = _named_twice(hits, reason)
            by_size = sorted(words, key=lambda w: (-len(w), w))
            common = _named(sorted(programs), reason) or _named(by_size, reason)
        if not common:
            continue  # nothing the refused calls shared: no trigger to name
        shown = sorted(
            ((sess, tool_of(e)) for sess, e in hits if tool_of(e).command or tool_of(e).paths),
            key=lambda h: (common[0] not in _refused_words(h[1], h[0].cwd)[0], len(_shown(*h))),
        )
        examples = list(dict.fromkeys(fmt.clip(_shown(sess, call), 100) for sess, call in shown))
        data = {
            "refused_by": first.refused_by,
            "word": common[0],
            "is_program": common[0] in programs,
            "examples": examples[:3],
            "times": len(hits) + sum(before.values()),
            "sessions": len(session_ids),
            "error": shell.error_line(first.output.replace("<tool_use_error>", "")),
        }
        if first.refused_by == s.BY_HOOK and script is not None:
            data["hook"] = script  # every refusal named the same script of the repo
        yield Finding(
            "repeated_refusal",
            evidence_key("refusal", rule, *session_ids),
            hits[0][0].session_id,
            [e.at for _, e in hits][:6],
            hits[0][1].ts,
            4,
            data,
            untrusted=("error",),
        )


def _read_in_parts(sess: s.Session, refused: s.Event) -> bool:
    """Whether the file a read refused as too large was then read in parts (offset/limit)."""
    path = tool_of(refused).input.get("file_path")
    after = sess.events[sess.events.index(refused) + 1 :]
    return any(
        e.tool is not None
        and e.tool.status == s.OK
        and e.tool.input.get("file_path") == path
        and ("offset" in e.tool.input or "limit" in e.tool.input)
        for e in after
    )


def slow_commands(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Shell commands that took at least ``opts.slow_seconds`` (or were moved to the background)."""
    for sess in sessions:
        for stream in streams(sess):
            for event in shell_events(stream):
                call = tool_of(event)
                if call.status in (s.REJECTED, s.INTERRUPTED) or not call.command:
                    continue
                if shell.program(call.command) == "sleep":
                    continue  # waiting on purpose
                slow = call.duration_s is not None and call.duration_s >= opts.slow_seconds
                if not slow and call.status != s.BACKGROUND:
                    continue
                data = {
                    "command": call.command,
                    "duration_s": call.duration_s,
                    "duration": fmt.duration(call.duration_s or 0.0),
                    "moved_to_background": call.status == s.BACKGROUND,
                    "exit_code": call.exit_code,
                }
                strength = (
                    3
                    if (call.duration_s or 0) >= 5 * opts.slow_seconds
                    or call.status == s.BACKGROUND
                    else 2
                )
                yield Finding(
                    "slow_command",
                    evidence_key("slow", sess.session_id, call.id),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    strength,
                    data,
                )
