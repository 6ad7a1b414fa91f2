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


def count(n: int, word: str, many: str | None = None) -> str:
    """``1 session``, ``2 sessions``: a number with its noun in the right form."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def printable(text: str) -> str:
    """Bytes of a file name that are not UTF-8 (kept by Python as surrogates) as ``\\xe9``:
    every file, JSON document and terminal takes the text then."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def clip(text: str, limit: int) -> str:
    """``text`` on one line within ``limit`` characters, redacted first: a secret cut in half
    would no longer match its pattern, and its first half would leak."""
    from hindsight.redact import redact

    text = " ".join(redact(text).split())
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


BREAKS = " \n\t\"',;"


def whole_words(head: str) -> str:
    """``head`` without its last, cut word: half a secret cut before redaction would match no
    pattern and leak its first half (redaction runs later, on what detection quotes). A word
    longer than any secret (a 30 MB run of one character) is kept as it is."""
    cut = max(head.rfind(c) for c in BREAKS) + 1
    return head[:cut] if len(head) - cut < 1024 else head


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
