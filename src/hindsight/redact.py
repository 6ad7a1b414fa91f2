"""Secret redaction: everything hindsight writes or prints passes through ``redact``.

Our own patterns rather than a library: the common token formats are exact prefixes (cheap,
near-zero false positives), the generic ones are key=value shapes, and the high-entropy rule skips
what real transcripts are full of (git SHAs, UUIDs, lock-file hashes, base64 of plain text). See
the README's security section for recall and false positives.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable


def _lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A pattern compiled on first use: a run compiles only those its text gets past a gate to
    (compiling all of them cost ~9 ms of every start)."""
    return functools.cache(lambda: re.compile(pattern, flags))


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


_BARE_TOKEN = _lazy(r"[A-Za-z0-9+/_\-.=:]{16,200}")
_WORDISH = _lazy(r"[a-z]{4,}|[A-Z][a-z]{3,}")


def bare_token(text: str) -> str:
    """A typed prompt that is nothing but one credential-shaped token (a key pasted into the
    wrong window) redacted whole: too short for the high-entropy rule and named by no pattern,
    yet never words. Anything with a space, a word of four letters, hex, or few letters stays."""
    core = text.strip()
    if (
        len(core) < 16
        or not _BARE_TOKEN().fullmatch(core)
        or _HEX().match(re.sub(r"[-_.:/]", "", core))  # SHAs, UUIDs, MAC addresses
        or _WORDISH().search(core)
        or not any(c.isdigit() for c in core)
        or sum(c.isalpha() for c in core) < 6  # dates, versions, addresses
    ):
        return text
    return _tag("token")


def has_secret(text: str) -> bool:
    return redact(text) != text


def fingerprint(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _gate(needles: tuple[str, ...], text: str) -> bool:
    """Whether a pattern may match: no gate, or one of its literals is in the text (folded, for
    the re.I patterns)."""
    return not needles or any(needle in text for needle in needles)


def redact_json(value: object) -> object:
    """Every string inside a JSON-like value, redacted (for --json output and state)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_json(v) for k, v in value.items()}
    return value
