"""The default judge: deterministic rules over findings, offline and free.

Titles are short, specific and stable (no times, no counts) so the same lesson found again
normalizes to the same title and memory refuses it as a duplicate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from hindsight import fmt
from hindsight.detect import Finding, shell
from hindsight.judges.classify import failure
from hindsight.lessons import Judgement, Lesson, Recommendation, Unfinished

NAME = "rules"
_MISSING_MODULE = re.compile(r"No module named '?([\w.]+)'?")
_MISSING_PATH = re.compile(
    r"(?:cannot access '([^']+)'|([\w./~-]+): No such file|can't open file '([^']+)')"
)
_NO_TARGET = re.compile(r"No rule to make target '([^']+)'")


def _exited(d: Mapping[str, object]) -> str:
    """Older Claude Code versions wrote no exit code for a failure: say it failed, nothing more."""
    code = d.get("exit_code")
    return f"exited {code}" if code is not None else "failed"


def _exit_prefix(d: Mapping[str, object]) -> str:
    code = d.get("exit_code")
    return f"exit {code}: " if code is not None else ""


def _code(text: str, limit: int = 70) -> str:
    return "`" + fmt.clip(text, limit).replace("`", "'") + "`"


def _job(command: str, cwd: str | None = None) -> str:
    return shell.short(command, cwd=cwd)


def _said(d: dict[str, object]) -> str:
    """The failure in hindsight's words: error text is tool output and never quoted here."""
    return failure(str(d.get("error") or ""), d.get("exit_code"))


def _named(name: str | None, command: str) -> str | None:
    """A name taken from an error line, kept only where the agent's own command holds it too."""
    return name if name and name in command else None


def _where(f: Finding) -> list[str]:
    return [f"{w.path}:{w.line}" for w in f.where]


def _lesson(
    f: Finding, title: str, body: str, kind: str, memory: bool, strength: int | None = None
) -> Lesson:
    return Lesson(
        fmt.clip(title, 150),
        fmt.clip(body, 600),
        kind,
        strength or f.strength,
        [f.key],
        memory,
        _where(f),
    )


def _fixed(f: Finding) -> Lesson | None:
    d = f.data
    if d.get("typo"):
        return None  # put right at once: not a lesson
    command, fix, error = str(d["command"]), str(d["fix_command"]), str(d["error"])
    lost_s = d.get("lost_s")
    lost = (
        f" {fmt.duration(lost_s)} later" if lost_s is not None and lost_s >= 5 else " right after"
    )
    tries = f" after {d['attempts']} failed attempts" if d["attempts"] > 1 else ""
    if shell.normalize(command) == shell.normalize(fix):
        changed = d.get("changed") or []
        if not changed:
            body = f"{_code(command)} failed ({_exit_prefix(d)}{_said(d)}) and later passed as is; the cause is unclear."
            return _lesson(f, f"{_code(_job(command))} fails intermittently", body, "trap", False)
        body = (
            f"{_code(command)} {_exited(d)} ({_said(d)}){tries}; it passed after "
            f"{'; '.join(changed[:3])}."
        )
        setup = [c for c in changed if not c.startswith("edited ")]
        if not setup:
            # Edit, rerun, pass: the ordinary development loop, worth a report line, not memory.
            title = f"{_code(_job(command))} passed after edits"
            return _lesson(f, title, body, "fix", False, min(f.strength, 2))
        title = f"{_code(_job(command))} needs: {fmt.clip(setup[0], 70)}"
        return _lesson(f, title, body, "fix", f.strength >= 3)

    no_target = _NO_TARGET.search(error)
    category = d["category"]
    swapped = shell.swapped_program(command, fix)
    if swapped:
        title = f"{_code(swapped[0])} is not available here; use {_code(swapped[1])}"
    elif no_target:
        title = f"{_code(_job(command))} has no target here; use {_code(_job(fix), 60)}"
    elif category == shell.MISSING_DEPENDENCY:
        title = f"{_code(shell.program(command))} is not available here; use {_code(_job(fix), 60)}"
    elif category == shell.WRONG_PATH:
        title = f"{_code(_job(command), 50)} fails: wrong path; use {_code(_job(fix), 60)}"
    elif category == shell.AUTH:
        title = f"{_code(_job(command))} needs credentials; {_code(_job(fix), 60)} worked"
    else:
        title = f"{_code(_job(command))} fails here; {_code(_job(fix), 60)} works"
    body = f"{_code(command)} {_exited(d)} ({_said(d)}); {_code(fix)} worked{lost}{tries}."
    return _lesson(f, title, body, "fix", f.strength >= 3)


