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

from hindsight.detect import shell
from hindsight.guard import actions
from hindsight.guard import capabilities as cap
from hindsight.guard.repository import Repository, image_host, image_name, url_hosts


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
_PYTHON = functools.cache(lambda: re.compile(r"python[0-9.]*"))
_NPM_LIFECYCLE = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
                  "postprepare")  # fmt: skip
_NPM_ALIASES = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                "restart": "restart"}  # fmt: skip
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"), ("rye", "run"),
            ("bundle", "exec"), ("hatch", "run")}  # fmt: skip


def code(text: str) -> str:
    return "`" + text.replace("`", "'")[:80] + "`"


def _words(step: str) -> list[str]:
    """The step's words after its ``sudo``, ``env``, ``VAR=1`` prefixes; python3.11 is python
    and ``python -m pip`` is pip."""
    words = shell.split(step)
    while words and (words[0] in actions._PREFIX or actions._ASSIGNMENT().match(words[0])):
        words = words[2:] if words[0] == "env" and words[1:2] == ["-u"] else words[1:]
    while words and words[0].startswith("-") and len(words) > 1:
        words = words[1:]  # env -i, sudo -E: their own flags
    if words and _PYTHON().fullmatch(words[0].rsplit("/", 1)[-1]) and "/" not in words[0]:
        words = ["python", *words[1:]]
        if words[1:3] == ["-m", "pip"]:
            words = ["pip", *words[3:]]
    return words


def _nonflags(words: Iterable[str]) -> list[str]:
    return [w for w in words if not w.startswith("-")]


def _flag_matches(pattern: str, word: str) -> bool:
    if len(pattern) == 2 and pattern[0] == "-" and pattern[1].isalpha():
        return bool(re.fullmatch(r"-[A-Za-z]+", word)) and pattern[1] in word[1:]
    return fnmatch.fnmatchcase(word, pattern)


def _table(words: list[str]) -> list[Opening]:
    """The openings capabilities.COMMANDS lists for these words."""
    out: list[Opening] = []
    program, rest = words[0].rsplit("/", 1)[-1], words[1:]
    plain = _nonflags(rest)
    for rule in cap.COMMANDS:
        if rule.program not in ("*", program):
            continue
        if len(plain) < len(rule.words) or not all(
            fnmatch.fnmatchcase(w, p) for w, p in zip(plain, rule.words, strict=False)
        ):
            continue
        if rule.flags and not any(_flag_matches(f, w) for f in rule.flags for w in rest):
            continue
        out.append(Opening(rule.capability, f"{rule.why} ({code(' '.join(words))})"))
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
    if name in cap.WEAKENING_VARIABLES:
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
    named = {o.word for o in out}  # a download's host is said once, as the download
    out += [o for o in hosts(action.text, ctx) if o.word not in named]
    return list(dict.fromkeys(out))


