"""Hosts and URLs in text, including the shapes a narrow pattern misses: IPv6, protocol-relative
``//host``, ``user@host``, and any top-level domain (two-letter country codes, the new gTLDs).

A dotted word is a host only when its last label is a top-level domain and it is not a file name
(``app.py``: ``py`` is Paraguay's code, but two labels ending in a file extension are a file).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

# Generic TLDs seen in the wild, the unusual ones attackers favour included; every two-letter
# label counts as a country code.
_GTLDS = frozenset(
    [
        "com",
        "net",
        "org",
        "edu",
        "gov",
        "mil",
        "int",
        "arpa",
        "info",
        "biz",
        "name",
        "pro",
        "mobi",
        "asia",
        "tel",
        "travel",
        "jobs",
        "museum",
        "aero",
        "coop",
        "app",
        "dev",
        "io",
        "xyz",
        "top",
        "site",
        "online",
        "store",
        "tech",
        "space",
        "fun",
        "icu",
        "buzz",
        "monster",
        "rest",
        "bar",
        "cyou",
        "sbs",
        "lol",
        "pw",
        "win",
        "bid",
        "loan",
        "date",
        "stream",
        "download",
        "racing",
        "review",
        "party",
        "trade",
        "webcam",
        "science",
        "work",
        "life",
        "live",
        "world",
        "today",
        "news",
        "email",
        "support",
        "services",
        "solutions",
        "network",
        "systems",
        "software",
        "digital",
        "media",
        "zone",
        "host",
        "website",
        "cloud",
        "click",
        "link",
        "zip",
        "mov",
        "club",
        "shop",
        "vip",
        "ltd",
        "group",
        "blog",
        "page",
        "tools",
        "codes",
        "run",
        "build",
        "cc",
        "sh",
        "ru",
        "cn",
        "tk",
        "ml",
        "ga",
        "cf",
        "gq",
        "me",
        "co",
        "ai",
        "local",
        "internal",
        "lan",
        "corp",
        "home",
        "test",
        "example",
        "invalid",
        "localhost",
        "onion",
        "wtf",
        "ninja",
        "rocks",
        "lat",
        "cam",
        "quest",
        "beauty",
        "hair",
        "skin",
        "mom",
        "bond",
        "cfd",
        "autos",
        "boats",
        "homes",
        "motorcycles",
        "yachts",
        "cool",
        "wiki",
        "fyi",
        "foo",
        "gle",
        "goog",
        "google",
        "amazon",
        "microsoft",
        "apple",
        "meme",
        "guru",
        "expert",
    ]
)
# Endings of file names that are also top-level domains (or look like them next to a dot).
_FILE_EXT = frozenset(
    [
        "py",
        "sh",
        "md",
        "rs",
        "pl",
        "in",
        "cc",
        "so",
        "ps",
        "pm",
        "mk",
        "ts",
        "js",
        "gz",
        "rb",
        "go",
        "cs",
        "ml",
        "hs",
        "el",
        "lo",
    ]
)

# One pattern per shape, each run only when its literal is in the text; none can backtrack far
# (a host scan runs over every command and sentence of a session).
_URL = functools.cache(
    lambda: re.compile(
        r"\b[a-z][a-z0-9+.\-]{1,15}://(?:[^\s/@'\"`<>]*@)?(\[[0-9a-f:.]+\]|[^\s/:?#'\"`<>()\[\]{}|\\^]+)",
        re.I,
    )
)
_REL = functools.cache(
    lambda: re.compile(
        r"(?<![:\w/])//(\[[0-9a-f:.]+\]|[a-z0-9][a-z0-9\-]*(?:\.[a-z0-9\-]+)+)", re.I
    )
)
_V6 = functools.cache(
    lambda: re.compile(
        r"\[[0-9a-f:.]{3,}\]|(?<![\w:.])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?![\w:])", re.I
    )
)
_V4 = functools.cache(lambda: re.compile(r"(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\w.])"))
_DNS = functools.cache(
    lambda: re.compile(
        r"(?<![\w.\-/\\])[a-z0-9][a-z0-9\-]*(?:\.[a-z0-9][a-z0-9\-]*)+\.?(?![\w\-])", re.I
    )
)


def _is_dns_host(name: str) -> bool:
    labels = name.rstrip(".").casefold().split(".")
    tld = labels[-1]
    if tld in _FILE_EXT:
        return False  # app.py, run.sh, next.config.ts: a URL or //host still names a host
    return tld in _GTLDS or (len(tld) == 2 and tld.isalpha())


def _is_v6(text: str) -> bool:
    bare = text.strip("[]")
    return "::" in bare or (bare.count(":") >= 4 and any(c.isalpha() for c in bare))


def find(text: str) -> list[str]:
    """Every host named in ``text``, casefolded: from URLs (any scheme, ``user@`` skipped),
    ``//host``, IP addresses (v4 and v6) and dotted names whose last label is a top-level domain."""
    out: list[str] = []
    if "://" in text:
        out += [m.group(1) for m in _URL().finditer(text)]
    if "//" in text:
        out += [m.group(1) for m in _REL().finditer(text)]
    if "::" in text or "[" in text or text.count(":") >= 7:
        out += [m.group(0) for m in _V6().finditer(text) if _is_v6(m.group(0))]
    if "." in text:
        out += [m.group(0) for m in _V4().finditer(text)]
        out += [m.group(0) for m in _DNS().finditer(text) if _is_dns_host(m.group(0))]
    return list(dict.fromkeys(h.casefold().rstrip(".") for h in out))


def urls(text: str) -> list[str]:
    """Every URL (any scheme) in ``text``."""
    return [m.group(0) for m in _URL().finditer(text)] if "://" in text else []


def _ere(host: str) -> str:
    """``host`` as a POSIX extended regex, standing alone (not inside a longer host name)."""
    body = "".join("[.]" if c == "." else "\\" + c if c in "[]" else c for c in host)
    return f"(^|[^A-Za-z0-9.-]){body}($|[^A-Za-z0-9-])"


def known_in_repo(root: str) -> Callable[[str], bool]:
    """Whether a host is named in the repository's tracked files (git grep, cached), as a whole
    name (``hub.com`` is not ``github.com``) and outside hindsight's own blocks (a memory or
    AGENTS.md block hindsight wrote is not the repository's word)."""
    import subprocess

    cache: dict[str, bool] = {}

    def known(host: str) -> bool:
        if host not in cache:
            try:
                done = subprocess.run(
                    ["git", "-C", root, "grep", "-n", "-I", "-i", "-E", _ere(host)],
                    capture_output=True,
                    text=True,
                    timeout=20,
                    check=False,
                )
                hits = done.stdout.splitlines() if done.returncode == 0 else []
                cache[host] = any(_outside_blocks(root, hit) for hit in hits)
            except (OSError, subprocess.SubprocessError):
                cache[host] = False
        return cache[host]

    return known


_START, _END = "<!-- hindsight:start -->", "<!-- hindsight:end -->"


def _outside_blocks(root: str, hit: str) -> bool:
    """Whether a ``path:line:text`` hit of git grep stands outside every hindsight block."""
    import os

    path, _, rest = hit.partition(":")
    number = int(rest.partition(":")[0] or 0)
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    inside = False
    for n, line in enumerate(lines, 1):
        if line.strip() == _START:
            inside = True
        if n == number:
            return not inside
        if line.strip() == _END:
            inside = False
    return False
