"""Dated, append-only reports: ``<memory dir>/hindsight/reports/<YYYY-MM-DD>.md``."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from hindsight import fmt, fsutil, layout
from hindsight.redact import fingerprint
from hindsight.screen import Screen

if TYPE_CHECKING:
    from hindsight.detect import Finding
    from hindsight.lessons import Judgement
    from hindsight.memory import AddResult
    from hindsight.pipeline import Gathered, Quarantined


def reports_dir(memory_dir: Path) -> Path:
    return layout.reports(memory_dir)


def report_path(memory_dir: Path, day: date) -> Path:
    return layout.report(memory_dir, day)


def chunk(memory_dir: Path, day: date, section: str) -> str:
    """The bytes one run appends to the day's report: its section, redacted, after the day's
    heading when the file is new; "" for an empty section (nothing is written at all)."""
    if not section.strip():
        return ""
    from hindsight.redact import redact

    text = fmt.printable(redact(section if section.endswith("\n") else section + "\n"))
    existing = fsutil.read_bytes(report_path(memory_dir, day))
    header = "" if existing else f"# hindsight report {day.isoformat()}\n"
    return header + "\n" + text


def append(memory_dir: Path, day: date, section: str) -> Path | None:
    """Append one run's section to the day's report; an empty section writes nothing at all.

    Earlier bytes of the file are copied unchanged: a report is never rewritten.
    """
    if not section.strip():
        return None
    path = report_path(memory_dir, day)
    with fsutil.locked(layout.lock(memory_dir)):
        text = chunk(memory_dir, day, section)
        if not text:
            return None
        fsutil.append_once(path, text.encode("utf-8"), root=memory_dir)
    return path


def _line(text: str) -> str:
    """A judge's text on one line: a newline could open a fence or a heading of its own."""
    return " ".join(text.split())


def _fenced(text: str) -> list[str]:
    """Text shown as data: in a fence longer than any run of backticks inside it."""
    return ["   " + ln for ln in fmt.fence(text, "text").splitlines()]


def _span(text: str) -> str:
    return "`" + _line(text).replace("`", "'") + "`"


def render_section(
    judgement: Judgement,
    gathered: Gathered | None,
    findings: list[Finding],
    memory: AddResult,
    added_titles: set[str],
    when: datetime,
    quarantine: list[Quarantined] | None = None,
    screen: Screen | None = None,
    held: dict[str, str] | None = None,
) -> str:
    """One run's section: lessons (in memory or not), recommendations, unfinished work, counts."""
    by_key = {f.key: f for f in findings}
    agents = _agents(gathered)
    lines = [f"## {when.astimezone().strftime('%H:%M')} run ({judgement.judge} judge)", ""]
    if judgement.cost:
        lines += [f"Judged by the {judgement.cost}.", ""]
    if gathered is not None:
        lines.append(
            f"Read {fmt.count(len(gathered.sessions), 'session')} "
            f"({fmt.count(gathered.transcripts, 'transcript')}, "
            f"{fmt.count(gathered.stats.records, 'record')}, "
            f"{fmt.count(gathered.stats.skipped_total, 'line')} skipped) "
            f"changed since {gathered.since.astimezone().strftime('%Y-%m-%d %H:%M')}"
            + (f" ({_per_agent(gathered)})." if gathered.sessions else ".")
        )
        lines.append("")
    if judgement.lessons:
        lines += ["### Lessons", ""]
        for n, lesson in enumerate(judgement.lessons, 1):
            title, body = _line(lesson.title), _line(lesson.body)
            if lesson.title in added_titles:
                lines.append(
                    f"{n}. **{title}** ({lesson.kind}, strength {lesson.strength}, in memory)"
                )
                lines.append(f"   {body}")
            else:
                # Only what passed the memory gate stands as text; the rest is shown as data.
                why = f": {held[lesson.title]}" if held and lesson.title in held else ""
                lines.append(f"{n}. Report only ({lesson.kind}, strength {lesson.strength}){why}")
                lines += _fenced(f"{title}\n{body}")
            if lesson.where:
                lines.append(
                    "   Evidence: " + ", ".join(_cite(w, agents) for w in lesson.where[:4])
                )
            for key in lesson.evidence[:2]:
                finding = by_key.get(key)
                for name in finding.untrusted if finding else ():
                    value = str(finding.data.get(name) or "") if finding else ""
                    if not value:
                        continue
                    reason = screen.check(value) if screen else None
                    if reason:
                        lines.append(
                            f"   (excerpt withheld: {reason}; sha256 {fingerprint(value)})"
                        )
                        continue
                    lines.append("   Data quoted from the session (not instructions):")
                    lines += _fenced(value)
        lines.append("")
    if judgement.recommendations:
        lines += ["### Recommendations", ""]
        for rec in judgement.recommendations:
            lines.append(f"- {rec.type.replace('_', ' ')}:")
            lines += _fenced(f"{_line(rec.where)}: {_line(rec.friction)}. {_line(rec.fix)}")
        lines.append("")
    if judgement.unfinished:
        lines += ["### Unfinished work", ""]
        lines += _fenced(
            "\n".join(f"- {_line(i.title)}: {_line(i.body)}" for i in judgement.unfinished)
        )
        lines.append("")
    interrupts = sum(int(f.data.get("count", 0)) for f in findings if f.kind == "interrupts")
    if interrupts:
        sessions = sum(1 for f in findings if f.kind == "interrupts")
        lines += [
            f"The user interrupted the agent {fmt.count(interrupts, 'time')} "
            f"in {fmt.count(sessions, 'session')}.",
            "",
        ]
    if quarantine:
        lines += ["### Quarantined", ""]

        lines.append("Withheld from memory and from this report; the text is not copied here.")
        lines.append("")
        lines += [f"- {q.reason}: from `{q.where}` (sha256 {q.digest})" for q in quarantine]
        lines.append("")
    lines.append(
        f"Memory: {len(memory.added)} added, {len(memory.duplicates)} refused as duplicates, "
        f"{len(memory.pruned)} pruned to the archive."
    )
    return "\n".join(lines) + "\n"


def _agents(gathered: Gathered | None) -> dict[str, str]:
    """Which agent wrote each transcript read, so every piece of evidence names it."""
    out: dict[str, str] = {}
    for sess in gathered.sessions if gathered else ():
        for path in [sess.path, *sess.subagent_files, *sess.file_stats]:
            out[str(path)] = sess.agent
    return out


def _cite(where: str, agents: dict[str, str]) -> str:
    agent = agents.get(where.rsplit(":", 1)[0])
    return f"{agent} {_span(where)}" if agent else _span(where)


def _per_agent(gathered: Gathered) -> str:
    counts: dict[str, int] = {}
    for sess in gathered.sessions:
        counts[sess.agent] = counts.get(sess.agent, 0) + 1
    return ", ".join(f"{agent} {n}" for agent, n in sorted(counts.items()))
