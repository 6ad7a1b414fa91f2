"""What the repository already defines: the ground a lesson's actions are checked against.

Only what git tracks counts. A file that merely exists on disk (untracked, gitignored, vendored,
written by the session that is being read) is exactly what an attacker can put there, so it
defines nothing: not a file, not a target, not a dependency, not a host. Every answer is read
lazily, once, on first use: most lessons never ask about most of these.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from hindsight.guard.manifests import (
    _configures_hosts,
    _is_manifest,
    _pyproject_dependencies,
    _pyproject_hosts,
    _requirements,
    _table,
    _toml,
    image_host,
    image_name,
    url_hosts,
)

MAX_MANIFEST = 1_000_000  # characters read of any one Makefile or manifest
MAX_DEFINING = 200  # Makefiles and manifests read, all roots together

# Ecosystems: an npm package and a PyPI package of the same name are two different programs,
# so a name is declared for the installer's ecosystem only.
PYTHON, NODE, RUST, GO, RUBY, PHP, SYSTEM = "python", "node", "rust", "go", "ruby", "php", "system"

_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")  # the order GNU make looks for them
_TARGET = functools.cache(lambda: re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?![=])(.*)$"))
_ASSIGN = functools.cache(
    lambda: re.compile(r"^\s*(?:export\s+|override\s+)?([\w.-]+)\s*[:+?!]?=\s*(.*)$")
)
_MAKEVAR = functools.cache(lambda: re.compile(r"\$[({]([\w.-]+)[)}]"))
_INCLUDE = functools.cache(lambda: re.compile(r"^\s*(?:-|s)?include\s+(.+)$"))
_NPM_REGISTRY = functools.cache(lambda: re.compile(r"^\s*(?:@[\w.-]+:)?registry\s*=\s*(\S+)", re.M))
_PIP_INDEX = functools.cache(
    lambda: re.compile(
        r"^\s*(?:extra-)?index-url\s*[=:]\s*(.+)$|^\s*trusted-host\s*[=:]\s*(\S+)", re.M
    )
)
_FROM = functools.cache(lambda: re.compile(r"^\s*FROM\s+(?:--\S+\s+)*(\S+)", re.M | re.I))
_IMAGE = functools.cache(lambda: re.compile(r"^\s*image:\s*['\"]?([^\s'\"#]+)", re.M))
_GEM = functools.cache(lambda: re.compile(r"""^\s*gem\s+['"]([^'"]+)['"]""", re.M))
_BREW = functools.cache(lambda: re.compile(r"""^\s*(?:brew|cask)\s+['"]([^'"]+)['"]""", re.M))
_GO_REQUIRE = functools.cache(
    lambda: re.compile(r"^\s*(?:require\s+)?([\w.-]+\.[\w./-]+)\s+v\S+", re.M)
)


class Repository:
    """The repository's main checkout and its worktrees, as git tracks them."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = tuple(Path(os.path.realpath(r)) for r in roots)

    @classmethod
    def load(cls, roots: Sequence[Path]) -> Repository:
        """Nothing is read yet; a folder that is not a git checkout defines nothing."""
        return cls(roots)

    # git ----------------------------------------------------------------------------------

    def _git(self, root: Path, *args: str) -> str:
        try:
            done = subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, timeout=20, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.decode(errors="replace") if done.returncode == 0 else ""

    @functools.cached_property
    def _listed(self) -> dict[Path, frozenset[str]]:
        """Each root's tracked paths, relative to it: one ``git ls-files -z`` a root."""
        out: dict[Path, frozenset[str]] = {}
        for root in self.roots:
            shown = self._git(root, "rev-parse", "--show-toplevel").strip()
            if not shown:
                continue  # not a checkout: defines nothing
            top = Path(os.path.realpath(shown))
            names = frozenset(n for n in self._git(top, "ls-files", "-z").split("\0") if n)
            out[top] = names
        return out

    def files(self) -> frozenset[str]:
        """Every tracked path, relative to its root, all roots together."""
        return frozenset().union(*self._listed.values())

    def _resolve(self, path: str, cwd: str | None) -> Iterator[tuple[Path, str]]:
        """(root, path relative to it) for each root ``path`` may name, links followed: a tracked
        link to a file outside is not a tracked file."""
        expanded = os.path.expanduser(path.strip("'\""))
        bases = [Path(cwd)] if cwd and not os.path.isabs(expanded) else list(self._listed)
        for base in bases:
            full = Path(os.path.realpath(os.path.join(base, expanded)))
            for root in self._listed:
                if full == root or root in full.parents:
                    yield root, full.relative_to(root).as_posix()

    def tracked(self, path: str, cwd: str | None = None) -> bool:
        """Whether ``path`` (relative to ``cwd`` or a root) is a file git tracks."""
        return any(rel in self._listed[root] for root, rel in self._resolve(path, cwd))

    def tracked_folder(self, path: str, cwd: str | None = None) -> bool:
        """Whether ``path`` is a folder holding tracked files (``src``, ``.``)."""
        for root, rel in self._resolve(path, cwd):
            prefix = "" if rel == "." else rel.rstrip("/") + "/"
            if any(name.startswith(prefix) for name in self._listed[root]):
                return True
        return False

    def _tracked_named(self, test: Callable[[str], bool]) -> list[Path]:
        found = [
            root / name
            for root, names in self._listed.items()
            for name in sorted(names)
            if test(name.rsplit("/", 1)[-1])
        ]
        return found[:MAX_DEFINING]

    def _read(self, path: Path) -> str:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                return handle.read(MAX_MANIFEST)
        except OSError:
            return ""

    # Makefiles ----------------------------------------------------------------------------

    @functools.cached_property
    def _make(self) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
        """(target -> recipe lines, target -> prerequisites) of every tracked Makefile and the
        tracked files they include, one level; variables set in them expanded in recipes, so a
        ``$(FETCH)`` cannot hide a ``curl``."""
        recipes: dict[str, list[str]] = {}
        needs: dict[str, list[str]] = {}
        texts: dict[Path, str] = {}  # each file once, read directly or included
        for path in self._tracked_named(lambda n: n in _MAKEFILES or n.endswith(".mk")):
            texts.setdefault(path, self._read(path))
            for line in texts[path].splitlines():
                hit = _INCLUDE().match(line)
                for name in hit.group(1).split() if hit else ():
                    included = Path(os.path.normpath(path.parent / name))
                    if "$" not in name and self.tracked(str(included)):
                        texts.setdefault(included, self._read(included))
        variables: dict[str, str] = {}
        for text in texts.values():
            for line in text.replace("\\\n", " ").splitlines():
                hit = _ASSIGN().match(line) if not line.startswith("\t") else None
                if hit:
                    variables[hit.group(1)] = hit.group(2).strip()
        for text in texts.values():
            current: list[str] = []
            for line in text.replace("\\\n", " ").splitlines():
                if line.startswith("\t"):
                    for target in current:
                        recipes.setdefault(target, []).append(_expand(line.strip(), variables))
                    continue
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                hit = _TARGET().match(line)
                if hit is None or _ASSIGN().match(line):
                    current = []
                    continue
                current = [t for t in hit.group(1).split() if "%" not in t and "$" not in t]
                rest, _, inline = hit.group(2).partition(";")
                for target in current:
                    recipes.setdefault(target, [])
                    needs.setdefault(target, []).extend(rest.split())
                    if inline.strip():
                        recipes[target].append(_expand(inline.strip(), variables))
        return (
            {t: tuple(r) for t, r in recipes.items() if not t.startswith(".")},
            {t: tuple(n) for t, n in needs.items()},
        )

    def targets(self) -> Mapping[str, tuple[str, ...]]:
        """Every Makefile target with its recipe lines (all definitions of a name together)."""
        return self._make[0]

    def recipe(self, target: str) -> tuple[str, ...] | None:
        """What ``make target`` runs: its recipe and its prerequisites' (make runs those first),
        recipe prefixes (``@``, ``-``, ``+``) dropped; None when no tracked Makefile defines it."""
        recipes, needs = self._make
        if target not in recipes:
            return None
        out: list[str] = []
        seen: set[str] = set()
        todo = [target]
        while todo:
            name = todo.pop(0)
            if name in seen or name not in recipes:
                continue
            seen.add(name)
            todo.extend(needs.get(name, ()))
            out.extend(line.lstrip("@-+ ") for line in recipes[name])
        return tuple(out)

    # package.json -------------------------------------------------------------------------

    @functools.cached_property
    def _packages(self) -> list[dict[str, Any]]:
        out = []
        for path in self._tracked_named(lambda n: n == "package.json"):
            try:
                data = json.loads(self._read(path))
            except ValueError:
                continue
            if isinstance(data, dict):
                out.append(data)
        return out

    def scripts(self) -> Mapping[str, tuple[str, ...]]:
        """Every package.json script with its bodies (one per package.json defining it)."""
        found: dict[str, list[str]] = {}
        for data in self._packages:
            for name, body in _table(data, "scripts").items():
                if isinstance(body, str):
                    found.setdefault(str(name), []).append(body)
        return {name: tuple(bodies) for name, bodies in found.items()}

    def script(self, name: str) -> tuple[str, ...] | None:
        """What ``npm run name`` runs: ``prename``, ``name``, ``postname``, in order; None when
        no package.json defines it."""
        scripts = self.scripts()
        if name not in scripts:
            return None
        return (*scripts.get("pre" + name, ()), *scripts[name], *scripts.get("post" + name, ()))

    # dependencies -------------------------------------------------------------------------

    @functools.cached_property
    def _dependencies(self) -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {e: set() for e in (PYTHON, NODE, RUST, GO, RUBY, PHP, SYSTEM)}
        for data in self._packages:
            for key in (
                "dependencies",
                "devDependencies",
                "peerDependencies",
                "optionalDependencies",
            ):
                found[NODE].update(str(k) for k in _table(data, key))
        for path in self._tracked_named(_is_manifest):
            name, text = path.name, self._read(path)
            if name == "pyproject.toml":
                found[PYTHON].update(_pyproject_dependencies(_toml(text)))
            elif name.startswith("requirements") and name.endswith((".txt", ".in")):
                lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
                found[PYTHON].update(_requirements([ln for ln in lines if not ln.startswith("-")]))
            elif name == "Cargo.toml":
                data = _toml(text)
                for key in ("dependencies", "dev-dependencies", "build-dependencies"):
                    found[RUST].update(_table(data, key))
                    found[RUST].update(_table(data, "workspace", key))
            elif name == "go.mod":
                found[GO].update(h.group(1) for h in _GO_REQUIRE().finditer(text))
            elif name == "Gemfile":
                found[RUBY].update(h.group(1) for h in _GEM().finditer(text))
            elif name == "composer.json":
                try:
                    data = json.loads(text)
                except ValueError:
                    continue
                for key in ("require", "require-dev"):
                    found[PHP].update(str(k) for k in _table(data, key))
            elif name == "Brewfile":
                found[SYSTEM].update(h.group(1) for h in _BREW().finditer(text))
        return {eco: frozenset(names) for eco, names in found.items()}

    def dependencies(self, ecosystem: str) -> frozenset[str]:
        """The exact names the manifests of one ecosystem declare."""
        return self._dependencies.get(ecosystem, frozenset())

    def declares(self, name: str, ecosystem: str) -> bool:
        """Whether a manifest declares exactly ``name`` (PyPI and Composer names compared without
        case, which those registries ignore; ``-`` and ``_`` never folded: a name that differs by
        one is another package as far as memory knows). A Go package is declared by its module."""
        names = self.dependencies(ecosystem)
        if ecosystem in (PYTHON, PHP):
            return name.casefold() in {n.casefold() for n in names}
        if ecosystem == GO:
            return any(name == m or name.startswith(m + "/") for m in names)
        return name in names

    # hosts --------------------------------------------------------------------------------

    @functools.cached_property
    def _hosts(self) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """(hosts, remote names, image names) the repository configures."""
        found: set[str] = set()
        remotes: set[str] = set()
        images: set[str] = set()
        for root in self._listed:
            for line in self._git(root, "remote", "-v").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    remotes.add(parts[0])
                    found.update(url_hosts(parts[1]))
        for path in self._tracked_named(_configures_hosts):
            text, name = self._read(path), path.name
            if name == ".npmrc":
                for hit in _NPM_REGISTRY().finditer(text):
                    found.update(url_hosts(hit.group(1)))
            elif name in ("pip.conf", "pip.ini"):
                for hit in _PIP_INDEX().finditer(text):
                    found.update(url_hosts(hit.group(1) or hit.group(2) or ""))
                    if hit.group(2):
                        found.add(hit.group(2).casefold())
            elif name == "pyproject.toml":
                found.update(_pyproject_hosts(_toml(text)))
            else:  # Dockerfiles and compose files: the images they name, and their registries
                refs = [h.group(1) for h in (*_FROM().finditer(text), *_IMAGE().finditer(text))]
                for ref in refs:
                    if "$" in ref:
                        continue
                    images.add(image_name(ref))
                    host = image_host(ref)
                    if host:
                        found.add(host)
        return frozenset(found), frozenset(remotes), frozenset(images)

    def hosts(self) -> frozenset[str]:
        """The hosts of git remotes, registries (.npmrc, pip config, pyproject/uv/poetry indexes)
        and image registries of tracked Dockerfiles and compose files."""
        return self._hosts[0]

    def remotes(self) -> frozenset[str]:
        return self._hosts[1]

    def images(self) -> frozenset[str]:
        """The images tracked Dockerfiles and compose files name (``image_name`` form)."""
        return self._hosts[2]


def _expand(line: str, variables: Mapping[str, str]) -> str:
    for _ in range(4):  # variables naming variables, a few levels; a loop stops here
        new = _MAKEVAR().sub(lambda m: variables.get(m.group(1), m.group(0)), line)
        if new == line:
            break
        line = new
    return line
