"""The memory-poisoning screen: untrusted text (tool output, file contents, web pages) never
reaches memory as an instruction. A second line of defence behind building memory from trusted
pieces only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from hindsight import hosts
from hindsight.randomness import lazy
from hindsight.redact import _fold, _gate, has_secret

# High-signal: flagged wherever they appear, also by `memory check` on an existing block.
_HIGH: list[tuple[str, tuple[str, ...], Callable[[], re.Pattern[str]]]] = [
    (
        "addressed to an AI",
        ("ai", "assistant", "claude", "gpt", "llm", "language model", "agent"),
        lazy(
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
        lazy(
            r"\b(?:ignore|disregard|forget|override|bypass)\b.{0,30}\b(?:previous|prior|above|earlier|all|any|your|system|"
            r"original)\b.{0,20}\b(?:instructions?|prompts?|rules|guidelines|directives|context)\b"
            r"|\bnew (?:instructions|system prompt)\b|\bsystem prompt\b",
            re.I,
        ),
    ),
    (
        "writes to memory",
        ("memory", "claude.md", "agents.md", "your notes", "remember "),
        lazy(
            r"\b(?:add|write|save|store|put|append|insert)\b.{0,25}\b(?:to|in|into)\b.{0,10}"
            r"\b(?:memory|MEMORY\.md|CLAUDE\.md|AGENTS\.md|your notes)\b|\bremember (?:this|that|to)\b",
            re.I,
        ),
    ),
    (
        "download piped into a shell",
        ("curl", "wget", "fetch", "iwr", "invoke-webrequest", "urllib"),
        lazy(
            r"\b(?:curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b"
            r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)|\bpython[0-9.]*\s+-c\s+[\"']?import urllib"
            r"|\beval\s+\"?\$\((?:curl|wget)",
            re.I,
        ),
    ),
    (
        "destructive command",
        ("rm", "git", "drop", "truncate", "mkfs", "if=", "chmod", ":()", "/dev/sd", "shutdown"),
        lazy(
            r"\brm\s+-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?(?:/|~|\$HOME|\*|\.\s|\.$|/\*)"
            r"|\bgit\s+push\s+(?:-f|--force)\b|\bgit\s+reset\s+--hard\s+(?:HEAD~|origin)|\bgit\s+clean\s+-[a-z]*f[a-z]*d"
            r"|\b(?:drop|truncate)\s+(?:table|database|schema)\b|\bmkfs(?:\.\w+)?\b|\bdd\s+if=.*\bof=/dev/"
            r"|\bchmod\s+-R\s+777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:|>\s*/dev/sd[a-z]\b|\bshutdown\s+-h\b",
            re.I,
        ),
    ),
    # Two entries of one name, as one alternation before: the same answer, but each part is
    # scanned fast (a run start of 48 base64 letters is checked before the lookaheads, which
    # read the whole run; the rest needs its literals), 7x faster on a run's lesson texts.
    (
        "encoded blob",
        (),  # a long run of base64 letters has no literal to look for
        lazy(
            r"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{48})(?=[A-Za-z0-9+/]*[A-Z])(?=[A-Za-z0-9+/]*[a-z])"
            r"(?=[A-Za-z0-9+/]*\d)[A-Za-z0-9+/]{48,}={0,2}",
            re.I,
        ),
    ),
    (
        "encoded blob",
        ("base64", "\\x", "fromcharcode"),
        lazy(r"\bbase64\s+(?:-d|--decode)\b|(?:\\x[0-9a-f]{2}){8,}|\bfromCharCode\b", re.I),
    ),
]
_UNSAFE = "destructive or unsafe command"
_HIGH += [
    (
        "addressed to an AI",
        ("should", "must", "need", "has to", "is to", "expected to", "will now"),
        lazy(
            r"\b(?:the |an? )?(?:ai|assistant|agent|claude|llm|model|copilot)s?\b[^.\n]{0,20}?\b(?:should|must|"
            r"needs? to|has to|is to|is expected to|will now)\b",
            re.I,
        ),
    ),
    (
        "overrides instructions",
        (
            "ignor",
            "olvid",
            "oubli",
            "vergiss",
            "esque",
            "dimentic",
            "игнорир",
            "забудь",
            "忽略",
            "无视",
            "無視",
            "무시",
        ),
        lazy(
            # es, fr, de, pt, it, ru, zh, ja, ko: "ignore / forget the previous instructions"
            r"\bignor(?:a|e|ez|ar|ieren?|iere|are)\b.{0,40}\b(?:instrucci|instruction|anweisung|instru[çc]|istruzion|regeln|r[eè]gles|reglas)"
            r"|\b(?:olvida|oublie[zr]?|vergiss|esque[çc]a|dimentica)\b.{0,40}\b(?:instrucci|instruction|anweisung|instru[çc]|istruzion)"
            r"|игнорир|забудь|忽略|无视|無視|무시",
            re.I,
        ),
    ),
    (
        "writes to memory",
        (
            "mem",
            "moire",
            "ged",
            "speicher",
            "память",
            "запомни",
            "记",
            "記憶",
            "メモリ",
            "기억",
            "메모리",
        ),
        lazy(
            r"\b(?:a(?:ñade|gregue|ggiungi|dicione)|ajoute[zr]?|f[üu]ge|speichere?|guarda|salva|enregistre[zr]?)\b.{0,40}"
            r"\b(?:memoria|m[ée]moire|ged[äa]chtnis|speicher|mem[óo]ria)\b|\b(?:memoria|m[ée]moire|mem[óo]ria)\b"
            r"|в память|запомни|写入记忆|记住|記憶して|メモリ|기억|메모리",
            re.I,
        ),
    ),
    (
        "markdown that loads a URL",
        ("](", "<", "javascript:", "data:"),
        lazy(
            r"!\[[^\]\n]*\]\(|\[[^\]\n]*\]\(\s*(?:[a-z]+:|//)|<\s*(?:img|iframe|script|link|a)\b"
            r"|\bjavascript:|\bdata:[a-z]+/[a-z]",
            re.I,
        ),
    ),
    (
        "encoded or evaluated text",
        ("%", "decode", "atob", "openssl", "\\", "codecs", "rot", "eval", "exec", "xxd"),
        lazy(
            r"%[0-9a-f]{2}(?:%[0-9a-f]{2}){3,}|\bb(?:64|32|16)decode\b|\batob\s*\(|\bopenssl\s+(?:base64|enc)\b"
            r"|\\[0-7]{3}(?:\\[0-7]{3}){3,}|\\u[0-9a-f]{4}(?:\\u[0-9a-f]{4}){3,}|\bcodecs\.decode\b|\brot-?13\b"
            r"|\b(?:eval|exec)\s*\(|\bxxd\s+-r\b|\bdecode and (?:run|obey|follow|execute)\b",
            re.I,
        ),
    ),
    # Destructive or unsafe commands beyond the list above, split so each runs behind its literals.
    (_UNSAFE, ("-delete",), lazy(r"\bfind\s+\S+.*\s-delete\b", re.I)),
    (
        _UNSAFE,
        ("git",),
        lazy(r"\bgit\s+push\b[^\n;|&]*(?:\s\+[\w/]|--force)|\bgit\s+filter-branch\b", re.I),
    ),
    (
        _UNSAFE,
        ("truncate", "prune", "kubectl", "terraform"),
        lazy(
            r"\btruncate\s+-s\s*0|\bdocker\s+(?:system|volume|image)\s+prune\b|\bkubectl\s+delete\b"
            r"|\bterraform\s+(?:destroy|apply\s+-auto-approve)",
            re.I,
        ),
    ),
    (
        _UNSAFE,
        ("rm",),
        lazy(
            r"\brm\s+(?:-\w+\s+)*-[a-z]*r[a-z]*\s+(?:-\w+\s+)*-[a-z]*f|\brm\s+(?:-\w+\s+)*-[a-z]*f[a-z]*\s+(?:-\w+\s+)*-[a-z]*r"
            r"|\brm\s+--recursive",
            re.I,
        ),
    ),
    (
        _UNSAFE,
        ("shred", "preserve-root", "chmod", "crontab", "history", "iptables", "setenforce"),
        lazy(
            r"\bshred\b|--no-preserve-root|\bchmod\s+(?:-R\s+)?0?00\b|\bcrontab\s+-r\b|\bhistory\s+-c\b"
            r"|\biptables\s+-F|\bsetenforce\s+0",
            re.I,
        ),
    ),
    (
        _UNSAFE,
        ("delete", "drop", "kill"),
        lazy(
            r"\bdelete\s+from\s+\w+\s*(?:;|$)|\bdrop\s+(?:table|database)\b|\bkill\s+-9\s+-1\b",
            re.I,
        ),
    ),
    (
        _UNSAFE,
        ("no-verify", "node_tls", "unsafe-perm", "trusted-host", "insecure"),
        lazy(
            r"--no-verify\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*0|--unsafe-perm\b|--trusted-host\b|-insecure\b",
            re.I,
        ),
    ),
    (
        _UNSAFE,  # git hooks or TLS checks switched off: it passes by skipping the safeguard
        ("husky", "hookspath", "ssl_no_verify", "sslverify", "strict-ssl", "httpsverify"),
        lazy(
            r"\bHUSKY(?:_SKIP_HOOKS)?\s*=|\bcore\.hooksPath\b|\bGIT_SSL_NO_VERIFY\b"
            r"|\bhttp\.sslVerify\s*[= ]\s*false\b|\bstrict-ssl\s*[= ]\s*false\b"
            r"|\bPYTHONHTTPSVERIFY\s*=\s*0\b",
            re.I,
        ),
    ),
    (_UNSAFE, ("sudo", "unpublish"), lazy(r"\bsudo\s+pip\b|\bnpm\s+unpublish\b", re.I)),
    (
        _UNSAFE,
        ("delete", "--recursive"),
        lazy(r"\bgh\s+repo\s+delete\b|\bs3\s+rm\b.*--recursive", re.I),
    ),
    (
        _UNSAFE,
        ("skip", "disable"),
        lazy(
            r"\bskip[- ]ci\b|\[skip ci\]|\bdisable\b.{0,20}\b(?:hooks?|sandbox|review|tests?|lint|ci|checks?|verification)\b",
            re.I,
        ),
    ),
]
# Shapes of a memory entry or of hindsight's markers inside a lesson: a fake entry carried in a
# real one. Not for `memory check`, whose lines are entries.
_ENTRY = lazy(
    r"\n\s*[-*+]\s|\n\s*#|<!--|-->|hindsight:(?:start|end)|^\s*-\s+\*\*|\*\*\s*\(\d{4}-\d{2}-\d{2}\)"
    r"|\[(?:trap|fix|slow|search|preference|decision|reference|unfinished)\]",
    re.I,
)
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
        lazy(
            r"\b(?:always|never|from now on|in (?:all )?future sessions?|you must|you should|make sure to|do not tell)\b",
            re.I,
        ),
    ),
    (
        "instruction word",
        (
            "please",
            "kindly",
            "appreciate",
            "customary",
            "standard practice",
            "recommended",
            "going forward",
            "next time",
            "be sure to",
            "forget",
            "prefer",
            "want",
            "expect",
            "it would be",
            "consider",
            "should",
            "instead of asking",
            "without",
            "a partir de",
            "siempre",
            "nunca",
            "partir de maintenant",
            "sormais",
            "toujours",
            "jamais",
            "ab jetzt",
            "von nun an",
            "immer",
            "niemals",
            "sempre",
            "d'ora in poi",
            "отныне",
            "всегда",
            "никогда",
            "с этого момента",
            "总是",
            "永远",
            "从现在起",
            "以后都",
            "常に",
            "今後",
            "必ず",
            "항상",
            "앞으로",
            "절대",
        ),
        lazy(
            # Polite phrasing with no trigger word, and the common instruction words of es, fr,
            # de, pt, it, ru, zh, ja, ko.
            r"\b(?:please|kindly|would appreciate|it is customary|standard practice|recommended (?:workflow|practice|way)"
            r"|going forward|next time|be sure to|don'?t forget|(?:team|maintainers|owners?) (?:prefers?|wants?|expects?)"
            r"|it would be (?:best|better|great)|consider (?:mailing|sending|posting|uploading|running|using)"
            r"|should (?:always|never|be|carry|use|run|skip)|instead of asking|without (?:asking|review|approval)"
            r"|a partir de (?:ahora|agora)|siempre|nunca|à partir de maintenant|d[ée]sormais|toujours|jamais"
            r"|ab jetzt|von nun an|immer|niemals|sempre|d'ora in poi|отныне|всегда|никогда|с этого момента)\b"
            r"|总是|永远|从现在起|以后都|常に|今後|必ず|항상|앞으로|절대",
            re.I,
        ),
    ),
    # A URL that carries data in its query: fine in the agent's own command, not elsewhere.
    ("URL carrying data", ("//",), lazy(r"//\S+\?\S*=")),
]
_SEGMENT = lazy(r"`[^`]+`|\"[^\"]+\"|'[^'\s][^']*'")


# Latin look-alikes of Cyrillic and Greek letters (NFKC leaves them alone): folded before screening.
_CONFUSABLES = str.maketrans(
    "АВЕКМНОРСТХаеорсхуіјѕԁɡΑΒΕΖΗΙΚΜΝΟΡΤΥΧαοιυνρκɑɩıȷӏһԛԝѵ",
    "ABEKMHOPCTXaeopcxyijsdgABEZHIKMNOPTYXaoiuvpkaiijlhqwv",
)
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
# Common English words as rot13 spells them ("the", "and", "to", "you", "all", "ignore", ...).
_ROT13_HINTS = frozenset(
    ["gur", "naq", "gb", "lbh", "nyy", "vtaber", "cyrnfr", "nyjnlf", "arire", "lbhe", "vf", "vg"]
)
_HYPHENED = lazy(r"\w-\w+-\w+-\w")
_CAMEL_PATH = lazy(r"/[A-Z]?[a-z]+[A-Z][a-z]+[A-Z]")  # a folder of three words or more, CamelCase
_CAMEL_BREAK = lazy(r"(?<=[a-z])(?=[A-Z])")
_B64 = lazy(r"[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_\-]{16,}")


# Curly quotes as straight ones (a quote is a quote however typed), ideographic full stops as
# dots (``pkgs。evil。dev`` is a host to a reader).
_PUNCTUATION = str.maketrans(
    {
        **{c: "'" for c in "\u2018\u2019\u201a\u201b\u2032"},
        **{c: '"' for c in "\u201c\u201d\u201e\u201f\u2033"},
        "\u3002": ".",
    }
)
# Defanged hosts and URLs, as threat reports write them: ``example[.]com``, ``hxxps://``.
_DEFANGED = lazy(r"\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\[:\]|\bhxxp(?=s?(?:\[:\]|:)//)", re.I)
_UNDEFANGED = {"[:]": ":", "hxxp": "http"}


def _defanged(text: str) -> bool:
    """Whether ``_DEFANGED`` may match: one of its literals is in the text (its letters folded):
    substring checks in C, where its re.I scan of a long output takes several times longer."""
    if any(mark in text for mark in ("[.]", "(.)", "{.}", "[:]")):
        return True
    folded = text.casefold()
    return "dot" in folded or "hxxp" in folded


def normalize(text: str) -> str:
    """Text as a reader sees it: NFKC (fullwidth and mathematical letters to plain ones), format
    characters (zero-width, bidi controls, soft hyphen, tags) removed, look-alikes folded, curly
    quotes straight, ideographic and defanged dots as dots."""
    import unicodedata

    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        # One C-level pass each, not a Python step a character: tool output can be megabytes.
        text = _INVISIBLE().sub("", text)
        if _CONFUSABLE_CHARS().search(text):
            text = text.translate(_CONFUSABLES)
        text = mapped(text, _PUNCTUATION_CHARS(), _PUNCTUATION)
    if _defanged(text):
        text = _DEFANGED().sub(lambda m: _UNDEFANGED.get(m.group(0).casefold(), "."), text)
    return text


# Unicode's format characters (category Cf: zero-width, bidi controls, soft hyphen, tags), as
# ranges; test_screen checks them against unicodedata.
_CF = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
)
_FORMAT_CHARS = lazy(f"[{_CF}]")
# What a reader does not see: the format characters and the variation selectors (Mn, but as
# invisible between letters: "ign\ufe0fore" must read "ignore" to every check).
_INVISIBLE = lazy(f"[{_CF}\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def visible(text: str) -> str:
    """``text`` without the characters a reader does not see and a model does (Unicode tags,
    zero-width spaces and joiners, bidi controls, soft hyphens, variation selectors), nothing
    else changed. ``normalize`` drops them too, so every check reads text without them, and
    nothing written where a model reads it may hold them (red team of session 7)."""
    return text if text.isascii() else _INVISIBLE().sub("", text)


_CONFUSABLE_CHARS = lazy("[" + "".join(map(chr, _CONFUSABLES)) + "]")
_PUNCTUATION_CHARS = lazy("[" + "".join(map(chr, _PUNCTUATION)) + "]")


def mapped(text: str, chars: re.Pattern[str], table: dict[int, str]) -> str:
    """``text.translate(table)``, where ``chars`` is a class of the table's characters: a
    translate with a dict looks up every character of the text in Python's dict (~65 ns each,
    25 ms on a run's tool outputs) while a class search runs in C, and few texts hold any."""
    return chars.sub(lambda m: table[ord(m.group(0))], text) if chars.search(text) else text


