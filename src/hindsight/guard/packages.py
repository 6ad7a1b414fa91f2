"""Code and images fetched from elsewhere: installs, on-the-fly runners, downloads, images.

Each is cleared only by what the repository declares or configures: a package its manifests name
exactly, a host it configures (or the user typed), an image its Dockerfiles or compose files name.
"""

from __future__ import annotations

import os
import re

from hindsight.guard import capabilities as cap
from hindsight.guard.classify import Context, Opening, code, nonflags
from hindsight.guard.manifests import image_host, image_name, url_hosts


def _package(word: str, ecosystem: str) -> str:
    """The package name of an install argument: version, extras and markers dropped."""
    if ecosystem == "node":
        scoped = word.startswith("@")
        name = word[1:].partition("@")[0] if scoped else word.partition("@")[0]
        return "@" + name if scoped else name
    if ecosystem in ("go", "rust", "ruby", "php", "system"):
        return word.partition("@")[0].partition(":")[0]
    return re.split(r"[\[<>=!~;@ ]", word, maxsplit=1)[0]


def installs(key: tuple[str, ...], rest: list[str], ecosystem: str, ctx: Context) -> list[Opening]:
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
    if ecosystem == "node" and not nonflags(args):
        from hindsight.guard.defined import lifecycle

        out += lifecycle(ctx)  # the package's own install scripts run
    return out  # fmt: skip


def _own_project(target: str, ctx: Context) -> bool:
    """Whether an install target is a tracked folder of the repository with a tracked manifest."""
    folder = target.split("[", 1)[0].strip("'\"") or "."
    return any(
        ctx.repo.tracked(os.path.join(folder, m))
        for m in ("pyproject.toml", "setup.py", "setup.cfg", "package.json", "Cargo.toml")
    )


def fetches(rest: list[str], ecosystem: str, ctx: Context, program: str) -> list[Opening]:
    chosen = [
        rest[n + 1] for n, w in enumerate(rest[:-1]) if w in ("--package", "-p", "--from", "--spec")
    ] + [w.partition("=")[2] for w in rest if w.startswith(("--package=", "--from="))]
    plain = nonflags(rest)
    names = chosen or plain[:1]
    return [
        Opening(cap.RUN_NEW_CODE, f"runs {code(name)} through {code(program)}, which no manifest declares", name)
        for name in (_package(n, ecosystem) for n in names)
        if not ctx.repo.declares(name, ecosystem)
    ]  # fmt: skip


def withs(rest: list[str], ctx: Context) -> list[Opening]:
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


def downloads(text: str, ctx: Context) -> list[Opening]:
    known = ctx.repo.hosts() | ctx.typed_hosts
    found = url_hosts(text)
    if not found:
        return []  # a download names where from: `curl` alone is only a mention
    return [
        Opening(cap.RUN_NEW_CODE, f"downloads from {code(h)}, which the repository does not configure", h)
        for h in found
        if h not in known
    ]  # fmt: skip


def image(rest: list[str], ctx: Context) -> list[Opening]:
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
