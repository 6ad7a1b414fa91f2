"""How the rules judge words a lesson: commands in backticks, clipped only between words."""

from __future__ import annotations

from hindsight import fmt
from hindsight.detect import Finding, shell
from hindsight.lessons import Lesson


def code(text: str, limit: int = 70) -> str:
    return "`" + fmt.clip_words(text, limit).replace("`", "'") + "`"


def job(command: str, cwd: str | None = None) -> str:
    return shell.short(command, cwd=cwd)


def where(f: Finding) -> list[str]:
    return [f"{w.path}:{w.line}" for w in f.where]


def lesson(
    f: Finding, title: str, body: str, kind: str, memory: bool, strength: int | None = None
) -> Lesson:
    title = fmt.clip_words(title, 150)
    if title.count("`") % 2:  # cut inside a code span: close it, the "…" inside
        title += "`"
    return Lesson(
        title,
        fmt.clip(body, 600),
        kind,
        strength or f.strength,
        [f.key],
        memory,
        where(f),
    )