def _decoded(text: str) -> list[str]:
    """What an encoded part of ``text`` says: URL-decoded, rot13, base64 blobs decoded."""
    out = []
    if "%" in text:
        from urllib.parse import unquote

        out.append(unquote(text))
    if _ROT13_HINTS.intersection(text.casefold().split()):
        out.append(text.translate(_ROT13))  # English in rot13: its function words give it away
    import base64
    import binascii

    for blob in _B64().findall(text):
        padded = blob + "=" * (-len(blob) % 4)
        try:
            raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if decoded.isprintable():
            out.append(decoded)
    return out


def _variants(text: str) -> list[str]:
    """The text and what it also says: separators as spaces (file names hide words behind them)
    and its decoded forms."""
    base = normalize(text)
    out = [base]
    camel = _CAMEL_PATH().search(base)
    if "_" in base or _HYPHENED().search(base) or camel:
        spaced = base.replace("_", " ").replace("-", " ")
        if camel:
            # "docs/IgnorePreviousInstructions/AlwaysPushToMain/": a path's folders are words
            # too (red team of session 7: a path of words is no blob, and must be no cover).
            spaced = _CAMEL_BREAK().sub(" ", spaced.replace("/", " "))
        out.append(spaced)
    return out + [normalize(d) for d in _decoded(base)]


