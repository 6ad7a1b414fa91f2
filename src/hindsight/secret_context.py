"""Secrets told by their context rather than their shape (the fifth red team of issue #11).

A value a few words after a naming word in prose ("the passphrase for the deploy key is ...",
"The Datadog key <hex> is rejected", "log in as admin / ..."), a session cookie named in prose,
an Ansible vault payload, a wallet's recovery phrase, a payment card number. Each step here is
called by ``redact`` behind a literal gate (tests/guard/test_gates.py), except the card number,
which has none: its pattern starts at a digit and a Luhn check decides.
"""

from __future__ import annotations

import re

from hindsight.randomness import is_hex, is_uuid, lazy, looks_random, public_id

_PASSWORDISH = ("pass", "pw", "credential", "cred")  # password, passphrase, passwd, passcode
# Words a value is named by; "login", "log in", "sign in" only as "as USER / VALUE" or
# "as USER with VALUE" (a login page, a login with GitHub, are no values).
_NAMING = lazy(
    r"(?P<word>password|passphrase|passwd|passcode|pass(?=[ \t]*(?:is\b|was\b|:|=))|pw|"
    r"secret|token|key|auth|"
    r"credentials?|creds|(?P<login>log(?:ged|ging)?[ \t]?in|sign(?:ed|ing)?[ \t]?in))"
    r"(?:'s)?(?![\w\-/])",
    re.I,
)
NAMING_GATE = ("pass", "pw", "secret", "token", "key", "auth", "cred", "log", "sign")
_TOKEN = lazy(r"\S+")
_VERBS = frozenset(["is", "was", "are", "were", "=", ":", "-", "—", "of"])
# A value after one of these is a place, not a value: "the key is in 1Password".
_PREPOSITIONS = frozenset(
    [
        "in",
        "at",
        "from",
        "see",
        "under",
        "on",
        "via",
        "inside",
        "into",
        "to",
        "within",
        "by",
        "under",
        "behind",
        "through",
    ]
)
# Words that say the hex or UUID after them is a hash or an id, not a key.
_HASH_WORD = lazy(
    r"\b(?:sha\w*|md5|commit\w*|digest|checksums?|hash\w*|etag|integrity|fingerprints?|ids?|"
    r"uuid|guid|revision|rev|build|request|trace|span|correlation|tx|transaction|block|order|"
    r"issue|version|idempotency|cache|primary|foreign|sort|partition|routing|public|object|"
    r"git|head|tag|release|image|layer|container|serial|nonce|salt|identifier|keyid)\b",
    re.I,
)
_PLACEHOLDER = lazy(r"x{3,}|X{3,}|\*{3}|\.\.\.|your[-_ ]|[-_]here$|^<|>$|example|changeme", re.I)
_STRONG_SYMBOL = frozenset("!#$%&*+?@^~")
_VERSIONISH = lazy(r"v?\d+(?:\.\d+)+\w*|#[0-9a-fA-F]{3,8}|\w+(?:==|>=|<=|~=)\S*|\d+\w{0,3}")


_NAME_LIKE = lazy(r"[a-z0-9]+(?:[-.][a-z0-9]+)+|(?:[0-9A-Fa-f]{2}:){4,}[0-9A-Fa-f]{2}")
# Commands that take a secret's name, not its value: kubectl get secret NAME.
_RESOURCE_VERB = lazy(
    r"\b(?:get|describe|delete|edit|patch|label|annotate|create\s+\w+|rollout|secrets?)\s+$"
)


def _plain(token: str) -> bool:
    return token.isalpha() or (
        token.replace("'", "").replace("-", "").isalpha() and "-" not in token
    )


def _strip(token: str) -> str:
    token = token.strip("\"'`()[]{}<>,;")
    return token.rstrip(".!?:") if len(token) > 1 else token


