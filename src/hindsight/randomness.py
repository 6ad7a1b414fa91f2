"""Whether a token looks random: the shape test behind bare high-entropy redaction and the
default-deny of random tokens in memory.

Random keys split into many short runs of letters and digits (``Zq8Jm2Xv``: Zq, 8, Jm, 2, Xv);
identifiers split into words (``UserProfilePanel2``). Measured on the corpora in tests/guard/.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """Compiled on first use: start-up matters (hindsight runs from hooks)."""
    return functools.cache(lambda: re.compile(pattern, flags))


_RUNS = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_HEX = lazy(r"[0-9a-fA-F]+")
_UUID = lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_CONSONANTS = lazy(r"[bcdfghjklmnpqrstvwxz]{6,}", re.I)
_WORD = lazy(r"[A-Za-z][a-z]*[aeiouy][a-z]*|[a-z]*[aeiouy][a-z]+", re.I)
_HASHLIKE = lazy(r"[A-Za-z]{0,2}(?:[0-9a-f]{32,}|[0-9A-F]{32,})")
_SEPARATORS = lazy(r"[-_.~+/%]")


def entropy(text: str) -> float:
    import math

    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values()) if n else 0.0


def is_hex(text: str) -> bool:
    return bool(_HEX().fullmatch(text))


def is_uuid(text: str) -> bool:
    return bool(_UUID().fullmatch(text))


def wordy(piece: str) -> bool:
    """A piece of a path, host or dotted name that reads as a word (``src``, ``Panel``, ``v2``)."""
    letters = piece.strip("-_~")
    return bool(_WORD().fullmatch(letters)) and len(letters) >= 3 and not is_hex(letters)


@functools.lru_cache(maxsize=8192)
def looks_random(
    token: str, min_len: int = 16, hex_counts: bool = True, mean_run: float = 2.5
) -> bool:
    """Whether ``token`` (separators allowed) looks like a generated key rather than words, a
    number or a path. Hex counts only where the caller has a reason (a name beside it): bare hex
    is a commit, a checksum or an id far more often than a key."""
    core = token.strip("=")
    if len(core) < min_len:
        return False
    if is_uuid(core):
        return hex_counts
    flat = _SEPARATORS().sub("", core)
    if len(flat) < min_len * 3 // 4:
        return False
    mixed = bool(re.search(r"\d", flat)) and bool(re.search(r"[a-fA-F]", flat))
    if _HASHLIKE().fullmatch(flat) and mixed:
        return hex_counts  # a hash with a letter before it (Gerrit's Change-Id: I<sha>)
    if is_hex(flat):
        return hex_counts and mixed
    runs = _RUNS().findall(flat)
    if not runs:
        return False
    mean = sum(map(len, runs)) / len(runs)
    if mean <= mean_run and len(runs) >= 4 and entropy(flat) >= 3.0:
        return True
    return flat.isalpha() and len(set(flat)) >= 10 and bool(_CONSONANTS().search(flat))


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# A segwit address: its human part, version q (v0) or p (taproot), and data in bech32's alphabet.
_SEGWIT = lazy(r"(?:bc|tb|ltc)1[qp][02-9ac-hj-np-z]{38,58}")


def _base58(text: str) -> bytes | None:
    number = 0
    for ch in text:
        digit = _BASE58.find(ch)
        if digit < 0:
            return None
        number = number * 58 + digit
    body = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


# Public values by their structure (issue #25): an age recipient (age1 + 58 of bech32's
# alphabet; the secret key is AGE-SECRET-KEY-1...), a Nostr public key or profile (npub1,
# nprofile1; the secret is nsec1), a Cosmos-family or Cardano address, a Google OAuth client id.
_PUBLIC_SHAPE = lazy(
    r"age1[02-9ac-hj-np-z]{58}|npub1[02-9ac-hj-np-z]{58}|nprofile1[02-9ac-hj-np-z]{40,}|"
    r"(?:cosmos|osmo|terra|juno|evmos|inj|sei|celestia|akash|stars|kava|addr|stake)1"
    r"[02-9ac-hj-np-z]{38,110}|\d{6,14}-[a-z0-9]{32}\.apps\.googleusercontent\.com"
)
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


@functools.lru_cache(maxsize=4096)
def public_id(token: str) -> bool:
    """A public identifier that looks random but carries its own checksum or header, so a
    generated key is (all but) never one: a Bitcoin address (base58check), an IPFS CID
    (v0 base58 sha2-256 multihash, v1 base32); a segwit address by its shape alone."""
    import hashlib

    if _PUBLIC_SHAPE().fullmatch(token):
        return True
    if 25 <= len(token) <= 35 and token[0] in "123mn":
        raw = _base58(token)
        if raw is not None and len(raw) == 25:
            digest = hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()
            return digest[:4] == raw[-4:]
    if len(token) == 46 and token.startswith("Qm"):
        raw = _base58(token)
        return raw is not None and len(raw) == 34 and raw[:2] == b"\x12\x20"
    if len(token) == 42 and token[:2] == "0x" and all(c in _HEX_DIGITS for c in token[2:]):
        return True  # an Ethereum address (a private key is 64 hex digits, not 40)
    lower = token.lower()
    if token in (lower, token.upper()) and _SEGWIT().fullmatch(lower):
        return True  # one case, an alphabet without 1, b, i, o: a key of that shape is no key
    if len(token) >= 50 and token.startswith("b") and token == lower:
        import base64
        import binascii

        body = token[1:].upper()
        try:
            raw = base64.b32decode(body + "=" * (-len(body) % 8))
        except (binascii.Error, ValueError):
            return False
        return raw[:1] == b"\x01" and raw[2:4] == b"\x12\x20" and len(raw) == 36
    return False
