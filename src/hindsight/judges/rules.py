"""The default judge: deterministic rules over findings, offline and free.

Titles are short, specific and stable (no times, no counts) so the same lesson found again
normalizes to the same title and memory refuses it as a duplicate.

Memory takes a lesson only on strong evidence (issue #10): a verified fix, the user's own words,
or the same failure in two or more sessions. Everything else (a failure seen once, a refusal, a
slow command, a search, a document read twice, open todos, the agent's own stated decisions) is
the report's: true as far as it goes, but not enough to instruct every future session.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from hindsight import fmt
from hindsight.detect import Finding, conversation, shell, steps
from hindsight.judges import FINDINGS, Options, Plan, Spent, wording
from hindsight.judges.classify import CODE_DEFECTS, failure, named
from hindsight.judges.fix_lessons import fixed as _fixed
from hindsight.lessons import Judgement, Lesson, Recommendation, Unfinished

NAME = "rules"
_MISSING_MODULE = re.compile(r"No module named '?([\w.]+)'?")
_MISSING_PATH = re.compile(
    r"(?:cannot access '([^']+)'|([\w./~-]+): No such file|can't open file '([^']+)')"
)


_code = wording.code
_job = wording.job
_where = wording.where
_lesson = wording.lesson


def _exited(d: Mapping[str, object]) -> str:
    """Older Claude Code versions wrote no exit code for a failure: say it failed, nothing more."""
    code = d.get("exit_code")
    return f"exited {code}" if code is not None else "failed"


def _said(d: dict[str, object]) -> str:
    """The failure in hindsight's words: error text is tool output and never quoted here."""
    return failure(str(d.get("error") or ""), d.get("exit_code"))


def _named(name: str | None, command: str) -> str | None:
    """A name taken from an error line, kept only where the agent's own command holds it too."""
    return name if name and name in command else None


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
        # The step that failed, where the error named it: not the chain's first `echo`.
        step = str(d["step"]) if d.get("step_known") and d.get("step") else command
        title = f"{_code(_job(step))} fails here ({category})"
    said = _said(d)
    # "exited 128 (exit 128)", "failed (failed)": a failure with no class says it once.
    detail = "" if said in ("failed", f"exit {d.get('exit_code')}") else f" ({said})"
    advice = _ADVICE.get(category)
    then = f"; {advice}" if advice else ""
    body = f"{_code(command)} {_exited(d)}{detail} and no later command fixed it{then}."
    # Seen once and never fixed: the report's. Seen in two sessions, it is a repeated failure.
    return _lesson(f, title, body, "trap", False)


def _repeated(f: Finding) -> Lesson:
    d = f.data
    missing = (
        shell.missing_program(str(d["error"]))
        if d["category"] == shell.MISSING_DEPENDENCY
        else None
    )
    said = _said(d)
    # Memory takes the same trigger met again; a failure with no named cause, or one of the code
    # under work (a build that does not compile, tests that fail), says nothing a next session
    # can act on: each time the edit loop met another defect behind the same words.
    trigger = named(said) and said not in CODE_DEFECTS
    if missing := _named(missing, str(d["command"])):
        title = f"{_code(missing, 40)} is not installed here"
    elif trigger:
        title = f"{_code(_job(str(d['command'])))} keeps failing: {said}"
    else:
        cause = f" ({said})" if named(said) else ""
        title = f"{_code(_job(str(d['command'])))} failed in more than one session{cause}"
    advice = _ADVICE.get(str(d["category"]), "fix the cause before retrying")
    same = " the same way" if missing or trigger else ""
    body = (
        f"{_code(str(d['command']))} failed{same} {d['times']} times in {d['sessions']} sessions "
        f"({said}); {advice}."
    )
    return _lesson(f, title, body, "trap", bool(missing) or trigger)


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
            False,
        )
    if kind == "blocked":
        return _lesson(
            f,
            f"{_code(target or tool, 110)} is blocked by the harness",
            f"The call was refused ({_said(d)}); do not retry it as is.",
            "trap",
            False,
        )
    if kind == "file_too_large" and target:
        return _lesson(
            f,
            f"{_code(target, 70)} is too large to read whole",
            "Read it in parts (offset/limit) or search it with grep.",
            "trap",
            bool(d.get("read_in_parts")),  # verified: a read in parts then worked
        )
    if kind == "binary_file" and target:
        return _lesson(
            f,
            f"{_code(target, 70)} is binary: the {tool} tool cannot read it",
            "Read it through a program that parses its format (a script run with Bash).",
            "trap",
            False,
        )
    if kind == "missing_file":
        return _lesson(
            f,
            f"{_code(target, 70)} does not exist",
            f"{tool} failed {d['count']} time(s): {_said(d)}.",
            "trap",
            False,
        )
    if kind == "edit_mismatch":
        return _lesson(
            f,
            f"Edits to {_code(target, 70)} missed their text",
            f"{d['count']} edit(s) failed: re-read the file before editing.",
            "trap",
            False,
        )
    return None


