"""What the repository defines, looked into: a make target's recipe (and its prerequisites'), an
npm script's body with its pre- and post-hooks, the package's install scripts, a tracked shell
script; their commands are classified like the lesson's own. A file that is not tracked runs
code from a new place, however it is reached.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from hindsight.guard import actions
from hindsight.guard import capabilities as cap
from hindsight.guard.classify import PYTHON, Context, Opening, code, nonflags

_NPM_LIFECYCLE = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
                  "postprepare")  # fmt: skip
_NPM_ALIASES = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                "restart": "restart"}  # fmt: skip


def inside(label: str, lines: Iterable[str], ctx: Context) -> list[Opening]:
    """What the repository's own commands (a recipe, a script's body) open, one level down."""
    from hindsight.guard.classify import action_openings

    if ctx.depth <= 0:
        return []
    deeper = ctx._replace(depth=ctx.depth - 1)
    out: list[Opening] = []
    for line in lines:
        for action in actions.command(line, runs=True):
            for found in action_openings(action, deeper):
                out.append(found._replace(reason=f"{label} {found.reason}"))
    return out


def make(rest: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
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
            out += inside(f"runs {code('make ' + target)}, whose recipe", recipe, ctx)
    return out


def scripts(program: str, rest: list[str], action: actions.Action, ctx: Context) -> list[Opening]:
    plain = nonflags(rest)
    if not plain:
        return lifecycle(ctx) if program == "yarn" and not rest else []  # `yarn` installs
    name = plain[0]
    if name in ("run", "run-script") and len(plain) > 1:
        name = plain[1]
    elif program == "npm":
        name = _NPM_ALIASES.get(name, "")
    body = ctx.repo.script(name) if name else None
    if body is None:
        if program == "bun" and plain[0] == "run" and len(plain) > 1:
            return executes(plain[1], action, ctx)
        return []
    return inside(f"runs the script {code(name)}, which", body, ctx)


def lifecycle(ctx: Context) -> list[Opening]:
    scripts = ctx.repo.scripts()
    lines = [body for hook in _NPM_LIFECYCLE for body in scripts.get(hook, ())]
    return inside("installs, and the package's install script", lines, ctx)


def executes(file: str, action: actions.Action, ctx: Context) -> list[Opening]:
    if file.startswith(cap.SYSTEM_DIRS):
        return []
    for prefix, ecosystem in cap.ENV_BINS.items():
        if prefix in file:
            name = file.rsplit("/", 1)[-1]
            if (
                PYTHON().fullmatch(name)
                or name in ("pip", "pip3")
                or ctx.repo.declares(name, ecosystem)
            ):
                return []
    if not ctx.repo.tracked(file, action.cwd):
        return [Opening(cap.RUN_NEW_CODE, f"runs {code(file)}, which is not tracked", file)]
    return inside(f"runs {code(file)}, which", _script_lines(file, action, ctx), ctx)  # fmt: skip


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


def interprets(
    program: str, rest: list[str], action: actions.Action, ctx: Context
) -> list[Opening]:
    if program in ("sh", "bash", "zsh", "dash", "ksh") and "-c" in rest[:-1]:
        inner = rest[rest.index("-c") + 1]
        from hindsight.guard.classify import action_openings

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
    return executes(files[0], action, ctx)