_ADVICE = {
    shell.MISSING_DEPENDENCY: "install it first or use what is available",
    shell.WRONG_PATH: "locate the file before using it",
    shell.AUTH: "credentials are not available to the agent: skip this step or ask the user",
    shell.WRONG_INVOCATION: "check its usage before running it",
}


def _unresolved(f: Finding) -> Lesson:
    d = f.data
    command, error, category = str(d["command"]), str(d["error"]), str(d["category"])
    module = _MISSING_MODULE.search(error)
    missing = shell.missing_program(error) if category == shell.MISSING_DEPENDENCY else None
    path = _MISSING_PATH.search(error) if category == shell.WRONG_PATH else None
    if missing := _named(missing, command):
        title = f"{_code(missing, 40)} is not installed here"
    elif module and (name := _named(module.group(1), command)):
        title = f"Python module {_code(name, 40)} is not installed here"
    elif path and (name := _named(next(g for g in path.groups() if g), command)):
        title = f"{_code(name, 60)} does not exist here"
    else:
        title = f"{_code(_job(command))} fails here ({category})"
    advice = _ADVICE.get(category, "no later command fixed it")
    body = f"{_code(command)} {_exited(d)} ({_said(d)}) and nothing fixed it; {advice}."
    memory = category in (shell.MISSING_DEPENDENCY, shell.AUTH) and f.strength >= 3
    return _lesson(f, title, body, "trap", memory)


def _repeated(f: Finding) -> Lesson:
    d = f.data
    missing = (
        shell.missing_program(str(d["error"]))
        if d["category"] == shell.MISSING_DEPENDENCY
        else None
    )
    if missing := _named(missing, str(d["command"])):
        title = f"{_code(missing, 40)} is not installed here"
    else:
        title = f"{_code(_job(str(d['command'])))} keeps failing: {_said(d)}"
    body = (
        f"{_code(str(d['command']))} failed the same way {d['times']} times in {d['sessions']} sessions "
        f"({_said(d)}); {_ADVICE.get(str(d['category']), 'fix the cause before retrying')}."
    )
    return _lesson(f, title, body, "trap", True)


def _tool_error(f: Finding) -> Lesson | None:
    d = f.data
    tool, kind, target = str(d["tool"]), str(d["error_kind"]), str(d["target"])
    if kind == "tool_unavailable":
        return _lesson(
            f,
            f"The {tool} tool is not available in these sessions",
            f"Calls to {tool} failed ({_said(d)}); use the tools that are offered, "
            "e.g. find and grep through Bash.",
            "trap",
            True,
        )
    if kind == "blocked":
        return _lesson(
            f,
            f"{_code(target or tool, 60)} is blocked by the harness",
            f"The call was refused ({_said(d)}); do not retry it as is.",
            "trap",
            True,
        )
    if kind == "file_too_large":
        return _lesson(
            f,
            f"{_code(target, 70)} is too large to read whole",
            "Read it in parts (offset/limit) or search it with grep.",
            "trap",
            True,
        )
    if kind == "missing_file":
        return _lesson(
            f,
            f"{_code(target, 70)} does not exist",
            f"{tool} failed {d['count']} time(s): {_said(d)}.",
            "trap",
            d["count"] >= 2,
        )
    if kind == "edit_mismatch":
        return _lesson(
            f,
            f"Edits to {_code(target, 70)} missed their text",
            f"{d['count']} edit(s) failed: re-read the file before editing.",
            "trap",
            d["count"] >= 3,
        )
    return None


