"""Reading manifests and host spellings for ``repository``: TOML tables, Python requirement
names, image references, and the hosts of URLs, IPs and scp-style remotes."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from hindsight import hosts as host_text

_SCP = functools.cache(lambda: re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)"))


def _toml(text: str) -> dict[str, Any]:
    from hindsight.config import _tomllib

    toml = _tomllib()
    try:
        data = toml.loads(text)
    except (toml.TOMLDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _table(data: object, *keys: str) -> dict[str, Any]:
    """``data[k1][k2]...`` when every step is a table, else {}."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def image_name(ref: str) -> str:
    """An image reference without its tag or digest, Docker Hub's implied prefixes dropped:
    ``docker.io/library/python:3.12`` and ``python`` are one image."""
    name = ref.partition("@")[0]
    head, _, tail = name.rpartition("/")
    if ":" in tail:
        tail = tail.partition(":")[0]
    name = f"{head}/{tail}" if head else tail
    for prefix in ("docker.io/library/", "docker.io/", "index.docker.io/library/", "library/"):
        if name.startswith(prefix):
            return name[len(prefix) :].casefold()
    return name.casefold()


def image_host(ref: str) -> str | None:
    """The registry an image reference names (``ghcr.io``, ``localhost:5000``), or None for
    Docker Hub's implied one: the first part names a host when it has a dot, a port or is
    localhost, as Docker reads it."""
    first, slash, _ = ref.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        return first.partition(":")[0].casefold() if first != "localhost" else "localhost"
    return None


def url_hosts(text: str) -> list[str]:
    """The hosts of URLs, ``//host``, IPs and scp-style remotes (``git@host:org/repo``, which
    no URL pattern reads) in ``text``."""
    found = list(host_text.find(text))
    for word in text.split():
        hit = _SCP().match(word.strip("'\"`"))
        if hit and "/" in word and "://" not in word:
            found.append(hit.group(1).casefold())
        if word.strip("'\"`,;").casefold().startswith("localhost"):
            found.append("localhost")
    return list(dict.fromkeys(found))


def _is_manifest(name: str) -> bool:
    return name in (
        "pyproject.toml",
        "Cargo.toml",
        "go.mod",
        "Gemfile",
        "composer.json",
        "Brewfile",
    ) or (name.startswith("requirements") and name.endswith((".txt", ".in")))


def _configures_hosts(name: str) -> bool:
    low = name.casefold()
    return (
        name in (".npmrc", "pip.conf", "pip.ini", "pyproject.toml")
        or low.startswith(("dockerfile", "containerfile"))
        or low.endswith(".dockerfile")
        or (low.startswith(("docker-compose", "compose")) and low.endswith((".yml", ".yaml")))
    )


def _requirements(listed: object) -> Iterator[str]:
    from hindsight.taint import _requirements as names  # taint's reading, not imported at start

    return names(listed)


def _pyproject_dependencies(data: Mapping[str, Any]) -> Iterable[str]:
    project = _table(data, "project")
    yield from _requirements(project.get("dependencies"))
    for table in (_table(project, "optional-dependencies"), _table(data, "dependency-groups")):
        for group in table.values():
            yield from _requirements(group)
    poetry = _table(data, "tool", "poetry")
    yield from _table(poetry, "dependencies")
    yield from _table(poetry, "dev-dependencies")
    for group in _table(poetry, "group").values():
        yield from _table(group, "dependencies")
    yield from _requirements(_table(data, "tool", "uv").get("dev-dependencies"))


def _pyproject_hosts(data: Mapping[str, Any]) -> Iterable[str]:
    uv = _table(data, "tool", "uv")
    urls: list[object] = [uv.get("index-url"), *(uv.get("extra-index-url") or [])]
    for key in ("index", "source"):
        for tool in ("uv", "poetry"):
            listed = _table(data, "tool").get(tool, {})
            entries = listed.get(key) if isinstance(listed, dict) else None
            urls.extend(e.get("url") for e in entries or [] if isinstance(e, dict))
    for url in urls:
        if isinstance(url, str):
            yield from url_hosts(url)
