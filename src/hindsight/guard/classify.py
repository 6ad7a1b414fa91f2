"""The small engine that applies ``capabilities`` to one action, against the repository.

Each function returns the capabilities an action opens (``Opening``), each with its reason in
plain words; an empty list means the action stays inside what the repository defines. What the
repository defines and the lesson runs (a make target, an npm script, a tracked shell script) is
classified like the lesson's own commands, down to ``Context.depth`` levels.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import re
from collections.abc import Iterable
from typing import NamedTuple

from hindsight.guard import actions
from hindsight.guard import capabilities as cap
from hindsight.guard.manifests import url_hosts
from hindsight.guard.repository import Repository


class Opening(NamedTuple):
    capability: str  # one of capabilities.NAMES
    reason: str  # plain words: "installs `fastjsonx`, which no manifest declares"
    word: str = ""  # the name the reason turns on, for where it first appeared


class Context(NamedTuple):
    repo: Repository
    typed_hosts: frozenset[str]  # hosts the user typed: theirs
    depth: int  # how many levels of targets, scripts and script files are looked into


_CREDENTIAL_PATH = functools.cache(lambda: re.compile(cap.CREDENTIAL_PATH, re.I))
_CREDENTIAL_VARIABLE = functools.cache(lambda: re.compile(cap.CREDENTIAL_VARIABLE))
PYTHON = functools.cache(lambda: re.compile(r"python[0-9.]*"))
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("rye", "run"),
            ("bundle", "exec"), ("hatch", "run")}  # fmt: skip


def code(text: str) -> str:
    return "`" + text.replace("`", "'")[:80] + "`"


def _words(step: str) -> list[str]:
    """The step's words after its ``sudo``, ``env``, ``VAR=1`` prefixes; python3.11 is python
    and ``python -m pip`` is pip."""
    from hindsight.detect import shell  # the detectors' word splitting; loaded on first use

    words = shell.split(step)
    while words and (words[0] in actions._PREFIX or actions._ASSIGNMENT().match(words[0])):
        words = words[2:] if words[0] == "env" and words[1:2] == ["-u"] else words[1:]
    while words and words[0].startswith("-") and len(words) > 1:
        words = words[1:]  # env -i, sudo -E: their own flags
    if words and PYTHON().fullmatch(words[0].rsplit("/", 1)[-1]) and "/" not in words[0]:
        words = ["python", *words[1:]]
        if words[1:3] == ["-m", "pip"]:
            words = ["pip", *words[3:]]
    return words


def nonflags(words: Iterable[str]) -> list[str]:
    return [w for w in words if not w.startswith("-")]


def _flag_matches(pattern: str, word: str) -> bool:
    if len(pattern) == 2 and pattern[0] == "-" and pattern[1].isalpha():
        return bool(re.fullmatch(r"-[A-Za-z]+", word)) and pattern[1] in word[1:]
    return fnmatch.fnmatchcase(word, pattern)


def weakening_name(words: list[str]) -> bool:
    """A name whose words turn something off and name a check (capabilities.WEAKENING_WORDS,
    CHECK_WORDS): SKIP_SIGNING, DISABLE_ESLINT_PLUGIN, --no-audit, --skip-tests."""
    folded = {w.casefold() for w in words if w}
    return bool(folded & cap.WEAKENING_WORDS and folded & cap.CHECK_WORDS)


def _table(words: list[str]) -> list[Opening]:
    """The openings capabilities.COMMANDS lists for these words."""
    out: list[Opening] = []
    program, rest = words[0].rsplit("/", 1)[-1], words[1:]
    plain = nonflags(rest)
    for rule in cap.COMMANDS:
        if rule.program not in ("*", program):
            continue
        if len(plain) < len(rule.words) or not all(
            fnmatch.fnmatchcase(w, p) for w, p in zip(plain, rule.words, strict=False)
        ):
            continue
        if rule.flags and not any(_flag_matches(f, w) for f in rule.flags for w in rest):
            continue
        if rule.capability == cap.DESTROY_PUBLISH and any(
            fnmatch.fnmatchcase(w, f) for f in cap.REHEARSALS for w in rest
        ):
            continue
        out.append(Opening(rule.capability, f"{rule.why} ({code(' '.join(words))})"))
    if not any(o.capability == cap.WEAKEN_CHECK for o in out):
        for word in rest:
            flag = word.split("=", 1)[0]
            if flag.startswith("--") and weakening_name(re.split(r"[-_]", flag[2:])):
                out.append(
                    Opening(cap.WEAKEN_CHECK, f"turns a check off ({code(' '.join(words))})")
                )
                break
    return out


def hosts(text: str, ctx: Context) -> list[Opening]:
    """new-host: every host, URL, IP or scp-style remote the repository does not configure and
    the user did not type (loopback included: a local server is somewhere else too)."""
    known = ctx.repo.hosts() | ctx.typed_hosts
    return [
        Opening(cap.NEW_HOST, f"reaches {code(h)}, which the repository does not configure", h)
        for h in url_hosts(text)
        if h not in known
    ]


def path(word: str, cwd: str | None, ctx: Context, verb: str = "reads") -> list[Opening]:
    """credentials: a path to keys, tokens or env files (a tracked env template clears)."""
    word = word.strip("'\"").lstrip("<>").rstrip(",;")
    if not word or not _CREDENTIAL_PATH().search(word):
        return []
    name = word.rsplit("/", 1)[-1]
    if name in cap.CLEARED_WHEN_TRACKED and ctx.repo.tracked(word, cwd):
        return []
    return [Opening(cap.CREDENTIALS, f"{verb} {code(word)}, which holds credentials", word)]


def assignment(text: str, ctx: Context) -> list[Opening]:
    """A variable set for the agent: code-loading, check-weakening or credential kinds."""
    name, _, value = text.partition("=")
    said = code(text)
    out = hosts(value, ctx) + path(value, None, ctx, "points at")
    kind = cap.CODE_VARIABLES.get(name)
    if name in cap.WEAKENING_VARIABLES or weakening_name(name.split("_")):
        out.append(Opening(cap.WEAKEN_CHECK, f"sets {said}, which turns a check off or down"))
    elif kind == "module-path":
        entries = [e for e in value.split(":") if e]
        if not all(e in cap.PATH_ENTRIES_OK or ctx.repo.tracked_folder(e) for e in entries):
            out.append(
                Opening(
                    cap.RUN_NEW_CODE,
                    f"sets {said}, which loads code from outside the repository's tracked folders",
                )
            )
    elif kind or name.startswith(cap.CODE_VARIABLE_PREFIXES):
        out.append(
            Opening(
                cap.RUN_NEW_CODE,
                f"sets {said}, which makes programs load other code or configuration",
            )
        )
    elif name in cap.CREDENTIAL_VARIABLES or _CREDENTIAL_VARIABLE().search(name):
        out.append(
            Opening(cap.CREDENTIALS, f"sets {code(name)}, which holds or picks a credential")
        )
    return out  # fmt: skip


def run(action: actions.Action, ctx: Context) -> list[Opening]:
    """Everything one step of a command opens."""
    words = _words(action.text)
    if not words:
        return []
    out = _table(words) + _specific(words, action, ctx)
    for word in words[1:]:
        out += path(word.partition("=")[2] or word, action.cwd, ctx, "uses")
    if any(marker in action.text.casefold() for marker in cap.CI_SKIP_MARKERS):
        out.append(Opening(cap.WEAKEN_CHECK, f"tells CI not to run ({code(action.text)})"))
    return list(dict.fromkeys(out + hosts(_host_text(words), ctx)))


def _host_text(words: list[str]) -> str:
    """The step's words that may name a host: not git configuration keys (``user.email``
    reads as a host name, its last label a top-level domain)."""
    if words[0] != "git":
        return " ".join(words)
    kept: list[str] = []
    for n, word in enumerate(words):
        if n and words[n - 1] == "-c":
            kept.append(word.partition("=")[2])  # the value may name a host; the key does not
        elif n and words[n - 1] == "config" and not word.startswith("-"):
            continue
        else:
            kept.append(word)
    return " ".join(kept)


def _specific(words: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    from hindsight.guard import defined, packages  # they build on this module's values

    program, rest = words[0].rsplit("/", 1)[-1], words[1:]
    plain = nonflags(rest)
    key = (program, *plain[:2])
    if program == "git":
        return _git_c(rest)
    if program in cap.DELETERS or (program in ("mv", "chmod") and _hooks(rest)):
        return _deletes(program, plain, action, ctx)
    for n in (3, 2, 1):
        if key[:n] in cap.INSTALLS:
            return packages.installs(key[:n], rest, cap.INSTALLS[key[:n]], ctx)
        if key[:n] in cap.FETCH_RUNNERS:
            return packages.fetches(rest[n - 1 :], cap.FETCH_RUNNERS[key[:n]], ctx, program)
    if key[:2] in _RUNNERS and len(plain) > 1:
        after = rest[rest.index(plain[1]) :]
        extra = [w for w in rest if w.split("=", 1)[0] in cap.WITH_FLAGS]
        out = packages.withs(rest, ctx) if extra else []
        return out + run(action._replace(text=" ".join(after)), ctx)
    if program in cap.DOWNLOADERS or key[:2] in cap.CLONES or key[:3] in cap.CLONES:
        return packages.downloads(action.text, ctx)
    if key[:2] in cap.IMAGE_RUNNERS:
        return packages.image(rest[1:], ctx)
    if program == "make" or program == "gmake":
        return defined.make(rest, action, ctx)
    if program in ("npm", "pnpm", "yarn", "bun"):
        return defined.scripts(program, rest, action, ctx)
    if "/" in words[0]:
        return defined.executes(words[0], action, ctx)
    if program in cap.INTERPRETERS:
        return defined.interprets(program, rest, action, ctx)
    return []


def _git_c(rest: list[str]) -> list[Opening]:
    out: list[Opening] = []
    for flag, value in itertools.pairwise(rest):
        if flag != "-c":
            continue
        setting = value.casefold()
        if setting.startswith(cap.GIT_WEAKENING_KEYS):
            out.append(
                Opening(
                    cap.WEAKEN_CHECK, f"turns a check off for one call ({code('git -c ' + value)})"
                )
            )
        elif not setting.startswith(cap.GIT_HARMLESS_KEYS):
            out.append(
                Opening(
                    cap.RUN_NEW_CODE,
                    f"changes git's configuration for one call ({code('git -c ' + value)})",
                )
            )
    return out  # fmt: skip


def _hooks(words: list[str]) -> bool:
    return any(w.removeprefix("./").startswith(cap.HOOK_PATHS) for w in words)


def _deletes(program: str, plain: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    if _hooks(plain):
        return [Opening(cap.WEAKEN_CHECK, f"disables the repository's hooks ({code(action.text)})")]
    if program not in cap.DELETERS:
        return []
    for target in plain or ["?"]:
        norm = os.path.normpath(os.path.join(action.cwd or "", os.path.expanduser(target)))
        parts = norm.split("/")
        output = (
            not norm.startswith(("/", ".."))
            and any(p in cap.BUILD_OUTPUT or p.endswith(".egg-info") for p in parts)
            and not ctx.repo.tracked(norm)
            and not ctx.repo.tracked_folder(norm)
        )
        if not output:
            return [
                Opening(
                    cap.DESTROY_PUBLISH,
                    f"deletes {code(target)}, which is not build output",
                    target,
                )
            ]
    return []


def action_openings(action: actions.Action, ctx: Context) -> list[Opening]:
    if action.kind == actions.RUN:
        return run(action, ctx)
    if action.kind == actions.SET:
        return assignment(action.text, ctx)
    if action.kind == actions.READ:
        return path(action.text, action.cwd, ctx)
    return []