def _slow(group: list[Finding]) -> Lesson:
    worst = max(group, key=lambda f: f.data.get("duration_s") or 0.0)
    d = worst.data
    job = " ".join(shell.job(str(d["command"]))).strip()
    if d.get("moved_to_background"):
        body = f"{_code(str(d['command']))} outlived its timeout and was moved to the background."
        title = f"{_code(job)} outlives the default timeout"
    else:
        title = (
            f"{_code(job)} is slow (minutes)"
            if (d["duration_s"] or 0) >= 120
            else f"{_code(job)} is slow"
        )
        body = (
            f"{_code(str(d['command']))} took {d['duration']}"
            + (f" ({len(group)} runs this time)" if len(group) > 1 else "")
            + "; run it in the background or only when needed."
        )
    strength = max(f.strength for f in group)
    lesson = _lesson(worst, title, body, "slow", strength >= 3, strength)
    lesson.evidence = [f.key for f in group]
    return lesson


def _search_term(queries: list[str]) -> str:
    """What was looked for: a content pattern wins over a file-name glob (it names the topic)."""
    names: list[str] = []
    for q in reversed(queries):
        tool, _, pattern = q.partition(": ")
        if tool in ("Grep", "grep_search", "search_file_content") and pattern:
            return pattern
        if tool in ("Glob", "glob", "LS", "list_directory") and pattern:
            names.append(pattern)
            continue
        words = shell.split(q)
        if words and words[0] in ("grep", "rg", "ag", "ack"):
            rest = [w for w in words[1:] if not w.startswith("-") and w != "."]
            if rest:
                return rest[0]
        elif (
            words
            and words[0] in ("find", "fd")
            and "-name" in words
            and words.index("-name") + 1 < len(words)
        ):
            names.append(words[words.index("-name") + 1])
    return names[0] if names else ""


def _long_search(f: Finding) -> Lesson:
    d = f.data
    term = _search_term(list(d["queries"]))
    what = f"'{fmt.clip(term, 40)}'" if term else "this"
    spent = f" ({fmt.duration(d['seconds'])})" if d.get("seconds") and d["seconds"] >= 10 else ""
    body = (
        f"Found after {d['searches']} searches{spent}: "
        + ", ".join(_code(q, 50) for q in d["queries"][:4])
        + "."
    )
    return _lesson(
        f,
        f"{what.capitalize() if term else 'This'} lives at {_code(str(d['path']), 80)}"
        if term
        else f"Look in {_code(str(d['path']), 80)} first",
        body,
        "search",
        True,
    )


def _correction(f: Finding) -> Lesson:
    d = f.data
    quote = fmt.clip(str(d["quote"]), 200).replace('"', "'")
    body = f'After {_code(str(d["after"]), 80)} ({d["after_status"]}), the user said: "{quote}".'
    return _lesson(f, f'User preference: "{fmt.clip(quote, 90)}"', body, "preference", True)


def _todos(f: Finding) -> tuple[Lesson, Unfinished]:
    todos = [str(t) for t in f.data["todos"]]
    body = "Still open when the session ended: " + "; ".join(todos[:5]) + "."
    lesson = _lesson(f, f"Unfinished: {fmt.clip(todos[0], 90)}", body, "unfinished", True)
    return lesson, Unfinished(lesson.title, body, [f.key])


def _decision(f: Finding) -> Lesson | None:
    d = f.data
    sentence = str(d["sentence"])
    if not d["reasoned"] and not re.search(r"\b(?:instead of|rather than)\b", sentence, re.I):
        return None  # "I'll use that alias next": an intention, not a decision with a reason
    return _lesson(
        f,
        f"Decision: {fmt.clip(sentence, 100)}",
        sentence,
        "decision",
        bool(d["reasoned"] and d["stuck"]),
    )


def _abandoned(f: Finding) -> Lesson:
    d = f.data
    if "dropped" in d:
        return _lesson(
            f,
            f"Use {_code(str(d['adopted']), 40)}, not {_code(str(d['dropped']), 40)}",
            f"{d['dropped']} was uninstalled and {d['adopted']} installed instead ({_code(str(d['how']))}).",
            "decision",
            True,
        )
    return _lesson(
        f,
        f"Dropped approach: {_code(str(d['path']), 80)}",
        f"{d['path']} was written and later removed ({_code(str(d['how']))}).",
        "decision",
        False,
    )


def _reference(f: Finding) -> Lesson:
    d = f.data
    if "url" in d:
        return _lesson(
            f,
            f"Reference: {fmt.clip(str(d['url']), 120)}",
            "Fetched while working.",
            "reference",
            False,
        )
    return _lesson(
        f,
        f"{_code(str(d['path']), 80)} is a reference worth keeping",
        f"Read {d['reads']} times in {d['sessions']} session(s).",
        "reference",
        True,
    )