def _kept(value: str) -> bool:
    from hindsight.redact import _kept as kept

    return (
        kept(value)
        or "://" in value
        or "[REDACTED" in value
        or bool(_PLACEHOLDER().search(value))
        or value.startswith(("$", "%", "{", "@"))
        or _PUBLIC_VALUE().match(value) is not None
        or public_id(value)
    )


# A fingerprint (SHA256:..., MD5:aa:bb:...), a DID: public by their form.
_PUBLIC_VALUE = lazy(
    r"(?:SHA256|SHA1|MD5|SHA512):|(?:[0-9a-fA-F]{2}:){5,}[0-9a-fA-F]{2}$|:?z6Mk|did:", re.I
)


def _strong(value: str) -> bool:
    """A password people type: letters with a digit and a symbol, or mixed case with a digit."""
    letters = any(c.isalpha() for c in value)
    digit = any(c.isdigit() for c in value)
    symbol = any(c in _STRONG_SYMBOL for c in value)
    mixed = value.lower() != value != value.upper()
    return len(value) >= 8 and letters and digit and (symbol or mixed)


def _secret(value: str, passwordish: bool, at_verb: bool, context: str) -> bool:
    """Whether ``value`` found near ``word`` is a secret; ``at_verb``: right after the word or
    its verb ("the password is X"), not a few words further on."""
    if passwordish and at_verb and value.isdigit() and len(value) >= 4:
        return True  # "the vault passcode is 482913": a PIN, not a version
    if len(value) < 6 or _kept(value) or _VERSIONISH().fullmatch(value):
        return False
    if "/" in value and not _strong(value):
        return False  # a path
    hashed = bool(_HASH_WORD().search(context))
    bare = value[2:] if value[:2].lower() == "0x" else value
    if is_hex(bare) and len(bare) >= 32:
        return not hashed
    if is_uuid(value):
        return not hashed and not passwordish
    if not passwordish and _NAME_LIKE().fullmatch(value):
        return False  # a resource's name: kubectl describe secret api-token-7fz2q
    if looks_random(value, 12, hex_counts=False, mean_run=3.0):
        return not hashed or not any(c.isdigit() for c in value) or not is_hex(bare)
    if not passwordish or hashed:
        return False
    if _strong(value):
        return True
    if not at_verb:
        return False
    parts = value.split("-")
    if len(parts) >= 3 and all(p.isalpha() and len(p) >= 3 for p in parts):
        return True  # a passphrase of words: copper-lantern-orbit-violet
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _phrase(tokens: list[re.Match[str]], n: int) -> int:
    """How many plain lowercase words from ``tokens[n]`` on make a passphrase (3 or more; 0 if
    fewer)."""
    count = 0
    for t in tokens[n:]:
        word = t.group(0).rstrip(".,;!?")
        if not (word.isalpha() and word.islower()):
            break
        count += 1
        if t.group(0) != word:
            break  # the sentence ends on it
    return count if count >= 3 else 0