def _specific(words: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    program, rest = words[0].rsplit("/", 1)[-1], words[1:]
    plain = _nonflags(rest)
    key = (program, *plain[:2])
    if program == "git":
        return _git_c(rest)
    if program in cap.DELETERS or (program in ("mv", "chmod") and _hooks(rest)):
        return _deletes(program, plain, action, ctx)
    for n in (3, 2, 1):
        if key[:n] in cap.INSTALLS:
            return _installs(key[:n], rest, cap.INSTALLS[key[:n]], ctx)
        if key[:n] in cap.FETCH_RUNNERS:
            return _fetches(rest[n - 1 :], cap.FETCH_RUNNERS[key[:n]], ctx, program)
    if key[:2] in _RUNNERS and len(plain) > 1:
        after = rest[rest.index(plain[1]) :]
        extra = [w for w in rest if w.split("=", 1)[0] in cap.WITH_FLAGS]
        out = _withs(rest, ctx) if extra else []
        return out + run(action._replace(text=" ".join(after)), ctx)
    if program in cap.DOWNLOADERS or key[:2] in cap.CLONES or key[:3] in cap.CLONES:
        return _downloads(action.text, ctx)
    if key[:2] in cap.IMAGE_RUNNERS:
        return _image(rest[1:], ctx)
    if program == "make" or program == "gmake":
        return _make(rest, action, ctx)
    if program in ("npm", "pnpm", "yarn", "bun"):
        return _scripts(program, rest, action, ctx)
    if "/" in words[0]:
        return _executes(words[0], action, ctx)
    if program in cap.INTERPRETERS:
        return _interprets(program, rest, action, ctx)
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
    return any(w.strip("./").startswith(cap.HOOK_PATHS) for w in words)


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


def _package(word: str, ecosystem: str) -> str:
    """The package name of an install argument: version, extras and markers dropped."""
    if ecosystem == "node":
        scoped = word.startswith("@")
        name = word[1:].partition("@")[0] if scoped else word.partition("@")[0]
        return "@" + name if scoped else name
    if ecosystem in ("go", "rust", "ruby", "php", "system"):
        return word.partition("@")[0].partition(":")[0]
    return re.split(r"[\[<>=!~;@ ]", word, maxsplit=1)[0]


def _installs(key: tuple[str, ...], rest: list[str], ecosystem: str, ctx: Context) -> list[Opening]:
    out: list[Opening] = []
    args = rest[len(key) - 1 :]
    skip = False
    for n, word in enumerate(args):
        if skip:
            skip = False
            continue
        if word in cap.EDITABLE or word.startswith("--editable="):
            target = word.partition("=")[2] or (args[n + 1] if n + 1 < len(args) else "")
            if not _own_project(target, ctx):
                out.append(
                    Opening(
                        cap.RUN_NEW_CODE, f"makes an editable install of {code(target)}", target
                    )
                )
            skip = not word.partition("=")[2]
            continue
        if word in ("-r", "--requirement", "-c", "--constraint") and n + 1 < len(args):
            if not ctx.repo.tracked(args[n + 1]):
                out.append(
                    Opening(
                        cap.RUN_NEW_CODE,
                        f"installs from {code(args[n + 1])}, which is not tracked",
                        args[n + 1],
                    )
                )
            skip = True
            continue
        if word in cap.VALUE_FLAGS:
            skip = True
            continue
        if word.startswith("-"):
            continue
        if word.startswith(cap.VCS) or "://" in word or word.startswith("git@"):
            out.append(
                Opening(
                    cap.RUN_NEW_CODE,
                    f"installs {code(word)} straight from a repository or URL",
                    word,
                )
            )
        elif word in (".", "./") or word.startswith(("./", "../", "/")):
            if not _own_project(word, ctx):
                out.append(
                    Opening(
                        cap.RUN_NEW_CODE,
                        f"installs {code(word)}, which is not the repository's tracked project",
                        word,
                    )
                )
        else:
            name = _package(word, ecosystem)
            if not ctx.repo.declares(name, ecosystem):
                out.append(
                    Opening(
                        cap.RUN_NEW_CODE, f"installs {code(name)}, which no manifest declares", name
                    )
                )
    if ecosystem == "node" and not _nonflags(args):
        out += _lifecycle(ctx)  # the package's own install scripts run
    return out  # fmt: skip


def _own_project(target: str, ctx: Context) -> bool:
    """Whether an install target is a tracked folder of the repository with a tracked manifest."""
    folder = target.split("[", 1)[0].strip("'\"") or "."
    return any(
        ctx.repo.tracked(os.path.join(folder, m))
        for m in ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "Cargo.toml")
    )


def _fetches(rest: list[str], ecosystem: str, ctx: Context, program: str) -> list[Opening]:
    chosen = [
        rest[n + 1] for n, w in enumerate(rest[:-1]) if w in ("--package", "-p", "--from", "--spec")
    ] + [w.partition("=")[2] for w in rest if w.startswith(("--package=", "--from="))]
    plain = _nonflags(rest)
    names = chosen or plain[:1]
    return [
        Opening(cap.RUN_NEW_CODE, f"runs {code(name)} through {code(program)}, which no manifest declares", name)
        for name in (_package(n, ecosystem) for n in names)
        if not ctx.repo.declares(name, ecosystem)
    ]  # fmt: skip


def _withs(rest: list[str], ctx: Context) -> list[Opening]:
    out: list[Opening] = []
    for n, word in enumerate(rest):
        flag, _, value = word.partition("=")
        if flag in cap.WITH_FLAGS:
            value = value or (rest[n + 1] if n + 1 < len(rest) else "")
            for name in value.split(","):
                if not ctx.repo.declares(_package(name, "python"), "python"):
                    out.append(
                        Opening(
                            cap.RUN_NEW_CODE,
                            f"installs {code(name)} for the call, which no manifest declares",
                            name,
                        )
                    )
    return out  # fmt: skip


def _downloads(text: str, ctx: Context) -> list[Opening]:
    known = ctx.repo.hosts() | ctx.typed_hosts
    found = url_hosts(text)
    if not found:
        return []  # a download names where from: `curl` alone is only a mention
    return [
        Opening(cap.RUN_NEW_CODE, f"downloads from {code(h)}, which the repository does not configure", h)
        for h in found
        if h not in known
    ]  # fmt: skip


def _image(rest: list[str], ctx: Context) -> list[Opening]:
    skip = False
    for word in rest:
        if skip or word.startswith("-"):
            skip = not skip and word in cap.IMAGE_VALUE_FLAGS
            continue
        host = image_host(word)
        if image_name(word) in ctx.repo.images() and (host is None or host in ctx.repo.hosts()):
            return []
        return [
            Opening(
                cap.NEW_HOST,
                f"uses the image {code(word)}, which the repository does not name",
                word,
            )
        ]
    return []


def _inside(label: str, lines: Iterable[str], ctx: Context) -> list[Opening]:
    """What the repository's own commands (a recipe, a script's body) open, one level down."""
    if ctx.depth <= 0:
        return []
    deeper = ctx._replace(depth=ctx.depth - 1)
    out: list[Opening] = []
    for line in lines:
        for action in actions.command(line, runs=True):
            for found in action_openings(action, deeper):
                out.append(found._replace(reason=f"{label} {found.reason}"))
    return out