_REFUSER = {"hook": "a hook of the user's", "permission": "the user's permission settings"}


def _refusal(f: Finding) -> Lesson:
    """The same rule refusing calls in two or more sessions: the user's rule, met again."""
    d = f.data
    who = _REFUSER.get(str(d["refused_by"]), "the harness")
    what = "Commands running" if d["is_program"] else "Calls naming"
    word = _code(str(d["word"]), 40)
    # The refused calls themselves are named in the report's evidence, not here: memory says
    # only what every one of them shared, in the agent's own words.
    # The hook's script where it is the repository's (a path taint clears by its existence);
    # the title stays as it was, the dedup key of entries already in memory.
    hook = f" ({_code(str(d['hook']), 60)})" if d.get("hook") else ""
    times = "a call" if d["times"] == 1 else f"{d['times']} calls"
    sessions = "one session" if d["sessions"] == 1 else f"{d['sessions']} sessions"
    body = (
        f"{who[0].upper()}{who[1:]}{hook} refused {times} with {word} in {sessions}; "
        "do not retry them as is: the rule is the user's."
    )
    # "were": what the evidence shows; a permission rule may refuse only some of them (a `cd`
    # out of the session's folder), and the title claims no more than the refusals seen.
    return _lesson(f, f"{what} {word} were refused here by {who}", body, "trap", True)


# The traps that explain failures the fix detector also paired ("covers": their signatures).
_EXPLAINS = frozenset({"stale_folder", "unquoted_pattern"})


def _stale_folder(f: Finding) -> Lesson:
    """A relative `cd` that failed because an earlier call had moved the shell: the records show
    where it stood, so the cause is verified; the advice is hindsight's own."""
    shown = []
    for example in f.data["examples"][:2]:
        where = (
            "from inside it"
            if example["already_there"]
            else f"from {_code(str(example['folder']), 60)}"
        )
        if "hook" in example:
            # The hook's command comes from the settings, its script by a path relative to the
            # shell's folder: it ran from the root, and could not be found from here.
            hook = _code(str(example["hook"]), 60)
            shown.append(
                f"the hook {hook} could not be found {where} (it ran from the repository root)"
            )
        elif "path" in example:
            # The path alone: it works from the root; the rest of the step may be another
            # matter (a flag the agent learnt from the script's own usage text).
            path = _code(str(example["path"]), 60)
            shown.append(f"{path} was not found {where} (it is relative to the repository root)")
        else:
            shown.append(f"{_code(str(example['step']), 60)} failed {where}")
    body = (
        "; ".join(shown)
        + ": Bash calls share one shell, so the folder an earlier `cd` moved to stays. Use "
        "absolute paths, or `cd` back to the repository root first."
    )
    if any("hook" in example for example in f.data["examples"][:2]):
        body += " Hooks run in that folder too, so one named by a relative path fails there."
    # One title for every session: the same trap met again is refused as a duplicate.
    return _lesson(
        f, "A `cd` persists between Bash calls here: use absolute paths", body, "trap", True
    )