def near(text: str) -> str:
    """Values a few words after a naming word in prose, redacted."""
    spans: list[tuple[int, int, str]] = []
    for m in _NAMING().finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-./$@"):
            continue
        word = m.group("word").lower()
        login = m.group("login") is not None
        passwordish = login or word.startswith(_PASSWORDISH)
        end = text.find("\n", m.end())
        window = text[m.end() : (len(text) if end < 0 else end)][:120]
        tokens = list(_TOKEN().finditer(window))[:7]
        context = text[max(0, m.start() - 40) : m.start()]
        if _RESOURCE_VERB().search(context):
            continue
        prev = ""
        at_verb = True
        for n, t in enumerate(tokens):
            raw = t.group(0)
            value = _strip(raw)
            lower = value.lower()
            if login:
                found = _login_value(tokens, n, value, prev)
                if found is not None:
                    k, value = found
                    start = m.end() + tokens[k].start() + tokens[k].group(0).find(value)
                    if _login_secret(value):
                        spans.append((start, start + len(value), "password"))
                    break
            else:
                if prev in _PREPOSITIONS:
                    break  # a place, not a value: "the key is in 1Password"
                words = _phrase(tokens, n) if word == "passphrase" and prev in (":", "=") else 0
                if words:
                    # "passphrase: purple monkey dishwasher lamp": words after a label only
                    # ("the passphrase is stored in the vault" is prose).
                    start = m.end() + t.start()
                    spans.append((start, m.end() + tokens[n + words - 1].end(), "password"))
                    break
                # A hash word says "id, not key" a few words before the naming word ("checksum
                # of the key file") or after it; "commit" before it only right before it (the
                # verb of "never commit the datadog key X" says nothing of X).
                before = context.split()[-3:]
                kept = [w for i, w in enumerate(before, 1) if i == len(before) or "commit" not in w]
                seen = " ".join(kept) + " " + window[: t.start()]
                if value and _secret(value, passwordish, at_verb, seen):
                    start = m.end() + t.start() + raw.find(value)
                    kind = "password" if passwordish else "secret"
                    spans.append((start, start + len(value), kind))
                    break
                if lower in _VERBS or (value == "/" and passwordish and n > 0):
                    at_verb = True  # "creds: deploy / <value>"
                elif value and _plain(value):
                    at_verb = False
                else:
                    break
                if raw.endswith((".", ",", ";", "?", "!")):
                    break
            prev = lower
            if n >= 5:
                break
    if not spans:
        return text
    out, last = [], 0
    for start, end, kind in sorted(set(spans)):
        if start < last:
            continue
        out += [text[last:start], f"[REDACTED:{kind}]"]
        last = end
    return "".join(out) + text[last:]


def _login_value(
    tokens: list[re.Match[str]], n: int, value: str, prev: str
) -> tuple[int, str] | None:
    """After "log in": "as USER / VALUE", "as USER/VALUE", "is USER / VALUE", "as USER with
    (the password)? VALUE"."""
    if value == "/" and n >= 1 and n + 1 < len(tokens):
        return n + 1, _strip(tokens[n + 1].group(0))
    if prev == "as" and "/" in value:
        user, _, rest = value.partition("/")
        if user and rest:
            return n, rest
    if value.lower() in ("with", "using") and n >= 2 and tokens[n - 2].group(0).lower() == "as":
        k = n + 1
        while k < len(tokens) and tokens[k].group(0).lower() in ("the", "password", "pw"):
            k += 1
        if k < len(tokens):
            return k, _strip(tokens[k].group(0))
    return None


def _login_secret(value: str) -> bool:
    if len(value) < 4 or _kept(value) or value.lower() in _PREPOSITIONS:
        return False
    return not value.isalpha() or looks_random(value, 8, mean_run=3.0)


# A session cookie named in prose or a flag (sessionid=..., connect.sid=s%3A..., PHPSESSID=...).
_SESSION = lazy(r"(?:sid|session(?:[_\-]?id)?)=(?P<value>[^\s;,'\"&<>)]{8,})", re.I)
SESSION_GATE = ("sid=", "session=", "sessionid=", "session_id=", "session-id=")
_SESSION_NAME = lazy(
    r"[\w\-]*(?:sessid|session[_\-]?id|_session)|connect\.sid|session|sid|[\w\-]+_sid", re.I
)


