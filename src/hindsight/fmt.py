"""Small formatting helpers shared by detectors, judges and reports."""

from __future__ import annotations


def duration(seconds: float) -> str:
    """For people: seconds under two minutes (``65 s``), then minutes and seconds (``3 min 20 s``)."""
    whole = round(seconds)
    if whole < 120:
        return f"{whole} s"
    minutes, rest = divmod(whole, 60)
    if minutes >= 120:
        hours, minutes = divmod(minutes, 60)
        return f"{hours} h {minutes} min"
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_words(text: str, limit: int) -> str:
    """Clipped at a word boundary, never inside a token: a path or a command cut in half claims
    something else. A first word longer than the limit is kept whole."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    if cut <= 0:
        first = text.split(" ", 1)[0]
        return first if first == text else first + " …"
    return text[:cut].rstrip(" ,;:") + " …"


def size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def fence(text: str, info: str = "") -> str:
    """A Markdown code block around text that may itself hold fences (the fence grows past them)."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{info}\n{text}\n{ticks}"