def _unquoted_pattern(f: Finding) -> Lesson:
    """A path with brackets or parentheses the shell read as a pattern: zsh named the word it
    could not expand, the agent had typed it unquoted; the advice is hindsight's own."""
    shown = [
        f"{_code(str(e['program']), 30)} with {_code(str(e['word']), 70)}"
        for e in f.data["examples"][:2]
    ]
    body = (
        f"{'; '.join(shown)} failed before it ran: unquoted, zsh reads `[...]` and `(...)` in a "
        "path as a pattern and stops when no file matches it. Put such paths in quotes."
    )
    # One title for every session: the same trap met again is refused as a duplicate.
    title = (
        "Quote paths holding brackets or parentheses in shell commands: zsh reads them as patterns"
    )
    return _lesson(f, title, body, "trap", True)


def _hidden_missing(f: Finding) -> Lesson:
    """A program the shell could not find, in a call the rest of the command made pass: the
    report's (one shell's PATH, once), titled alike in every session."""
    name = str(f.data["program"])
    body = (
        f"{_code(str(f.data['command']), 100)} passed, but the shell found no "
        f"{_code(name, 30)}: its exit status was a later step's. Check with "
        f"`command -v {name}` first."
    )
    return _lesson(
        f, f"{_code(name, 30)} is not available in the agent's shell here", body, "trap", False
    )


_DID = {
    "build": "built",
    "push": "pushed",
    "deploy": "deployed",
    "dev server": "started the dev server",
}


def _check_command(f: Finding) -> Lesson:
    """How the session ran a check: a reference for the report, titled by the command so the
    same way met in another session is one lesson."""
    d = f.data
    command = _code(str(d["command"]), 100)
    if str(d["check"]).startswith("local server"):
        times = f" ({d['runs']} times)" if int(d["runs"]) > 1 else ""
        body = f"The session's requests to {command} were answered{times}."
        return _lesson(f, f"A local server answered here at {command}", body, "reference", False)
    times = f" ({d['runs']} runs)" if int(d["runs"]) > 1 else ""
    folder = f" in {_code(str(d['folder']) + '/', 60)}" if d.get("folder") else ""
    did = _DID.get(str(d["check"]), f"ran the {d['check']}")
    body = f"The session {did} with {command}{folder}{times}."
    title = f"{str(d['check']).capitalize()} here: {command}{folder}"
    return _lesson(f, title, body, "reference", False)


def _doing(step: str) -> str:
    """A step's program and subcommand, the program alone where that word is a flag's value
    (`jcode --provider ollama run`: not "jcode ollama")."""
    program, sub = shell.job(step)
    words = shell.split(shell.strip_noise(step))
    at = words.index(sub) if sub in words else -1
    if at > 0 and words[at - 1].startswith("-") and "=" not in words[at - 1]:
        return program
    return f"{program} {sub}".strip()


def _slow(group: list[Finding]) -> Lesson:
    worst = max(group, key=lambda f: f.data.get("duration_s") or 0.0)
    d = worst.data
    # The step that did the work, not the chain's first `echo`.
    job = _doing(steps.main_step(str(d["command"])))
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
    lesson = _lesson(worst, title, body, "slow", False, strength)
    lesson.evidence = [f.key for f in group]
    return lesson


def _timeouts(f: Finding) -> Lesson:
    """A job killed at the harness's time limit again and again: wait in shorter steps."""
    d = f.data
    limit = d.get("limit_s")
    minutes = f"{round(float(limit) / 60)} min" if isinstance(limit, (int, float)) else None
    after = f" after {minutes}" if minutes and float(limit or 0) >= 60 else ""
    shapes = " and ".join(_code(str(x), 40) for x in d["shapes"][:3])
    body = (
        f"{shapes} timed out{after} {d['times']} times in one session: the harness kills a "
        "command at its time limit. Wait in steps shorter than that, or run it in the background."
    )
    title = f"{_code(str(d['job']), 40)} commands time out{after} here"
    return _lesson(f, title, body, "trap", True)


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
    what = f"'{fmt.clip_words(term, 40)}'" if term else "this"
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
        False,
    )


