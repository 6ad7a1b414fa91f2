"""Resolve the where-options every command takes into paths, lazily (git only when needed)."""

from __future__ import annotations

import argparse
from functools import cached_property
from pathlib import Path

from hindsight import locate, sources
from hindsight.errors import HindsightError
from hindsight.record import Record

CLAUDE = "claude-code"


class Context(Record):
    _fields = ("repo_arg", "home_args", "memory_dir_arg")
    repo_arg: str
    home_args: dict[str, str | None]  # agent name -> its --*-home option
    memory_dir_arg: str | None

    def __init__(
        self,
        repo_arg: str,
        claude_home_arg: str | None,
        memory_dir_arg: str | None,
        home_args: dict[str, str | None] | None = None,
    ) -> None:
        self.repo_arg = repo_arg
        self.home_args = dict(home_args or {})
        if claude_home_arg is not None:
            self.home_args[CLAUDE] = claude_home_arg
        self.memory_dir_arg = memory_dir_arg

    @classmethod
    def from_args(cls, args: argparse.Namespace, repo: str | None = None) -> Context:
        homes = {name: getattr(args, sources.home_dest(name), None) for name in sources.AGENTS}
        # Commands without where-options of their own (install's helpers) still get a context.
        repo = repo or getattr(args, "repo", None) or "."
        return cls(repo, None, getattr(args, "memory_dir", None), homes)

    def where_options(self, absolute: bool = False) -> list[str]:
        """The homes and memory folder given on the command line, as options for a child run."""
        out: list[str] = []
        pairs = [(sources.AGENTS[n].option + "-home", v) for n, v in self.home_args.items()]
        for option, value in [*pairs, ("memory-dir", self.memory_dir_arg)]:
            if value:
                out += [
                    f"--{option}",
                    str(Path(value).expanduser().absolute()) if absolute else value,
                ]
        return out

    @property
    def claude_home_arg(self) -> str | None:
        return self.home_args.get(CLAUDE)

    def home(self, agent: str) -> Path:
        return sources.home(agent, self.home_args.get(agent))

    @cached_property
    def repo(self) -> locate.Repo:
        return locate.find_repo(Path(self.repo_arg))

    @cached_property
    def claude_home(self) -> Path:
        home = self.home(CLAUDE)
        # A mistyped --claude-home must not become a new, empty home that memory is written to.
        if self.claude_home_arg and not home.is_dir():
            what = "is not a folder" if home.exists() else "does not exist"
            raise HindsightError(f"--claude-home {self.claude_home_arg} {what}")
        return home

    @cached_property
    def memory_dir(self) -> Path:
        if self.memory_dir_arg:
            return Path(self.memory_dir_arg).expanduser().absolute()
        from hindsight.sources.claude_files import default_memory_dir

        return default_memory_dir(self.claude_home, self.repo)
