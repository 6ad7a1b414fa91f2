"""The configuration files: the user's and a repository's, under the command line.

    ~/.config/hindsight/config.toml   ($XDG_CONFIG_HOME/hindsight/config.toml where that is set)
    <repository>/.hindsight.toml      committed with the repository, for everyone working in it

A flag given on the command line wins over the repository's file, which wins over the user's;
$HINDSIGHT_JUDGE (the hook's and the skill's way to choose a judge) wins over both files.
Every command, the hook's detached run and so the plugin read them through `cli.main` or `settle`.
Reading costs a few stats when there is no file: hindsight runs from hooks.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from hindsight.errors import HindsightError

REPO_FILE = ".hindsight.toml"

# setting -> (its type, the option it stands for where the command has one)
KEYS: dict[str, tuple[type, str | None]] = {
    "enabled": (bool, None),
    "judge": (str, "judge"),
    "model": (str, "model"),
    "max-new": (int, "max_new"),
    "target": (str, "target"),
}

_UNSET = object()


class Settings:
    """What the files say, and which file said each setting (for messages and `doctor`)."""

    def __init__(self, values: dict[str, Any], sources: dict[str, Path]) -> None:
        self.values = values
        self.sources = sources

    @property
    def enabled(self) -> bool:
        return bool(self.values.get("enabled", True))

    def off_line(self) -> str:
        return (
            f"hindsight is off for this repository (enabled = false in {self.sources['enabled']})"
        )


def user_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME", "")
    # The XDG spec: a relative value is invalid and is ignored.
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "hindsight" / "config.toml"


def repo_path(start: str | Path) -> Path | None:
    """The .hindsight.toml of the checkout holding ``start``: the first folder up with a .git
    (a linked worktree has its own checkout of the same file); no git call."""
    here = Path(start).expanduser().absolute()
    for folder in (here, *here.parents):
        if os.path.exists(folder / ".git"):  # os.path: False, not an error, where stat is denied
            path = folder / REPO_FILE
            return path if os.path.isfile(path) else None
    return None


def load(repo: str | Path) -> Settings:
    values: dict[str, Any] = {}
    sources: dict[str, Path] = {}
    for path in (user_path(), repo_path(repo)):
        if path is not None and os.path.isfile(path):
            for key, value in read(path).items():
                values[key] = value
                sources[key] = path
    return Settings(values, sources)


def read(path: Path) -> dict[str, Any]:
    """One file, checked: an unknown setting or a wrong value is an error naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise HindsightError(f"cannot read {path}: {exc}") from exc
    toml = _tomllib()
    try:
        doc = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        raise HindsightError(f"{path} is not valid TOML ({exc}); fix it or remove it") from exc
    for key, value in doc.items():
        _check(path, key, value)
    return dict(doc)


def _check(path: Path, key: str, value: Any) -> None:
    if key not in KEYS:
        raise HindsightError(f"{path}: unknown setting {key!r}; known: {', '.join(KEYS)}")
    kind = KEYS[key][0]
    if type(value) is not kind:  # not isinstance: true is an int to Python, not to this file
        raise HindsightError(f"{path}: {key} must be {_names[kind]}, not {value!r}")
    if key == "max-new" and isinstance(value, int) and value < 1:
        raise HindsightError(f"{path}: max-new must be at least 1, not {value}")
    if key == "judge":
        from hindsight import judges

        if value not in judges.JUDGES:
            raise HindsightError(
                f"{path}: unknown judge {value!r}; choose from {', '.join(judges.JUDGES)}"
            )
    if key == "target":
        from hindsight import targets

        if value not in targets.CHOICES:
            raise HindsightError(
                f"{path}: unknown target {value!r}; choose from {', '.join(targets.CHOICES)}"
            )


_names = {bool: "true or false", str: "a string", int: "a whole number", list: "a list"}


def _tomllib() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    return tomllib


def apply(args: argparse.Namespace, settings: Settings, given: set[str]) -> None:
    """Fill the options the command line did not give from the files."""
    for key, (_, dest) in KEYS.items():
        if dest is None or key not in settings.values or dest in given or not hasattr(args, dest):
            continue
        if dest == "judge" and os.environ.get("HINDSIGHT_JUDGE"):
            continue
        setattr(args, dest, settings.values[key])


def given(parser: argparse.ArgumentParser, argv: list[str]) -> set[str]:
    """The options the command line set: ``argv`` parsed again with every default unset.

    (argparse cannot tell a default from the same value typed; only run when a file says
    something, so the usual run never pays for the second parser.)"""
    stack = [parser]
    while stack:
        current = stack.pop()
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack += action.choices.values()
            elif action.dest != argparse.SUPPRESS:
                action.default = _UNSET
    parsed = parser.parse_args(argv)
    return {dest for dest, value in vars(parsed).items() if value is not _UNSET}
