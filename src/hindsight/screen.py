"""The memory-poisoning screen: untrusted text (tool output, file contents, web pages) never
reaches memory as an instruction. A second line of defence behind building memory from trusted
pieces only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from hindsight.redact import _fold, _gate, _lazy, has_secret

# High-signal: flagged wherever they appear, also by `memory check` on an existing block.
_HIGH: list[tuple[str, tuple[str, ...], Callable[[], re.Pattern[str]]]] = [
    (
        "addressed to an AI",
        ("ai", "assistant", "claude", "gpt", "llm", "language model", "agent"),
        _lazy(
            r"\b(?:AI|assistant|Claude|ChatGPT|GPT|LLM|language model|coding agent|AI agent)\s*[,:]\s*\w"
            r"|\b(?:dear|attention|note to|hey|hello)\s+(?:AI|assistant|Claude|agent|LLM)s?\b"
            r"|\byou are (?:an?|the) (?:AI|assistant|language model|agent)\b|\bas an AI\b",
            re.I,
        ),
    ),
    (
        "overrides instructions",
        (
            "ignore",
            "disregard",
            "forget",
            "override",
            "bypass",
            "new instructions",
            "system prompt",
        ),
        _lazy(
            r"\b(?:ignore|disregard|forget|override|bypass)\b.{0,30}\b(?:previous|prior|above|earlier|all|any|your|system|"
            r"original)\b.{0,20}\b(?:instructions?|prompts?|rules|guidelines|directives|context)\b"
            r"|\bnew (?:instructions|system prompt)\b|\bsystem prompt\b",
            re.I,
        ),
    ),
    (
        "writes to memory",
        ("memory", "claude.md", "agents.md", "your notes", "remember "),
        _lazy(
            r"\b(?:add|write|save|store|put|append|insert)\b.{0,25}\b(?:to|in|into)\b.{0,10}"
            r"\b(?:memory|MEMORY\.md|CLAUDE\.md|AGENTS\.md|your notes)\b|\bremember (?:this|that|to)\b",
            re.I,
        ),
    ),
    (
        "download piped into a shell",
        ("curl", "wget", "fetch", "iwr", "invoke-webrequest", "urllib"),
        _lazy(
            r"\b(?:curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b"
            r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)|\bpython[0-9.]*\s+-c\s+[\"']?import urllib"
            r"|\beval\s+\"?\$\((?:curl|wget)",
            re.I,
        ),
    ),
    (
        "destructive command",
        ("rm", "git", "drop", "truncate", "mkfs", "if=", "chmod", ":()", "/dev/sd", "shutdown"),
        _lazy(
            r"\brm\s+-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?(?:/|~|\$HOME|\*|\.\s|\.$|/\*)"
            r"|\bgit\s+push\s+(?:-f|--force)\b|\bgit\s+reset\s+--hard\s+(?:HEAD~|origin)|\bgit\s+clean\s+-[a-z]*f[a-z]*d"
            r"|\b(?:drop|truncate)\s+(?:table|database|schema)\b|\bmkfs(?:\.\w+)?\b|\bdd\s+if=.*\bof=/dev/"
            r"|\bchmod\s+-R\s+777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:|>\s*/dev/sd[a-z]\b|\bshutdown\s+-h\b",
            re.I,
        ),
    ),
    (
        "encoded blob",
        (),  # a long run of base64 letters has no literal to look for
        _lazy(
            r"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]*[A-Z])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*\d)[A-Za-z0-9+/]{48,}={0,2}"
            r"|\bbase64\s+(?:-d|--decode)\b|(?:\\x[0-9a-f]{2}){8,}|\bfromCharCode\b",
            re.I,
        ),
    ),
]
# Instruction words: flagged only in text that did not come from the user or the agent's commands.
_CONTEXT: list[tuple[str, tuple[str, ...], Callable[[], re.Pattern[str]]]] = [
    (
        "instruction word",
        (
            "always",
            "never",
            "from now on",
            "future session",
            "you must",
            "you should",
            "make sure to",
            "do not tell",
        ),
        _lazy(
            r"\b(?:always|never|from now on|in (?:all )?future sessions?|you must|you should|make sure to|do not tell)\b",
            re.I,
        ),
    ),
]
_HOST = _lazy(
    r"\b(?:https?|ftp|wss?)://([A-Za-z0-9.\-]+)|\b((?:\d{1,3}\.){3}\d{1,3})\b"
    r"|\b((?:[a-z0-9\-]+\.)+(?:com|net|org|io|dev|sh|xyz|ru|cn|top|info|biz|co|me|app|site|online|tk))\b",
    re.I,
)
_SEGMENT = _lazy(r"`[^`]+`|\"[^\"]+\"|'[^'\s][^']*'")


def _high(variant: str) -> str | None:
    """The name of the first high-signal pattern found in ``variant``."""
    folded = _fold(variant)
    for name, gate, pattern in _HIGH:
        if _gate(gate, folded) and pattern().search(variant):
            return name
    return None


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("…", "").split())


class Screen:
    """Decides whether a text may enter memory.

    ``trusted`` holds what the user typed and the commands the agent ran; ``known_hosts`` the hosts
    named in the repo's own files. A hit inside a quoted or code segment that appears in trusted
    text is the user's or the agent's own and passes; anything else is quarantined.
    """

    def __init__(
        self, trusted: Iterable[str] = (), host_known: Callable[[str], bool] | None = None
    ) -> None:
        self.trusted = [_norm(t) for t in trusted if t]
        self.host_known = host_known or (lambda host: False)

    def _is_trusted(self, fragment: str) -> bool:
        frag = _norm(fragment.strip("`\"' "))
        return bool(frag) and any(frag in t for t in self.trusted)

    def _segment_of(self, text: str, start: int, end: int) -> str | None:
        for seg in _SEGMENT().finditer(text):
            if seg.start() <= start and end <= seg.end():
                return seg.group(0)
        return None

    def check(self, text: str, *, memory: bool = True) -> str | None:
        """The reason ``text`` must not reach memory, or None.

        High-signal patterns are never excused, so `memory check` passes on whatever hindsight
        writes; instruction words and hosts pass when they stand in the user's or agent's own text.
        """
        if has_secret(text):
            return "holds a secret"
        # File names hide words behind underscores: screen them with the underscores as spaces too.
        variants = (text, text.replace("_", " ")) if "_" in text else (text,)
        for variant in variants:
            high = _high(variant)
            if high is not None:
                return high
            folded = _fold(variant)
            for name, gate, pattern in _CONTEXT:
                if not _gate(gate, folded):
                    continue
                for hit in pattern().finditer(variant):
                    segment = self._segment_of(variant, hit.start(), hit.end())
                    if segment is None or not self._is_trusted(segment):
                        return name
        for hit in _HOST().finditer(text) if memory else ():
            host = next(g for g in hit.groups() if g).casefold().rstrip(".")
            if host in ("localhost", "127.0.0.1", "example.com") or any(
                host in t for t in self.trusted
            ):
                continue
            if not self.host_known(host):
                return f"names a host not seen in the repo ({host})"
        return None


def check_entry(text: str) -> str | None:
    """High-signal problems of a memory entry already written (for `memory check`)."""
    if has_secret(text):
        return "holds a secret"
    for variant in (text, text.replace("_", " ")):
        high = _high(variant)
        if high is not None:
            return f"instruction-like: {high}"
    return None