def action_openings(action: actions.Action, ctx: Context) -> list[Opening]:
    if action.kind == actions.RUN:
        return run(action, ctx)
    if action.kind == actions.SET:
        return assignment(action.text, ctx)
    if action.kind == actions.READ:
        return path(action.text, action.cwd, ctx)
    return []


def _make(rest: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    folder, files, targets = action.cwd, [], []
    for n, word in enumerate(rest):
        previous = rest[n - 1] if n else ""
        if previous in ("-C", "--directory"):
            folder = os.path.join(folder or "", word)
        elif previous in ("-f", "--file", "--makefile"):
            files.append(os.path.join(folder or "", word))
        elif not word.startswith("-") and "=" not in word:
            targets.append(word)
    if not files:
        here = [os.path.join(folder or "", m) for m in ("GNUmakefile", "makefile", "Makefile")]
        bases = [folder] if folder and os.path.isabs(folder) else [str(r) for r in ctx.repo.roots]
        existing = [p for p in here if any(os.path.isfile(os.path.join(b, p)) for b in bases)]
        files = existing[:1]
    for name in files:
        if not ctx.repo.tracked(name):
            return [Opening(cap.RUN_NEW_CODE, f"runs {code(name)}, which is not tracked", name)]
    out: list[Opening] = []
    for target in targets or [next(iter(ctx.repo.targets()), "")]:
        recipe = ctx.repo.recipe(target)
        if recipe is not None:
            out += _inside(f"runs {code('make ' + target)}, whose recipe", recipe, ctx)
    return out


def _scripts(program: str, rest: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    plain = _nonflags(rest)
    if not plain:
        return _lifecycle(ctx) if program == "yarn" and not rest else []  # `yarn` installs
    name = plain[0]
    if name in ("run", "run-script") and len(plain) > 1:
        name = plain[1]
    elif program == "npm":
        name = _NPM_ALIASES.get(name, "")
    body = ctx.repo.script(name) if name else None
    if body is None:
        if program == "bun" and plain[0] == "run" and len(plain) > 1:
            return _executes(plain[1], action, ctx)
        return []
    return _inside(f"runs the script {code(name)}, which", body, ctx)


def _lifecycle(ctx: Context) -> list[Opening]:
    scripts = ctx.repo.scripts()
    lines = [body for hook in _NPM_LIFECYCLE for body in scripts.get(hook, ())]
    return _inside("installs, and the package's install script", lines, ctx)


def _executes(file: str, action: actions.Action, ctx: Context) -> list[Opening]:
    if file.startswith(cap.SYSTEM_DIRS):
        return []
    for prefix, ecosystem in cap.ENV_BINS.items():
        if prefix in file:
            name = file.rsplit("/", 1)[-1]
            if (
                _PYTHON().fullmatch(name)
                or name in ("pip", "pip3")
                or ctx.repo.declares(name, ecosystem)
            ):
                return []
    if not ctx.repo.tracked(file, action.cwd):
        return [Opening(cap.RUN_NEW_CODE, f"runs {code(file)}, which is not tracked", file)]
    return _inside(f"runs {code(file)}, which", _script_lines(file, action, ctx), ctx)  # fmt: skip


def _script_lines(file: str, action: actions.Action, ctx: Context) -> list[str]:
    """The commands of a tracked shell script (other languages are not read as commands)."""
    for root in ctx.repo.roots:
        full = os.path.join(action.cwd or str(root), os.path.expanduser(file))
        try:
            with open(full, encoding="utf-8", errors="replace") as handle:
                text = handle.read(200_000)
        except OSError:
            continue
        first = text.split("\n", 1)[0]
        if file.endswith((".sh", ".bash", ".zsh")) or re.match(r"#!.*\b(?:ba|z|da)?sh\b", first):
            return [
                ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
            ]
        return []
    return []


def _interprets(
    program: str, rest: list[str], action: actions.Action, ctx: Context
) -> list[Opening]:
    if program in ("sh", "bash", "zsh", "dash", "ksh") and "-c" in rest[:-1]:
        inner = rest[rest.index("-c") + 1]
        found = [o for a in actions.command(inner, runs=True) for o in action_openings(a, ctx)]
        return found
    if any(flag in rest for flag in cap.INLINE_FLAGS) and program not in ("source", "."):
        return [Opening(cap.RUN_NEW_CODE, f"runs code written inline ({code(action.text)})")]
    if program == "python" and "-m" in rest:
        return []  # a module: the installed packages', which installing is checked for
    files = [w for w in rest if not w.startswith("-")]
    if not files or files[0] == "-":
        if action.stdin or files[:1] == ["-"]:
            return [Opening(cap.RUN_NEW_CODE, f"pipes code into {code(program)}")]
        return []
    if program in ("deno", "bun") and files[0] == "run":
        files = files[1:] or ["?"]
    return _executes(files[0], action, ctx)
