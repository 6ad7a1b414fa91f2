"""Deterministic fake secret values: a published token shape filled with seeded random characters.

Never real credentials: every value comes from ``random.Random`` with a fixed seed, so the corpus
is the same on every run and no scanner mistakes this source for a leak (prefixes and bodies are
joined only at run time).
"""

from __future__ import annotations

import base64
import json
import random
import string

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
HEX = "0123456789abcdef"
ALNUM = string.ascii_letters + DIGITS
ALPHA = string.ascii_letters
LOWER_ALNUM = LOWER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


class Fakes:
    """Random values of a given shape; one seeded generator per corpus module."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        """``n`` characters of ``alphabet``, holding a digit and a letter when the alphabet has both
        (a real token of that shape almost always does; a letter-only one would be a word)."""
        while True:
            out = "".join(self.rng.choice(alphabet) for _ in range(n))
            has_digit = any(c.isdigit() for c in alphabet)
            has_alpha = any(c.isalpha() for c in alphabet)
            if n < 8 or not has_digit or not has_alpha:
                return out
            if any(c.isdigit() for c in out) and any(c.isalpha() for c in out):
                return out

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def b64(self, raw: bytes) -> str:
        return base64.b64encode(raw).decode()

    def word_password(self) -> str:
        """A password people type: letters, digits and a symbol, 10 to 16 characters."""
        n = self.rng.randint(10, 16)
        body = self.s(ALNUM, n - 1)
        return body[:4] + self.rng.choice("!#%*-.@_") + body[4:]

    def jwt(self) -> str:
        def part(doc: dict[str, object]) -> str:
            return base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")

        head = part({"alg": "HS256", "typ": "JWT"})
        body = part({"sub": self.s(DIGITS, 10), "iat": 1700000000 + self.rng.randint(0, 10**6)})
        return f"{head}.{body}.{self.s(URLSAFE, 43)}"

    def pem(self, label: str, lines: int = 4) -> str:
        body = "\n".join(self.s(B64, 64) for _ in range(lines))
        return f"-----BEGIN {label}-----\n{body}\n{self.s(B64, 20)}==\n-----END {label}-----"