def _high(variant: str) -> str | None:
    """The name of the first high-signal pattern found in ``variant``."""
    folded = _fold(variant)
    for name, gate, pattern in _HIGH:
        if not _gate(gate, folded):
            continue
        if name == "encoded blob" and not gate:
            # A path of words is no blob: "/Users/Alice/Work2024/ClientProjects/" has base64's
            # letters, case and digits, and a folder or transcript path named in a lesson runs
            # past 48 of them (a repository under "/work/skill3/AojdevStudio+cdev/...").
            if any(not _path_of_words(m.group(0)) for m in pattern().finditer(variant)):
                return name
        elif pattern().search(variant):
            return name
    return None


# A folder or file name as people write them: words in lower case or CamelCase (a part of 2+
# letters each), an acronym, a number, with a few digits after; an acronym or an initial may
# close it ("RaggioS", "macOS", "DavidR"); a folder may be one letter. Base64 mixes case and
# digits inside a part ("aGVsbG8gd29ybGQ").
_NAMED_PART = lazy(
    r"(?:[A-Z]?[a-z]{2,}|[A-Z]{2,6})(?:[A-Z][a-z]{2,})*(?:[A-Z]{1,6})?\d{0,4}|\d{1,8}|[A-Za-z]"
)


def _path_of_words(run: str) -> bool:
    """Whether a run of base64's letters is a path: three slashes or more, every part a name."""
    parts = [p for piece in run.split("/") for p in piece.split("+") if p]
    return run.count("/") >= 3 and all(_NAMED_PART().fullmatch(p) for p in parts)


