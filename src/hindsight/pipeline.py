"""The flow: gather (discover + read) -> detect -> judge -> apply (memory, report, state) -> commit."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from hindsight import (
    admit,
    clock,
    detect,
    discover,
    fsutil,
    keeping,
    layout,
    redact,
    report,
    state,
    targets,
    txn,
)
from hindsight.context import Context
from hindsight.detect import Finding
from hindsight.fmt import printable
from hindsight.ledger import MODEL, RULES
from hindsight.lessons import Judgement, Lesson
from hindsight.memory import DEFAULT_MAX_BYTES, AddResult, Entry, MemoryStore
from hindsight.progress import Progress
from hindsight.record import Record
from hindsight.screen import Screen
from hindsight.session import ReadStats, Session
from hindsight.sources.base import Window, file_key

MAX_NEW_MEMORY = 5


class Gathered(Record):
    _fields = (
        "since",
        "scan_started",
        "sessions",
        "transcripts",
        "bytes_read",
        "stats",
        "explicit_since",
        "progress",
        "unread",
        "horizon",
        "triggers",
    )
    since: datetime
    scan_started: datetime
    sessions: list[Session]
    transcripts: int
    bytes_read: int
    stats: ReadStats
    explicit_since: bool
    progress: dict[str, tuple[int, float]]  # file key -> (size, mtime) of each file read through
    unread: list[tuple[str, str]]  # (path, why) of each file that stays pending
    horizon: datetime | None  # the horizon to keep if none was saved yet
    triggers: dict[str, dict[str, Any]]  # met in earlier runs (detect/triggers.py)

    def __init__(
        self,
        since: datetime,
        scan_started: datetime,
        sessions: list[Session],
        transcripts: int,
        bytes_read: int,
        stats: ReadStats,
        explicit_since: bool = False,
        progress: dict[str, tuple[int, float]] | None = None,
        unread: list[tuple[str, str]] | None = None,
        horizon: datetime | None = None,
        triggers: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.since = since
        self.scan_started = scan_started
        self.sessions = sessions
        self.transcripts = transcripts
        self.bytes_read = bytes_read
        self.stats = stats
        self.explicit_since = explicit_since
        self.progress = {} if progress is None else progress
        self.unread = [] if unread is None else unread
        self.horizon = horizon
        self.triggers = {} if triggers is None else triggers

    def trusted_texts(self) -> list[str]:
        """What the user typed and the commands the agent ran: the only text that may instruct."""
        out: list[str] = []
        for sess in self.sessions:
            out += sess.prompts()
            out += [t.command for t in sess.shell_calls() if t.command]
        return out


def lock_path(ctx: Context) -> Any:
    return layout.lock(ctx.memory_dir)


def gather(
    ctx: Context,
    since_arg: str | None,
    *,
    show_progress: bool = False,
    since_at: datetime | None = None,
) -> Gathered:
    """Read every pending session; the scan start is taken before listing, so nothing slips by.

    Each file read through is recorded in ``progress``; each that could not be (unreadable,
    gone, a link loop) in ``unread``: it stays pending and the run names it.
    """
    scan_started = clock.now()
    horizon = None
    if since_at is not None:
        since = since_at
        window = Window(since=since_at.timestamp())
        saved = state.load(ctx.memory_dir, tolerate_corrupt=True)
    else:
        saved = state.load(ctx.memory_dir, tolerate_corrupt=bool(since_arg))
        since = discover.window_start(since_arg, saved, scan_started)
        window = discover.window(since_arg, saved, scan_started)
        horizon = discover.horizon(saved, scan_started)

    groups = discover.find(ctx, window)
    total = sum(t.size for g in groups for t in g.files)
    bar = Progress(len(groups), total, show_progress)
    sessions: list[Session] = []
    stats = ReadStats()
    done = 0
    try:
        for group, sess in zip(groups, discover.read(groups), strict=True):
            sessions.append(sess)
            stats.merge(sess.stats)
            done += sum(t.size for t in group.files)
            bar.update(len(sessions), done)
    finally:
        bar.close()
    transcripts = sum(len(g.files) for g in groups)
    progress: dict[str, tuple[int, float]] = {}
    unread = [(printable(path), why) for path, why in window.problems]
    for group, sess in zip(groups, sessions, strict=True):
        for t in group.files:
            file_stats = sess.file_stats.get(t.path)
            if file_stats is None or file_stats.files_unreadable:
                unread.append((printable(str(t.path)), "could not be read"))
            else:
                progress[file_key(str(t.path))] = (t.size, t.mtime)
    return Gathered(
        since,
        scan_started,
        sessions,
        transcripts,
        total,
        stats,
        bool(since_arg),
        progress,
        unread,
        horizon,
        saved.triggers,
    )


def find(gathered: Gathered, options: detect.Options | None = None) -> list[Finding]:
    """Every finding of the sessions read, with the triggers earlier runs met."""
    return detect.run_all(gathered.sessions, options or detect.Options(triggers=gathered.triggers))


class Applied(Record):
    _fields = (
        "lessons",
        "already_reported",
        "memory",
        "over_run_cap",
        "quarantined",
        "quarantine",
        "held",
        "kept_out",
        "report_path",
        "section",
        "targets",
        "notes",
        "waiting",
    )
    lessons: list[Lesson]  # new this run (not reported before)
    already_reported: int
    memory: AddResult
    over_run_cap: int  # memory-worthy lessons left to the report by the per-run cap
    quarantined: int
    quarantine: list[Quarantined]
    held: dict[str, str]  # title -> why the trust gate kept a memory-worthy lesson to the report
    kept_out: int  # of ``held``, those default-deny (admit.py) left to the report
    report_path: str | None
    section: str
    targets: dict[str, AddResult]  # what the other targets (AGENTS.md, GEMINI.md) got
    notes: list[str]  # what settling the ledger with MEMORY.md did (keeping.py)
    waiting: dict[str, str]  # title -> why it waits for the person's review (guard/decide.py)

    def __init__(
        self,
        lessons: list[Lesson] | None = None,
        already_reported: int = 0,
        memory: AddResult | None = None,
        over_run_cap: int = 0,
        quarantined: int = 0,
        quarantine: list[Quarantined] | None = None,
        held: dict[str, str] | None = None,
        kept_out: int = 0,
        report_path: str | None = None,
        section: str = "",
    ) -> None:
        self.lessons = [] if lessons is None else lessons
        self.already_reported = already_reported
        self.memory = AddResult() if memory is None else memory
        self.over_run_cap = over_run_cap
        self.quarantined = quarantined
        self.quarantine = [] if quarantine is None else quarantine
        self.held = {} if held is None else held
        self.kept_out = kept_out
        self.report_path = report_path
        self.section = section
        self.targets: dict[str, AddResult] = {}
        self.notes: list[str] = []
        self.waiting: dict[str, str] = {}


def apply(
    ctx: Context,
    judgement: Judgement,
    *,
    gathered: Gathered | None = None,
    findings: list[Finding] | None = None,
    max_new: int = MAX_NEW_MEMORY,
    max_bytes: int = DEFAULT_MAX_BYTES,
    dry_run: bool = False,
    commit: bool = False,
    own_judge: bool = False,
    target_names: Sequence[str] = (targets.CLAUDE,),
) -> Applied:
    """Write what is new, as one transaction (txn.py): report, archive, evidence keys, memory;
    with ``commit`` the watermark moves in the same transaction (``run``; the skill commits
    on its own).

    ``own_judge``: the lessons come from hindsight's own rules judge in this process, which may
    shorten a command in code; a model judge's JSON (``apply``, whatever its "judge" says) is held
    closer (``trust``/``claims``: commands exact, the user's words whole, no names from nowhere).
    """
    store = MemoryStore(ctx.memory_dir)
    claude = targets.CLAUDE in target_names
    others = [targets.resolve(ctx, name) for name in target_names if name != targets.CLAUDE]
    for each in ([store] if claude else []) + [t.store for t in others]:
        each.read()  # a malformed block stops everything before any file is touched
    tolerate = gathered is not None and gathered.explicit_since
    with fsutil.locked(lock_path(ctx)) if not dry_run else contextlib.nullcontext():
        if not dry_run:
            txn.recover(ctx.memory_dir)
        saved = state.load(ctx.memory_dir, tolerate_corrupt=tolerate)
        out = Applied()
        today = clock.today()
        book = keeping.Book.read(store, today) if dry_run else keeping.settle(store, today)
        out.notes = book.notes
        fresh = _fresh(judgement, saved.reported)
        out.already_reported = len(judgement.lessons) - len(fresh.lessons)
        if not own_judge:
            _quoted_entries(fresh)
        screen = Screen(gathered.trusted_texts() if gathered else (), _host_known(ctx))
        out.quarantine = _quarantine(fresh, screen)
        verified: set[str] = set()
        if not own_judge:
            # After the quarantine: a finding only a quarantined lesson cited is judged by no one.
            floor = _verified_floor(fresh, findings or [], saved.reported)
            _quarantine(floor, screen)  # screened as the rules' own are; not the judge's output
            fresh.lessons.extend(floor.lessons)
            verified = {x.title for x in floor.lessons}
        out.quarantined = len(out.quarantine)
        out.lessons = fresh.lessons
        # Default-deny (admit) and the trust gate both leave a lesson in the report, the reason
        # on its heading there.
        known = admit.in_repository(_git_root(ctx), ctx.memory_dir)
        denied = {
            x.title: reason
            for x in fresh.lessons
            if x.memory and (reason := admit.denial(f"{x.title}\n{x.body}", known))
        }
        out.kept_out = len(denied)
        kept = {**denied, **keeping.refused(fresh.lessons, book.records)}
        # What waits for the person is decided by consequence, and what the decision admits of
        # hindsight's own templates needs no word-by-word provenance (_hold).
        waiting, cleared = _consequences(ctx, fresh.lessons, gathered, kept)
        out.waiting = waiting
        out.held = {
            **kept,
            **waiting,
            **_hold(
                ctx,
                fresh,
                gathered,
                findings or [],
                own_judge,
                max_new,
                denied,
                screen,
                known,
                verified,
                cleared,
            ),
        }
        # The cap counts only lessons that passed both gates: a fooled judge cannot fill it first.
        wanted = sorted(
            (x for x in fresh.lessons if x.memory and x.title not in out.held),
            key=lambda x: (x.title in verified, -x.strength),  # as _hold met them
        )
        covered = _trim_floor(fresh, wanted, out, verified, max_new) if verified else set()
        out.over_run_cap = max(0, len(wanted) - max_new)
        entries = [Entry.make(x.title, x.body, x.kind, today) for x in wanted[:max_new]]
        origin = RULES if own_judge else MODEL
        order = book.order(origin)
        out.memory = store.plan(entries, max_bytes, order) if claude else AddResult()
        out.targets = {t.name: targets.plan(t, entries, max_bytes, order) for t in others}
        added = {e.title for r in [out.memory, *out.targets.values()] for e in r.added}
        out.section = report.render_section(
            fresh,
            gathered,
            findings or [],
            out.memory,
            added,
            clock.now(),
            out.quarantine,
            screen,
            out.held,
        )
        if dry_run:
            return out
        has_content = _has_content(fresh) or bool(out.quarantine)
        text = report.chunk(ctx.memory_dir, today, out.section) if has_content else ""
        out.report_path = str(report.report_path(ctx.memory_dir, today)) if text else None
        keys = fresh.keys() | {k for q in out.quarantine for k in q.evidence} | covered
        progress: dict[str, Any] = {}
        if gathered:
            progress["scan_started"] = clock.iso(gathered.scan_started)
            # What a later run (a hook's, one session) needs to see a trigger met again.
            from hindsight.detect import failures

            progress["triggers"] = failures.met(gathered.sessions, clock.iso(gathered.scan_started))
        if commit and gathered:
            progress["commit"] = clock.iso(gathered.scan_started)
            progress["files"] = {k: list(v) for k, v in gathered.progress.items()}
            if gathered.horizon is not None:
                progress["horizon"] = clock.iso(gathered.horizon)
        # Before the transaction records the evidence keys: a crash in between reruns these
        # writes, and dedup makes the rerun add nothing twice.
        for other in others:
            targets.write(other, out.targets[other.name], today)
        lessons_ops = keeping.judged(
            fresh.lessons,
            out.memory,
            out.held,
            origin,
            today,
            findings or [],
            verified,
            book.records,
        )
        intent = txn.Intent.for_memory(
            store,
            out.memory,
            today,
            report=text,
            reported=sorted(keys),
            state=progress,
            ledger=lessons_ops if claude else [],
        )
        txn.run(ctx.memory_dir, intent)
        return out


class Quarantined(Record):
    """A lesson withheld from memory and report: only why, where from and a hash are kept."""

    _fields = ("reason", "where", "digest", "evidence")
    reason: str
    where: str
    digest: str
    evidence: list[str]

    def __init__(self, reason: str, where: str, digest: str, evidence: list[str]) -> None:
        self.reason = reason
        self.where = where
        self.digest = digest
        self.evidence = evidence


def _quoted_entries(judgement: Judgement) -> None:
    """A model's memory lesson that names the user's words it rests on ("quote") enters memory
    as those words, in the template for the user's words; its own title and body stay in the
    report. The model picks, the words are the user's: the gate checks them as a model's quote
    (typed in a cited session, whole clauses, no question, no negation lost), and a fooled
    judge's prose never reaches memory under cover of a true quote."""
    from hindsight.judges import reworded

    for lesson in list(judgement.lessons):
        entry = reworded.quoted(lesson) if lesson.memory else None
        if entry is not None:
            lesson.memory = False
            judgement.lessons.append(entry)


_SPOKEN_OF = "memory already speaks of it"


def _verified_floor(judgement: Judgement, findings: list[Finding], reported: set[str]) -> Judgement:
    """The rules judge's memory lessons of the findings a model judge did not keep out of memory.
    These are verified by the transcript alone (a fix whose difference has a name, a trap the
    records prove, the user's words, a trigger met in two sessions): a model that passed over
    one in a long digest did not judge it, one that wanted it in memory agrees, and one that
    cited it with memory false judged it and is followed, except on a rule the user typed:
    blind judges took the user's stated rules for the task's, and memory admits the user's own
    words. They come after the judge's own picks (_hold) and never beside a lesson about the
    same finding."""
    from hindsight.judges.rules import RulesJudge

    # Cited only by lessons the judge kept out of memory: judged. A memory lesson's findings
    # stay open: where its own wording is held, the rules' verified wording may stand in.
    wanted = {k for x in judgement.lessons if x.memory for k in x.evidence}
    cited = {k for x in judgement.lessons if not x.memory for k in x.evidence} - wanted
    # A rule the user typed for later work is the user's to make, not the judge's to veto: one
    # the rules take as standing (not a correction, whose quote may carry the error it answers,
    # nor an aside, which may be this task's or pasted: red team 9).
    users = {f.key for f in findings if f.kind == "instruction" and f.data.get("opening")}
    rest = [f for f in findings if (f.key not in cited or f.key in users) and f.key not in reported]
    titles = {x.title for x in judgement.lessons}
    lessons = RulesJudge().judge(rest).lessons if rest else []
    return Judgement("rules", [x for x in lessons if x.memory and x.title not in titles])


def _trim_floor(
    fresh: Judgement, wanted: list[Lesson], out: Applied, verified: set[str], max_new: int
) -> set[str]:
    """The floor's lessons the judge's own picks left no room for, or held, taken out of the
    report (the rules' copies of what it already has in the judge's words) and of ``wanted`` and
    ``out.held``, in place; returns the evidence keys of those memory already speaks of: done
    with, they count as reported."""
    covered = {
        k
        for x in fresh.lessons
        if x.title in verified and out.held.get(x.title) == _SPOKEN_OF
        for k in x.evidence
    }
    dropped = verified - {x.title for x in wanted[:max_new]}
    fresh.lessons[:] = [x for x in fresh.lessons if x.title not in dropped]
    wanted[:] = [x for x in wanted if x.title not in dropped]
    out.held = {k: v for k, v in out.held.items() if k not in verified}
    return covered


def _quarantine(judgement: Judgement, screen: Screen) -> list[Quarantined]:
    """Take out every item whose text would carry untrusted instructions; return what was taken.

    Every field of a judge's JSON is redacted and screened, not only title and body: ``where`` is
    printed in the report, ``judge`` becomes a heading, ``evidence`` reaches state.
    """
    out: list[Quarantined] = []
    # Secrets are redacted, not quarantined: the rest of the lesson is still worth keeping.
    judgement.judge = _judge_name(judgement.judge, screen)
    for lesson in judgement.lessons:
        lesson.title, lesson.body = redact.redact(lesson.title), redact.redact(lesson.body)
        lesson.where = [redact.redact(w) for w in lesson.where]
    for rec in judgement.recommendations:
        rec.friction, rec.where, rec.fix = (
            redact.redact(t) for t in (rec.friction, rec.where, rec.fix)
        )
    for item in judgement.unfinished:
        item.title, item.body = redact.redact(item.title), redact.redact(item.body)

    def keep(texts: list[str], where: list[str], evidence: list[str], memory: bool = False) -> bool:
        # Hosts matter only where text gains authority (memory); instructions matter everywhere.
        text = "\n".join(texts)
        # A key reaches state.json: one shaped like a token is a secret there, not a key.
        bad_key = next(
            (k for k in evidence if not _KEY().fullmatch(k) or redact.has_secret(k)), None
        )
        reason = "an evidence key that is not a key" if bad_key is not None else None
        reason = reason or next((r for t in texts if (r := screen.check(t, memory=memory))), None)
        # The pointers as one text: one screening, not one per file:line.
        reason = reason or (screen.check(" ".join(where), memory=False) if where else None)
        if reason is None:
            return True
        source = (
            where[0] if where and not screen.check(where[0], memory=False) else "the judge's output"
        )
        keys = [k for k in evidence if _KEY().fullmatch(k) and not redact.has_secret(k)]
        out.append(Quarantined(reason, redact.redact(source), redact.fingerprint(text), keys))
        return False

    judgement.lessons = [
        x for x in judgement.lessons if keep([x.title, x.body], x.where, x.evidence, x.memory)
    ]
    judgement.recommendations = [
        x for x in judgement.recommendations if keep([x.friction, x.where, x.fix], [], x.evidence)
    ]
    judgement.unfinished = [
        x for x in judgement.unfinished if keep([x.title, x.body], [], x.evidence)
    ]
    return out


def _git_root(ctx: Context) -> Path | None:
    return ctx.repo.root if ctx.repo.is_git else None


_KEY = functools.cache(lambda: re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:\-]{0,79}"))
_JUDGE = functools.cache(lambda: re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._\-]{0,39}"))


def _judge_name(name: str, screen: Screen) -> str:
    """The judge's name becomes a report heading: a short plain name, or ``model``."""
    plain = _JUDGE().fullmatch(name) and screen.check(name, memory=False) is None
    return name if plain and not redact.has_secret(name) else "model"


def _hold(
    ctx: Context,
    judgement: Judgement,
    gathered: Gathered | None,
    findings: list[Finding],
    own_judge: bool,
    max_new: int,
    denied: dict[str, str],
    screen: Screen,
    known: Callable[[str], bool],
    verified: set[str] | None = None,
    cleared: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """The memory gate (``trust``): memory-worthy lessons not built from trusted pieces stay in
    the report, each with the reason. Returns title -> reason.

    Strongest first, and only until ``max_new`` have passed: the rest stay in the report anyway,
    and the gate reads each cited session's tool output, so checking them would cost a hook run.
    """
    verified = verified or set()
    # The judge's own picks first, the verified floor after them: the cap is the judge's to fill.
    wanted = sorted(
        (x for x in judgement.lessons if x.memory and x.title not in denied),
        key=lambda x: (x.title in verified, -x.strength),
    )
    if not wanted:
        return {}
    from hindsight.judges import reworded

    sessions = gathered.sessions if gathered else []
    gates: list[Any] = []  # built on first need: the rules' cleared lessons never need one

    def gate_pair() -> tuple[Any, Any]:
        if not gates:
            from hindsight import taint, trust

            checker = taint.repo_checker([str(r) for r in ctx.repo.roots])
            gate = trust.Gate(sessions, findings, checker, own_judge=own_judge)
            gates.extend((gate, gate.as_own()))  # as_own: the rules' wording, the floor's
        return gates[0], gates[1]

    held: dict[str, str] = {}
    passed = 0
    taken: set[str] = set()
    admitted: list[Lesson] = []  # and the lessons that speak of them
    refused: list[Lesson] = []
    for lesson in wanted:
        if passed >= max_new:
            break
        floor = lesson.title in verified
        # A prompt holds more than one rule: the rules' quote of the whole sentence a model's
        # held quote was cut from is no repeat of another lesson citing the same prompt.
        if floor and (
            (
                taken & set(lesson.evidence)
                and not any(reworded.whole_of(lesson, r) for r in refused)
            )
            or any(reworded.about(lesson, p) for p in admitted)
        ):
            held[lesson.title] = _SPOKEN_OF
            continue
        # Admitted by consequence (guard/decide.py): the rules' own wording (their judgement,
        # or the verified floor) whose every action stays inside what the repository defines
        # needs no word-by-word provenance; the cap still counts it.
        if (own_judge or floor) and lesson.title in cleared:
            passed += 1
            taken.update(lesson.evidence)
            if not floor:
                admitted.append(lesson)
            continue
        gate, own = gate_pair()
        vetting = own if floor else gate
        reason = vetting.check(lesson)
        plain = reworded.without_context(lesson) if reason else None
        if plain is not None and vetting.check(plain) is None:
            lesson.body, reason = plain.body, None  # the user's words without the command
        if reason is None:
            passed += 1
            taken.update(lesson.evidence)
            if not floor:
                admitted.append(lesson)  # the judge's: a floor lesson about it would repeat it
        else:
            held[lesson.title] = reason
            if not floor:
                refused.append(lesson)  # the rules' own wording is all a floor lesson has
    if own_judge:
        return held
    # A model's pick the gate held may enter in hindsight's words (judges/reworded.py), unless
    # a lesson that passed already speaks of the same findings.
    by_key = {f.key: f for f in findings}
    titles = {x.title for x in judgement.lessons}
    for lesson in refused:
        if passed >= max_new:
            break
        backup = reworded.reword(lesson, by_key)
        if backup is None or backup.title in titles or taken & set(backup.evidence):
            continue
        # Screened and redacted as every lesson of a judge is (_quarantine ran before this).
        backup.title, backup.body = redact.redact(backup.title), redact.redact(backup.body)
        if any(screen.check(t, memory=True) for t in (backup.title, backup.body)):
            continue
        if (
            admit.denial(f"{backup.title}\n{backup.body}", known) is None
            and gate_pair()[1].check(backup) is None
        ):
            judgement.lessons.append(backup)  # report and memory, the model's lesson beside it
            titles.add(backup.title)
            taken.update(backup.evidence)
            passed += 1
    return held


WAITS = "waits for your review: "


def _consequences(
    ctx: Context, lessons: list[Lesson], gathered: Gathered | None, kept: dict[str, str]
) -> tuple[dict[str, str], frozenset[str]]:
    """The one decision by consequence (guard/decide.py) for each memory lesson not already
    kept out: what waits for the person (title -> why) and what the check admits."""
    wanted = [x for x in lessons if x.memory and x.title not in kept]
    if not wanted:
        return {}, frozenset()
    from hindsight.guard import decide, verdict
    from hindsight.guard.repository import Repository

    repo = Repository.load(list(ctx.repo.roots) if ctx.repo.is_git else [])
    typed = tuple(p for sess in (gathered.sessions if gathered else []) for p in sess.prompts())
    evidence = decide.Evidence(strong=True, typed=typed)
    waiting: dict[str, str] = {}
    cleared: set[str] = set()
    from hindsight.judges import reworded

    for lesson in wanted:
        decision = decide.decide(lesson, evidence, repo)
        plain = reworded.without_context(lesson) if decision.verdict == verdict.WAIT else None
        if plain is not None and decide.decide(plain, evidence, repo).verdict == verdict.ADMIT:
            # The command a correction followed is its context, not what it asks: the user's
            # words stand without it (as memory will take them).
            lesson.body, decision = plain.body, verdict.admit()
        if decision.verdict == verdict.WAIT:
            waiting[lesson.title] = WAITS + decision.reason
        elif decision.verdict == verdict.ADMIT and _checkable(lesson, repo):
            cleared.add(lesson.title)
    return waiting, frozenset(cleared)


def _checkable(lesson: Lesson, repo: Any) -> bool:
    """Whether everything the lesson rests on was checked against the repository: every path
    it has the agent read is tracked, and it quotes no one (whose words are the user's, typed or a
    program's prompt, is the provenance gate's to tell)."""
    from hindsight.guard import actions

    if lesson.kind == "preference" or "the user said" in lesson.body.casefold():
        return False
    found = actions.parse(lesson.title, lesson.body)
    return all(repo.tracked(a.text, a.cwd) for a in found if a.kind == actions.READ)


def _host_known(ctx: Context) -> Callable[[str], bool]:
    from hindsight import hosts

    return hosts.known_in_repo(str(ctx.repo.root))


def _has_content(j: Judgement) -> bool:
    return bool(j.lessons or j.recommendations or j.unfinished)


def _fresh(judgement: Judgement, reported: set[str]) -> Judgement:
    """Only what was not reported before, whatever the judge's wording: keys decide."""

    def new(evidence: list[str]) -> bool:
        return not evidence or not set(evidence) <= reported

    fresh = Judgement(
        judgement.judge,
        [x for x in judgement.lessons if new(x.evidence)],
        [x for x in judgement.recommendations if new(x.evidence)],
        [x for x in judgement.unfinished if new(x.evidence)],
    )
    fresh.cost = judgement.cost
    return fresh


def commit(ctx: Context, scan_started: datetime | None = None) -> datetime | None:
    """Advance the watermark to the scan's start (never to now): what changed meanwhile is read again."""
    with fsutil.locked(lock_path(ctx)):
        txn.recover(ctx.memory_dir)
        saved = state.load(ctx.memory_dir, tolerate_corrupt=scan_started is not None)
        start = scan_started or saved.scan_started
        if start is None:
            return None
        state.commit_files(saved, start, saved.scan_files, discover.horizon(saved, start))
        state.save(ctx.memory_dir, saved)
        return saved.last_scan


def record_outcome(ctx: Context, outcome: dict[str, Any]) -> None:
    """Remember the last run's outcome for `status` (best effort: never masks the run's own error)."""
    try:
        with fsutil.locked(lock_path(ctx), timeout=5):
            saved = state.load(ctx.memory_dir)
            saved.last_run = outcome
            state.save(ctx.memory_dir, saved)
    except Exception:
        pass
