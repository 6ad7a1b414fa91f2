"""What hindsight writes is guarded twice: secrets are redacted, and untrusted text (tool output,
file contents, web pages) never reaches memory as an instruction.

Redaction uses our own patterns rather than a library: the common token formats are exact
prefixes (cheap, near-zero false positives), the generic ones are key=value shapes, and the
high-entropy rule skips what real transcripts are full of (git SHAs, UUIDs, lock-file hashes,
base64 of plain text). See the README's security section for recall and false positives.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable


def _lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A pattern compiled on first use: a run compiles only those its text gets past a gate to
    (compiling all of them cost ~9 ms of every start)."""
    return functools.cache(lambda: re.compile(pattern, flags))


# -- redaction ---------------------------------------------------------------------------------

# (kind, gate, pattern): the pattern runs only on text holding one of the gate's literals, each
# a part of every match (tests/guard/test_gates.py checks that gates never change a result).
_TOKENS: list[tuple[str, tuple[str, ...], Callable[[], re.Pattern[str]]]] = [
    (
        "private_key",
        ("-----BEGIN ",),
        _lazy(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
    ),
    (
        "anthropic_key",
        ("sk-ant-",),
        _lazy(r"\bsk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_\-]{20,}"),
    ),
    (
        "openai_key",
        ("sk-",),
        _lazy(
            r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}(?:T3BlbkFJ[A-Za-z0-9_\-]{10,})?"
        ),
    ),
    (
        "aws_access_key_id",
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"),
        _lazy(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b"),
    ),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        _lazy(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    ),
    (
        "gitlab_token",
        (
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "glft-",
            "glcbt-",
            "glimt-",
            "glagent-",
            "gloas-",
            "glsoat-",
        ),
        _lazy(r"\bgl(?:pat|dt|rt|ptt|ft|cbt|imt|agent|oas|soat)-[A-Za-z0-9_\-]{20,}"),
    ),
    ("slack_token", ("xox",), _lazy(r"\bxox[abposre]-(?:\d+-)*[A-Za-z0-9\-]{10,}")),
    (
        "slack_webhook",
        ("https://hooks.slack.com/",),
        _lazy(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]+"),
    ),
    (
        "stripe_key",
        ("_live_", "_test_"),
        _lazy(r"\b(?:sk|rk|pk|whsec)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ),
    ("google_api_key", ("AIza",), _lazy(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("google_oauth_token", ("ya29.",), _lazy(r"\bya29\.[0-9A-Za-z_\-]{20,}")),
    ("npm_token", ("npm_",), _lazy(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("pypi_token", ("pypi-AgE",), _lazy(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}")),
    ("huggingface_token", ("hf_",), _lazy(r"\bhf_[A-Za-z0-9]{34,}\b")),
    (
        "jwt",
        ("eyJ",),
        _lazy(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
]

_URL_CREDENTIALS = _lazy(r"\b([a-z][a-z0-9+.\-]*://)([^\s/:@'\"]+):([^\s/@'\"]+)@", re.I)
_URL_TOKEN_USER = _lazy(r"\b(https?://)([A-Za-z0-9_\-]{20,})@", re.I)
_CURL_USER = _lazy(r"((?:^|\s)(?:-u|--user)\s+['\"]?)([^\s'\":]+):([^\s'\"]+)")
_AUTH_HEADER = _lazy(
    r"(\b(?:proxy-)?authorization\b['\"]?\s*[:=]\s*['\"]?(?:bearer|basic|token|bot|digest|apikey)?\s*)"
    r"([A-Za-z0-9._~+/=\-]{8,})",
    re.I,
)
_BEARER = _lazy(r"(\bbearer\s+)([A-Za-z0-9._~+/=\-]{16,})", re.I)
_SECRET_NAME = (
    r"[A-Za-z0-9_.\-]*(?:passw(?:or)?d|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|"
    r"private[_\-]?key|client[_\-]?secret|auth[_\-]?key|credentials?|_key)[A-Za-z0-9_\-]*"
)
_ASSIGN = _lazy(
    rf"(?P<pre>(?P<q>[\"']?)\b(?P<name>{_SECRET_NAME})(?P=q)\s*(?::=|=|:)\s*)(?P<vq>[\"']?)(?P<value>(?:[^\s\"'`,;&)}}\]]|&(?!\w+=))+)(?P=vq)",
    re.I,
)
_FLAG = _lazy(rf"(--(?:{_SECRET_NAME})[=\s]+['\"]?)([^\s'\"]{{6,}})", re.I)
_NOT_A_VALUE = _lazy(
    r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|x+|X+|\.+|null|none|nil|true|false|undefined|"
    r"required|optional|string|str|int|env|changeme|example|your[_\-].*|redacted.*|\[REDACTED.*|os\.environ.*|"
    r"process\.env.*|getenv.*|self\..*|\{\{.*|%\(.*|[a-z_]+\(.*|\d{1,6})$",
    re.I,
)
_CANDIDATE = _lazy(r"(?<![A-Za-z0-9+_\-])[A-Za-z0-9+_\-]{32,}={0,2}(?![A-Za-z0-9+_\-])")
_PROSE = _lazy(
    r"(\b(?:password|passwd|passphrase|passcode|pin|token|secret|api key|apikey)\s+(?:is|was|=|:)\s+)"
    r"(?=\S*[A-Za-z])(?=\S*\d)([^\s,;]{6,})",
    re.I,
)
_HEX = _lazy(r"^[0-9a-fA-F]+$")
_UUIDISH = _lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HASH_PREFIX = _lazy(r"(?:sha(?:1|224|256|384|512)|md5|blake2b?|xxh\d*)[-:=]\s*$", re.I)


def _tag(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _entropy(text: str) -> float:
    import math

    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _plain_base64(token: str) -> bool:
    """True when the token decodes to ordinary text: base64 of a sentence is not a secret."""
    import base64
    import binascii

    try:
        raw = base64.b64decode(
            token + "=" * (-len(token) % 4),
            altchars=b"-_" if "-" in token or "_" in token else None,
        )
    except (binascii.Error, ValueError):
        return False
    if len(raw) < 16:
        return False
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return printable / len(text) > 0.97


def _high_entropy(match: re.Match[str]) -> str:
    token = match.group(0)
    core = token.rstrip("=")
    before = match.string[max(0, match.start() - 12) : match.start()]
    if _HEX().match(core) or _HASH_PREFIX().search(before) or "[REDACTED" in before:
        return token  # git SHAs, checksums, lock-file integrity hashes
    if re.match(r"(?:sha(?:1|224|256|384|512)|md5)-", core, re.I):
        return token  # subresource-integrity hashes (package-lock.json)
    parts = [p for p in re.split(r"[-_.]", core) if p]
    if len(parts) >= 3 and sum(p.isalpha() for p in parts) / len(parts) >= 0.6:
        return token  # kebab/snake identifiers and encoded folder names
    classes = sum(bool(re.search(p, core)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    if classes < 3 or _entropy(core) < 4.2 or _plain_base64(core):
        return token
    if re.fullmatch(r"[A-Za-z]+(?:[_\-][A-Za-z]+)+\d*", core):
        return token  # snake_case or kebab-case identifiers
    return _tag("high_entropy")


def _fold(text: str) -> str:
    """Text as the re.I patterns see it, for the gates: casefold, plus the one letter that matches
    an ASCII one under re.I and casefolds to something else (dotless i)."""
    return text.casefold().replace("ı", "i")


_NAMES = ("pass", "pwd", "secret", "token", "key", "credential")  # a part of every _SECRET_NAME
# (gate, folded, step): a step runs only on text holding one of its gate's literals (in the folded
# text when folded), each a part of every match of the step's patterns; no gate: always runs.
_STEPS: list[tuple[tuple[str, ...], bool, Callable[[str], str]]] = [
    *(
        (gate, False, lambda t, k=kind, p=pattern: p().sub(_tag(k), t))
        for kind, gate, pattern in _TOKENS
    ),
    (
        ("://",),
        False,
        lambda t: _URL_CREDENTIALS().sub(lambda m: f"{m.group(1)}{_tag('url_credentials')}@", t),
    ),
    (
        ("://",),
        False,
        lambda t: _URL_TOKEN_USER().sub(lambda m: f"{m.group(1)}{_tag('url_credentials')}@", t),
    ),
    (
        ("-u",),
        False,
        lambda t: _CURL_USER().sub(lambda m: f"{m.group(1)}{m.group(2)}:{_tag('password')}", t),
    ),
    (
        ("authorization",),
        True,
        lambda t: _AUTH_HEADER().sub(
            lambda m: (
                m.group(1) + (m.group(2) if "[REDACTED" in m.group(2) else _tag("authorization"))
            ),
            t,
        ),
    ),
    (
        ("bearer",),
        True,
        lambda t: _BEARER().sub(
            lambda m: m.group(1) + (m.group(2) if "REDACTED" in m.group(2) else _tag("bearer")), t
        ),
    ),
    (_NAMES, True, lambda t: _ASSIGN().sub(_assignment, t)),
    (
        ("pass", "pin", "token", "secret", "api key", "apikey"),
        True,
        lambda t: _PROSE().sub(lambda m: m.group(1) + _tag("password"), t),
    ),
    (
        _NAMES,
        True,
        lambda t: _FLAG().sub(
            lambda m: (
                m.group(1) + (m.group(2) if _NOT_A_VALUE().match(m.group(2)) else _tag("secret"))
            ),
            t,
        ),
    ),
    ((), False, lambda t: _CANDIDATE().sub(_high_entropy, t)),
]


@functools.lru_cache(maxsize=16384)
def redact(text: str) -> str:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``; the rest stays readable.

    Cached: the same commands and error lines recur across a history's sessions.
    """
    return _redact(text) if text else text


def _redact(text: str) -> str:
    # Steps run in order on the text as the earlier ones left it, so gates look at that text too.
    folded: str | None = None
    for gate, fold, step in _STEPS:
        hay = text
        if fold:
            folded = hay = _fold(text) if folded is None else folded
        if not _gate(gate, hay):
            continue
        new = step(text)
        if new != text:
            text, folded = new, None
    return text


def _assignment(m: re.Match[str]) -> str:
    value = m.group("value")
    if _NOT_A_VALUE().match(value) or "[REDACTED" in value or _UUIDISH().fullmatch(value):
        return m.group(0)
    name = m.group("name").lower()
    if name.endswith(("_key_id", "keyid")) and len(value) < 24:
        return m.group(0)
    if "pass" in name or name in ("pwd",):
        kind = "password"
    elif "token" in name:
        kind = "token"
    elif "key" in name:
        kind = "key"
    else:
        kind = "secret"
    q = m.group("vq")
    return f"{m.group('pre')}{q}{_tag(kind)}{q}"


def has_secret(text: str) -> bool:
    return redact(text) != text


def fingerprint(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# -- poisoning -------------------------------------------------------------------------------

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


def _gate(needles: tuple[str, ...], text: str) -> bool:
    """Whether a pattern may match: no gate, or one of its literals is in the text (folded, for
    the re.I patterns)."""
    return not needles or any(needle in text for needle in needles)


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


def redact_json(value: object) -> object:
    """Every string inside a JSON-like value, redacted (for --json output and state)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_json(v) for k, v in value.items()}
    return value
