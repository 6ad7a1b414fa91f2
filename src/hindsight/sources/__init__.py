"""The registry of agent readers: the one list the CLI's ``--*-home`` options, discovery, scan
output and the contract suite all read. A reader is imported only when its files are read, so a
run pays for the agents it finds, and ``--help`` for none.

Adding an agent: a module with a class that follows ``base.Source``, and one line in ``AGENTS``.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pathlib costs --help ~1 ms it does not need
    from pathlib import Path

    from hindsight.sources.base import Source


class Agent(NamedTuple):
    """What the rest of hindsight knows of an agent without importing its reader."""

    name: str  # in scan output, evidence and Transcript.agent
    target: str  # "module:Class" of its reader
    option: str  # the command line's --<option>-home
    env: str  # the environment variable the agent itself reads for its home
    default_home: str  # below the user's home folder
    env_subdir: str = ""  # where the variable names a stand-in user home, the folder below it


AGENTS: dict[str, Agent] = {
    a.name: a
    for a in (
        Agent("claude-code", "hindsight.sources.claude_code:ClaudeCodeSource", "claude",
              "CLAUDE_CONFIG_DIR", ".claude"),
        Agent("codex", "hindsight.sources.codex:CodexSource", "codex", "CODEX_HOME", ".codex"),
        Agent("gemini", "hindsight.sources.gemini:GeminiSource", "gemini", "GEMINI_CLI_HOME",
              ".gemini", ".gemini"),
    )
}  # fmt: skip

_LOADED: dict[str, Source] = {}


def load(name: str) -> Source:
    """The reader of agent ``name``, imported on first use."""
    if name not in _LOADED:
        module, _, cls = AGENTS[name].target.partition(":")
        _LOADED[name] = getattr(importlib.import_module(module), cls)()
    return _LOADED[name]


def home(name: str, arg: str | None) -> Path:
    """An agent's home: the option, else its environment variable, else its default folder."""
    from pathlib import Path

    if arg:
        return Path(arg).expanduser()
    agent = AGENTS[name]
    env = os.environ.get(agent.env)
    if env:
        return Path(env).expanduser() / agent.env_subdir
    return Path.home() / agent.default_home


def home_dest(name: str) -> str:
    """The argparse destination of an agent's ``--<option>-home``."""
    return f"{AGENTS[name].option}_home"