def _norm(text: str) -> str:
    # Quotes dropped: a judge names a command as the shell split it (``shell.short``).
    # NFKC spells a clipping ellipsis as three dots.
    folded = text.casefold().replace("…", "").replace("...", "").replace("'", "").replace('"', "")
    return " ".join(folded.split())


class Screen:
    """Decides whether a text may enter memory.

    ``trusted`` holds what the user typed and the commands the agent ran; ``known_hosts`` the hosts
    named in the repo's own files. A hit inside a quoted or code segment that appears in trusted
    text is the user's or the agent's own and passes; anything else is quarantined.
    """

    def __init__(
        self, trusted: Iterable[str] = (), host_known: Callable[[str], bool] | None = None
    ) -> None:
        self._raw = [t for t in trusted if t]
        # Folded as the screened text is (look-alikes, curly quotes, defanged dots).
        self.trusted = [_norm(normalize(t)) for t in self._raw]
        self.host_known = host_known or (lambda host: False)
        self._redacted: list[str] | None = None

    def _is_trusted(self, fragment: str) -> bool:
        frag = _norm(fragment.strip("`\"' "))
        if not frag:
            return False
        if any(frag in t for t in self.trusted):
            return True
        if "[redacted" not in frag:
            return False
        # A lesson quotes the command redacted: compare with the trusted texts redacted too.
        if self._redacted is None:
            from hindsight.redact import redact

            self._redacted = [_norm(redact(t)) for t in self._raw]
        return any(frag in t for t in self._redacted)

    def _segment_of(self, text: str, start: int, end: int) -> str | None:
        for seg in _SEGMENT().finditer(text):
            if seg.start() <= start and end <= seg.end():
                return seg.group(0)
        return None

    def check(self, text: str, *, memory: bool = True) -> str | None:
        """The reason ``text`` must not reach memory, or None.

        Screened after normalization and in its decoded forms. High-signal patterns are never
        excused, so `memory check` passes on whatever hindsight writes; instruction words and hosts
        pass when they stand in the user's or agent's own text.
        """
        if has_secret(text):
            return "holds a secret"
        if _ENTRY().search(normalize(text)):
            return "carries the shape of a memory entry or marker"
        variants = _variants(text)
        for n, variant in enumerate(variants):
            high = _high(variant)
            if high is not None:
                return high if n < 2 else f"{high} (encoded)"
            if n > 0:
                continue  # the other readings get the high-signal patterns only: an instruction
                # word is excused by a trusted quote, and a decoded text quotes nothing
            folded = _fold(variant)
            for name, gate, pattern in _CONTEXT:
                if not _gate(gate, folded):
                    continue
                for hit in pattern().finditer(variant):
                    segment = self._segment_of(variant, hit.start(), hit.end())
                    if segment is None or not self._is_trusted(segment):
                        return name
        for host in hosts.find(variants[0]) if memory else ():
            if host in ("localhost", "127.0.0.1", "example.com") or any(
                host in hosts.find(t) for t in self.trusted if host in t
            ):
                continue
            if not self.host_known(host):
                return "names a host not seen in the repo"
        return None


def check_entry(text: str) -> str | None:
    """High-signal problems of a memory entry already written (for `memory check`)."""
    if has_secret(text):
        return "holds a secret"
    for variant in _variants(text):
        high = _high(variant)
        if high is not None:
            return f"instruction-like: {high}"
    return None
