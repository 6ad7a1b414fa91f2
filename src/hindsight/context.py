"""Resolve the where-options every command takes into paths, lazily (git only when needed)."""

from __future__ import annotations

import argparse
from functools import cached_property
from pathlib import Path

from hindsight import locate
from hindsight.errors import HindsightError
from hindsight.record import Record


class Context(Record):
    _fields = ("repo_arg", "claude_home_arg", "memory_dir_arg")
    repo_arg: str
    claude_home_arg: str | None
    memory_dir_arg: str | None

    def __init__(
        self, repo_arg: str, claude_home_arg: str | None, memory_dir_arg: str | None
    ) -> None:
        self.repo_arg = repo_arg
        self.claude_home_arg = claude_home_arg
        self.memory_dir_arg = memory_dir_arg

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Context:
        return cls(args.repo, args.claude_home, args.memory_dir)

    @cached_property
    def repo(self) -> locate.Repo:
        return locate.find_repo(Path(self.repo_arg))

    @cached_property
    def claude_home(self) -> Path:
        home = locate.claude_home(self.claude_home_arg)
        # A mistyped --claude-home must not become a new, empty home that memory is written to.
        if self.claude_home_arg and not home.is_dir():
            what = "is not a folder" if home.exists() else "does not exist"
            raise HindsightError(f"--claude-home {self.claude_home_arg} {what}")
        return home

    @cached_property
    def memory_dir(self) -> Path:
        if self.memory_dir_arg:
            return Path(self.memory_dir_arg).expanduser().absolute()
        return locate.default_memory_dir(self.claude_home, self.repo)