def _recommendation(f: Finding) -> Recommendation:
    d = f.data
    if d["type"] == "improve_skill":
        return Recommendation(
            "improve_skill",
            f"{d['failures']} failures right after the skill ran: "
            + ", ".join(_code(str(c), 40) for c in d["commands"]),
            f"skill {d['skill']}",
            "Update the skill's instructions for these steps.",
            [f.key],
        )
    steps = " -> ".join(_code(str(step), 40) for step in d["steps"])
    if d["type"] == "propose_skill":
        fix = "Write a skill that runs this procedure and says when to use it."
    else:
        fix = "Extract a script (or a make target) for this sequence."
    return Recommendation(
        str(d["type"]),
        f"The same steps in {d['sessions']} sessions: {steps}",
        f"{d['sessions']} sessions",
        fix,
        [f.key],
    )


class RulesJudge:
    """Findings -> lessons, deterministically. Memory gets only what generalizes."""

    name = NAME

    def judge(self, findings: list[Finding], digest: str | None = None) -> Judgement:
        out = Judgement(NAME)
        simple: dict[str, Callable[[Finding], Lesson | None]] = {
            "failed_then_fixed": _fixed,
            "unresolved_failure": _unresolved,
            "repeated_failure": _repeated,
            "tool_error": _tool_error,
            "long_search": _long_search,
            "correction": _correction,
            "decision": _decision,
            "abandoned": _abandoned,
            "reference": _reference,
        }
        slow: dict[str, list[Finding]] = {}
        by_topic: dict[str, Lesson] = {}
        for f in findings:
            if f.kind in simple:
                lesson = simple[f.kind](f)
                if lesson is None:
                    continue
                topic = f.data.get("signature")
                if isinstance(topic, str) and topic in by_topic:
                    _merge(
                        by_topic[topic], lesson
                    )  # one failure, one lesson: the strongest wording
                    continue
                if isinstance(topic, str):
                    by_topic[topic] = lesson
                out.lessons.append(lesson)
            elif f.kind == "slow_command":
                slow.setdefault(" ".join(shell.job(str(f.data["command"]))), []).append(f)
            elif f.kind == "unfinished_todos":
                lesson, item = _todos(f)
                out.lessons.append(lesson)
                out.unfinished.append(item)
            elif f.kind == "ended_on_error":
                d = f.data
                out.unfinished.append(
                    Unfinished(
                        f"Session ended on a failed {_code(_job(str(d['command'])))}",
                        f"{_code(str(d['command']))} {_exited(d)} ({_said(d)}) as the last "
                        "command of the session.",
                        [f.key],
                    )
                )
            elif f.kind == "recommendation":
                out.recommendations.append(_recommendation(f))
        out.lessons.extend(_slow(group) for group in slow.values())
        _drop_same_titles(out)
        out.unfinished = _unique_unfinished(out.unfinished)

        out.lessons.sort(key=lambda lesson: -lesson.strength)
        return out


def _unique_unfinished(items: list[Unfinished]) -> list[Unfinished]:
    kept: dict[str, Unfinished] = {}
    for item in items:
        if item.title in kept:
            kept[item.title].evidence += [
                k for k in item.evidence if k not in kept[item.title].evidence
            ]
        else:
            kept[item.title] = item
    return list(kept.values())


def _merge(into: Lesson, other: Lesson) -> None:
    into.evidence += [k for k in other.evidence if k not in into.evidence]
    into.where += [w for w in other.where if w not in into.where]
    into.memory = into.memory or other.memory


def _drop_same_titles(out: Judgement) -> None:
    """One lesson per title within a run: merge the evidence of look-alikes into the first."""
    from hindsight.memory import normalize_title

    kept: dict[str, Lesson] = {}
    for lesson in out.lessons:
        key = normalize_title(lesson.title)
        if key in kept:
            first = kept[key]
            _merge(first, lesson)
            first.strength = min(5, max(first.strength, lesson.strength) + 1)
        else:
            kept[key] = lesson
    out.lessons = list(kept.values())