def _correction(f: Finding) -> Lesson:
    d = f.data
    quote = fmt.clip(str(d["quote"]), 200).replace('"', "'")
    body = f'After {_code(str(d["after"]), 80)} ({d["after_status"]}), the user said: "{quote}".'
    # "Always do that from now on": what "that" was, memory cannot say (red team of session 7).
    # Words the user pasted (the error it answers, in quotes) are not the user's rule.
    memory = not conversation.points_back(quote, pronouns=False) and not d.get("pasted")
    return _lesson(f, f'User preference: "{fmt.clip_words(quote, 90)}"', body, "preference", memory)


def _instruction(f: Finding) -> Lesson:
    quote = str(f.data["quote"]).replace('"', "'")
    body = f'The user said: "{quote}".'
    memory = f.data.get("opening") is not False and not conversation.points_back(
        quote, pronouns=False
    )
    about = f.data.get("about")
    if isinstance(about, str):  # the user's "they" names what the agent had just named
        # The name after the quote: a name such as `.claude/...` right before "should" reads
        # to the screen as words addressed to an AI.
        body = f'The user said: "{quote}" (about {_code(about, 60)}, named just before).'
        title = f'User preference: "{fmt.clip_words(quote, 90)}" (about {_code(about, 60)})'
        return _lesson(f, title, body, "preference", memory)
    return _lesson(f, f'User preference: "{fmt.clip_words(quote, 90)}"', body, "preference", memory)


def _todos(f: Finding) -> tuple[Lesson, Unfinished]:
    todos = [str(t) for t in f.data["todos"]]
    body = "Still open when the session ended: " + "; ".join(todos[:5]) + "."
    lesson = _lesson(f, f"Unfinished: {fmt.clip_words(todos[0], 90)}", body, "unfinished", False)
    return lesson, Unfinished(lesson.title, body, [f.key])


def _decision(f: Finding) -> Lesson | None:
    d = f.data
    sentence = str(d["sentence"])
    if not d["reasoned"] and not re.search(r"\b(?:instead of|rather than)\b", sentence, re.I):
        return None  # "I'll use that alias next": an intention, not a decision with a reason
    return _lesson(
        f,
        f"Decision: {fmt.clip_words(sentence, 100)}",
        sentence,
        "decision",
        False,
    )


def _abandoned(f: Finding) -> Lesson:
    d = f.data
    if "dropped" in d:
        return _lesson(
            f,
            f"Use {_code(str(d['adopted']), 40)}, not {_code(str(d['dropped']), 40)}",
            f"{d['dropped']} was uninstalled and {d['adopted']} installed instead ({_code(str(d['how']))}).",
            "decision",
            False,
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
        False,
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
    reads = FINDINGS
    budget = 0
    spent: Spent | None = None  # nothing leaves the machine

    def __init__(self, options: Options | None = None) -> None:
        """Nothing to configure: the rules read the findings and send nothing."""

    def plan(self, digest: str) -> Plan | None:
        return None

    def judge(self, findings: list[Finding], digest: str | None = None) -> Judgement:
        out = Judgement(NAME)
        simple: dict[str, Callable[[Finding], Lesson | None]] = {
            "failed_then_fixed": _fixed,
            "unresolved_failure": _unresolved,
            "repeated_failure": _repeated,
            "tool_error": _tool_error,
            "repeated_refusal": _refusal,
            "repeated_timeout": _timeouts,
            "stale_folder": _stale_folder,
            "unquoted_pattern": _unquoted_pattern,
            "hidden_missing_program": _hidden_missing,
            "check_command": _check_command,
            "long_search": _long_search,
            "correction": _correction,
            "instruction": _instruction,
            "decision": _decision,
            "abandoned": _abandoned,
            "reference": _reference,
        }
        slow: dict[str, list[Finding]] = {}
        by_topic: dict[str, Lesson] = {}
        # Failures a trap explains (a `cd` that stuck, a path read as a pattern): their fixes
        # stay in the report.
        covered = {c for f in findings if f.kind in _EXPLAINS for c in f.data["covers"]}
        for f in findings:
            if f.kind in simple:
                lesson = simple[f.kind](f)
                if lesson is None:
                    continue
                if f.kind == "failed_then_fixed" and f.data.get("signature") in covered:
                    lesson.memory = False
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
                work = steps.main_step(str(f.data["command"]))
                slow.setdefault(" ".join(shell.job(work)), []).append(f)
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