def session_cookies(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value, text = m.group("value"), m.string
        at = m.start()
        while at and (text[at - 1].isalnum() or text[at - 1] in "_-."):
            at -= 1
        eq = m.start("value") - 1
        name = text[at:eq]
        if (
            not _SESSION_NAME().fullmatch(name)
            or _kept(value)
            or value.isalpha()
            or re.match(r"S-1-\d", value)
            or not (any(c.isdigit() for c in value) or "%" in value)
        ):
            return m.group(0)
        return m.group(0)[: eq - m.start() + 1] + "[REDACTED:cookie]"

    return _SESSION().sub(one, text)


# Ansible vault: the hex lines after the header (in a file, or under `!vault |` in YAML).
_VAULT = lazy(
    r"(\$ANSIBLE_VAULT;[\d.]+;AES256(?:;[\w\-]+)?[ \t]*\n)((?:[ \t]*[0-9a-f]{16,}[ \t]*(?:\n|$))+)"
)
VAULT_GATE = ("$ANSIBLE_VAULT;",)


def ansible_vault(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        body = m.group(2)
        indent = body[: len(body) - len(body.lstrip(" \t"))]
        tail = "\n" if body.endswith("\n") else ""
        return m.group(1) + indent + "[REDACTED:ansible_vault]" + tail

    return _VAULT().sub(one, text)


# A wallet's recovery phrase: 12+ BIP-39 words in a row after a word that names one.
MNEMONIC_GATE = ("mnemonic", "seed", "phrase", "recovery", "wallet", "bip39", "bip-39")
_MNEMONIC_NAME = lazy(r"mnemonic|seed|phrase|recovery|wallet|bip-?39", re.I)
_WORD_RUN = lazy(r"(?:\b[a-z]{3,8}\b(?:[ \t,]+|\s*\n\s*|\s+\d{1,2}[.):]\s+)){11,}\b[a-z]{3,8}\b")


def mnemonic(text: str) -> str:
    from hindsight.bip39 import WORDS

    def one(m: re.Match[str]) -> str:
        before = m.string[max(0, m.start() - 80) : m.start()]
        if not _MNEMONIC_NAME().search(before):
            return m.group(0)
        run = m.group(0)
        words = list(re.finditer(r"[a-z]+", run))
        out, last, k = [], 0, 0
        while k < len(words):
            j = k
            while j < len(words) and words[j].group(0) in WORDS:
                j += 1
            if j - k >= 12:
                out += [run[last : words[k].start()], "[REDACTED:mnemonic]"]
                last = words[j - 1].end()
            k = max(j, k + 1)
        return "".join(out) + run[last:] if out else run

    return _WORD_RUN().sub(one, text)


# A payment card number: 13 to 19 digits, grouped by spaces or dashes or not, with a card
# network's prefix and a valid Luhn check digit (test cards too: a transcript has no way to
# tell). Epoch milliseconds start with 1, so no network prefix takes them.
_CARD = lazy(
    r"[2-6](?<![\w.\-/:#][2-6])(?:\d{3}([ -]?)\d{4}\1\d{4}\1\d{1,7}|(?<=3)[47]\d{2}([ -]?)\d{6}\2\d{5})"
    r"(?![\w.\-/:])"
)
_NETWORK = lazy(
    r"4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2[2-7]\d{14}|3[47]\d{13}|3[0689]\d{11,16}|"
    r"6\d{15,18}|5[06-9]\d{10,17}"
)


def luhn(digits: str) -> bool:
    total = 0
    for n, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if n % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def cards(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        digits = re.sub(r"[ -]", "", m.group(0))
        if _NETWORK().fullmatch(digits) and luhn(digits) and len(set(digits)) > 1:
            return "[REDACTED:payment_card]"
        return m.group(0)

    return _CARD().sub(one, text)


# A TOTP seed: base32 (A-Z, 2-7) after a word that names one, as authenticator apps show it
# (JBSWY3DPEHPK3PXP, or "jbsw y3dp ehpk 3pxp" in groups of four).
TOTP_GATE = ("seed", "secret", "totp", "2fa", "mfa", "otp")
_TOTP = lazy(
    r"((?:seed|secret|totp|2fa|mfa|otp)\b[^\n]{0,30}?(?:[:=]|\bis\b|\s)\s*)"
    r"([A-Z2-7]{16,}={0,6}|[a-z2-7]{16,}={0,6}|(?:[a-z2-7]{4} ){3,}[a-z2-7]{4}|(?:[A-Z2-7]{4} ){3,}[A-Z2-7]{4})"
    r"(?![\w\-])",
    re.I,
)


def totp(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value, at = m.group(2), m.start()
        flat = value.replace(" ", "").rstrip("=")
        if (
            (at and m.string[at - 1].isalnum())
            or not any(c in "234567" for c in flat)
            or len(set(flat.lower())) < 8
        ):
            return m.group(0)
        return m.group(1) + "[REDACTED:totp_seed]"

    return _TOTP().sub(one, text)


# A 64-hex private key named by the wallet holding it (an address is 40 hex; a transaction hash
# is named as one, not as a wallet).
WALLET_GATE = ("wallet", "private", "priv")
_WALLET_KEY = lazy(
    r"(\b(?:wallet|private[_ \-]?key|privkey)\b[\s:=\"']{1,4}(?:is\s+)?)(?:0x)?[0-9a-fA-F]{64}\b",
    re.I,
)


def wallet_keys(text: str) -> str:
    return _WALLET_KEY().sub(lambda m: m.group(1) + "[REDACTED:private_key]", text)


# Commands whose whole output is a token: what follows them on the next lines, alone on its
# line, is that token however it looks (a Heroku token is a UUID).
PRINTED_TOKEN_GATE = (
    "auth:token",
    "auth token",
    "print-access-token",
    "print-identity-token",
    "get-access-token",
    "print token",
    "get-login-password",
)
_TOKEN_COMMAND = (
    r"(?:heroku\s+auth:token|gh\s+auth\s+token|gcloud\s+auth\s+(?:application-default\s+)?"
    r"print-(?:access|identity)-token|az\s+account\s+get-access-token|doctl\s+auth\s+token|"
    r"vault\s+print\s+token|aws\s+ecr(?:-public)?\s+get-login-password)\b"
)
_PRINTS_TOKEN = lazy(_TOKEN_COMMAND + r"[^\n]*\n(?P<out>(?:[^\n]*(?:\n|$)){1,3})", re.I)
_PRINTS_TOKEN_COMMAND = lazy(_TOKEN_COMMAND, re.I)
_BARE_TOKEN = lazy(r"(?m)^(?P<indent>[ \t>|$`\"']*)[\w.\-:/+=]{20,}(?P<end>[`\"']?[ \t]*)$")


def printed_tokens(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        return m.group(0)[: m.start("out") - m.start()] + _bare_tokens(m.group("out"))

    return _PRINTS_TOKEN().sub(one, text)


def _bare_tokens(output: str) -> str:
    return _BARE_TOKEN().sub(
        lambda t: t.group("indent") + "[REDACTED:token]" + t.group("end"), output
    )


def token_output(command: str, output: str) -> str:
    """The output of a command that prints a token (``heroku auth:token``), each line that is a
    bare token redacted: reports and the digest show the output apart from its command."""
    if not output or not any(g in command for g in PRINTED_TOKEN_GATE):
        return output
    return _bare_tokens(output) if _PRINTS_TOKEN_COMMAND().search(command) else output


ECHOED_GATE = ("echo", "printf")
# A value echoed into a file its name says holds a secret: `echo Wint3r > .dbpass`.
_ECHOED = lazy(
    r"\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(['\"]?)([^\s'\"|;&<>]{4,})\1[ \t]*>>?[ \t]*"
    r"['\"]?[\w./~-]*(?:pass|secret|token|cred|key)[\w./-]*",
    re.I,
)


def echoed(text: str) -> str:
    """Values written into a file named for a secret (.pgpass, .dbpass, secret.txt, token),
    redacted; a variable (`echo "$TOKEN" > .token`) is no value."""

    def swap(m: re.Match[str]) -> str:
        value = m.group(2)
        if value.startswith(("$", "%", "[REDACTED")) or _kept(value):
            return m.group(0)
        at = m.start(2) - m.start(0)
        return f"{m.group(0)[:at]}[REDACTED:password]{m.group(0)[at + len(value) :]}"

    return _ECHOED().sub(swap, text)
