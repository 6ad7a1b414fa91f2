"""The flow: gather (discover + read) -> detect -> judge -> apply (memory, report, state) -> commit."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from datetime import datetime
from typing import Any

from hindsight import clock, detect, discover, fsutil, layout, redact, report, state, txn
from hindsight.context import Context
from hindsight.detect import Finding
from hindsight.lessons import Judgement, Lesson
from hindsight.memory import DEFAULT_MAX_BYTES, AddResult, Entry, MemoryStore
from hindsight.progress import Progress
from hindsight.record import Record
from hindsight.screen import Screen
from hindsight.session import ReadStats, Session

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
    )
    since: datetime
    scan_started: datetime
    sessions: list[Session]
    transcripts: int
    bytes_read: int
    stats: ReadStats
    explicit_since: bool

    def __init__(
        self,
        since: datetime,
        scan_started: datetime,
        sessions: list[Session],
        transcripts: int,
        bytes_read: int,
        stats: ReadStats,
        explicit_since: bool = False,
    ) -> None:
        self.since = since
        self.scan_started = scan_started
        self.sessions = sessions
        self.transcripts = transcripts
        self.bytes_read = bytes_read
        self.stats = stats
        self.explicit_since = explicit_since

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
    """Read every pending session; the scan start is taken before listing, so nothing slips by."""
    scan_started = clock.now()
    if since_at is not None:
        since = since_at
    else:
        saved = state.load(ctx.memory_dir, tolerate_corrupt=bool(since_arg))
        since = discover.window_start(since_arg, saved, scan_started)

    groups = discover.find(ctx, since)
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
    return Gathered(since, scan_started, sessions, transcripts, total, stats, bool(since_arg))


def find(gathered: Gathered, options: detect.Options | None = None) -> list[Finding]:
    return detect.run_all(gathered.sessions, options)


class Applied(Record):
    _fields = (
        "lessons",
        "already_reported",
        "memory",
        "over_run_cap",
        "quarantined",
        "quarantine",
        "report_path",
        "section",
    )
    lessons: list[Lesson]  # new this run (not reported before)
    already_reported: int
    memory: AddResult
    over_run_cap: int  # memory-worthy lessons left to the report by the per-run cap
    quarantined: int
    quarantine: list[Quarantined]
    report_path: str | None
    section: str

    def __init__(
        self,
        lessons: list[Lesson] | None = None,
        already_reported: int = 0,
        memory: AddResult | None = None,
        over_run_cap: int = 0,
        quarantined: int = 0,
        quarantine: list[Quarantined] | None = None,
        report_path: str | None = None,
        section: str = "",
    ) -> None:
        self.lessons = [] if lessons is None else lessons
        self.already_reported = already_reported
        self.memory = AddResult() if memory is None else memory
        self.over_run_cap = over_run_cap
        self.quarantined = quarantined
        self.quarantine = [] if quarantine is None else quarantine
        self.report_path = report_path
        self.section = section


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
) -> Applied:
    """Write what is new, as one transaction (txn.py): report, archive, evidence keys, memory;
    with ``commit`` the watermark moves in the same transaction (``run``; the skill commits
    on its own)."""
    store = MemoryStore(ctx.memory_dir)
    store.read()  # a malformed block stops everything before any file is touched
    tolerate = gathered is not None and gathered.explicit_since
    with fsutil.locked(lock_path(ctx)) if not dry_run else contextlib.nullcontext():
        if not dry_run:
            txn.recover(ctx.memory_dir)
        saved = state.load(ctx.memory_dir, tolerate_corrupt=tolerate)
        out = Applied()
        fresh = _fresh(judgement, saved.reported)
        out.already_reported = len(judgement.lessons) - len(fresh.lessons)
        screen = Screen(gathered.trusted_texts() if gathered else (), _host_known(ctx))
        out.quarantine = _quarantine(fresh, screen)
        out.quarantined = len(out.quarantine)
        out.lessons = fresh.lessons
        today = clock.today()
        wanted = sorted((x for x in fresh.lessons if x.memory), key=lambda x: -x.strength)
        out.over_run_cap = max(0, len(wanted) - max_new)
        entries = [Entry.make(x.title, x.body, x.kind, today) for x in wanted[:max_new]]
        out.memory = store.plan(entries, max_bytes)
        added = {e.title for e in out.memory.added}
        out.section = report.render_section(
            fresh, gathered, findings or [], out.memory, added, clock.now(), out.quarantine, screen
        )
        if dry_run:
            return out
        has_content = _has_content(fresh) or bool(out.quarantine)
        text = report.chunk(ctx.memory_dir, today, out.section) if has_content else ""
        out.report_path = str(report.report_path(ctx.memory_dir, today)) if text else None
        keys = fresh.keys() | {k for q in out.quarantine for k in q.evidence}
        progress = {"scan_started": clock.iso(gathered.scan_started)} if gathered else {}
        if commit and gathered:
            progress["commit"] = clock.iso(gathered.scan_started)
        intent = txn.Intent.for_memory(
            out.memory, today, report=text, reported=sorted(keys), state=progress
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


def _quarantine(judgement: Judgement, screen: Screen) -> list[Quarantined]:
    """Take out every item whose text would carry untrusted instructions; return what was taken."""
    out: list[Quarantined] = []
    # Secrets are redacted, not quarantined: the rest of the lesson is still worth keeping.
    for lesson in judgement.lessons:
        lesson.title, lesson.body = redact.redact(lesson.title), redact.redact(lesson.body)

    def keep(text: str, where: list[str], evidence: list[str], memory: bool = False) -> bool:
        # Hosts matter only where text gains authority (memory); instructions matter everywhere.
        reason = screen.check(text, memory=memory)
        if reason is None:
            return True
        source = where[0] if where else "the judge's output"
        out.append(Quarantined(reason, source, redact.fingerprint(text), evidence))
        return False

    judgement.lessons = [
        x for x in judgement.lessons if keep(f"{x.title}\n{x.body}", x.where, x.evidence, x.memory)
    ]
    judgement.recommendations = [
        x
        for x in judgement.recommendations
        if keep(f"{x.friction}\n{x.where}\n{x.fix}", [], x.evidence)
    ]
    judgement.unfinished = [
        x for x in judgement.unfinished if keep(f"{x.title}\n{x.body}", [], x.evidence)
    ]
    return out


def _host_known(ctx: Context) -> Callable[[str], bool]:
    """Whether a host is named in the repo's own tracked files (git grep, cached)."""
    cache: dict[str, bool] = {}

    def known(host: str) -> bool:
        if host not in cache:
            try:
                done = subprocess.run(
                    ["git", "-C", str(ctx.repo.root), "grep", "-q", "-I", "-F", "-i", host],
                    capture_output=True,
                    timeout=20,
                    check=False,
                )
                cache[host] = done.returncode == 0
            except (OSError, subprocess.SubprocessError):
                cache[host] = False
        return cache[host]

    return known


def _has_content(j: Judgement) -> bool:
    return bool(j.lessons or j.recommendations or j.unfinished)


def _fresh(judgement: Judgement, reported: set[str]) -> Judgement:
    """Only what was not reported before, whatever the judge's wording: keys decide."""

    def new(evidence: list[str]) -> bool:
        return not evidence or not set(evidence) <= reported

    return Judgement(
        judgement.judge,
        [x for x in judgement.lessons if new(x.evidence)],
        [x for x in judgement.recommendations if new(x.evidence)],
        [x for x in judgement.unfinished if new(x.evidence)],
    )


def commit(ctx: Context, scan_started: datetime | None = None) -> datetime | None:
    """Advance the watermark to the scan's start (never to now): what changed meanwhile is read again."""
    with fsutil.locked(lock_path(ctx)):
        txn.recover(ctx.memory_dir)
        saved = state.load(ctx.memory_dir, tolerate_corrupt=scan_started is not None)
        start = scan_started or saved.scan_started
        if start is None:
            return None
        if saved.last_scan is None or start > saved.last_scan:
            saved.last_scan = start
        saved.scan_started = None
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
