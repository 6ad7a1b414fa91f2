"""hindsight completion bash|zsh|fish: a completion script made from the parser itself.

Built from the same argparse tree the CLI parses with, so a new command or option completes
without anyone editing a script; both names of the command (hindsight, agent-hindsight) complete.
"""

from __future__ import annotations

import argparse
import sys

NAMES = ("hindsight", "agent-hindsight")


def run(args: argparse.Namespace) -> int:
    from hindsight.cli import build_parser

    commands = spec(build_parser())
    render = {"bash": bash, "zsh": zsh, "fish": fish}[args.shell]
    sys.stdout.write(render(commands))
    return 0


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def spec(parser: argparse.ArgumentParser) -> dict[str, tuple[str, list[str], list[str]]]:
    """command -> (help, options, words): words are the choices of its positional arguments
    and its own subcommands (memory show|add|...), whose options are folded in."""
    helps = {
        a.dest: a.help or ""
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for a in action._choices_actions
    }
    out: dict[str, tuple[str, list[str], list[str]]] = {}
    for name, sub in _subcommands(parser).items():
        options: list[str] = []
        words: list[str] = []
        for p in (sub, *_subcommands(sub).values()):
            for action in p._actions:
                if action.option_strings:
                    options += [o for o in action.option_strings if o not in options]
                elif action.choices and not isinstance(action, argparse._SubParsersAction):
                    words += [str(c) for c in action.choices]
        words += list(_subcommands(sub))
        out[name] = (helps.get(name, ""), options, words)
    return out


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def bash(commands: dict[str, tuple[str, list[str], list[str]]]) -> str:
    cases = "".join(
        f"    {name}) words={_quote(' '.join(words + options))} ;;\n"
        for name, (_, options, words) in commands.items()
    )
    return f"""# bash completion for hindsight: eval "$(hindsight completion bash)" in ~/.bashrc
_hindsight() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" words
  if (( COMP_CWORD == 1 )); then
    words={_quote(" ".join([*commands, "--help", "--version"]))}
  else
    case "${{COMP_WORDS[1]}}" in
{cases}    *) words="" ;;
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}
complete -o default -F _hindsight {" ".join(NAMES)}
"""


def zsh(commands: dict[str, tuple[str, list[str], list[str]]]) -> str:
    described = "\n".join(
        f"    {_quote(name + ':' + text.replace(':', ' '))}"
        for name, (text, _, _) in commands.items()
    )
    cases = "".join(
        f"    {name}) choices=({' '.join(words + options)}) ;;\n"
        for name, (_, options, words) in commands.items()
    )
    return f"""#compdef {" ".join(NAMES)}
# zsh completion for hindsight: hindsight completion zsh > "${{fpath[1]}}/_hindsight"
_hindsight() {{
  local -a commands choices
  commands=(
{described}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'hindsight command' commands
    return
  fi
  case ${{words[2]}} in
{cases}  esac
  compadd -a choices
  _files
}}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _hindsight "$@"
else
  compdef _hindsight {" ".join(NAMES)}
fi
"""


def fish(commands: dict[str, tuple[str, list[str], list[str]]]) -> str:
    lines = [
        "# fish completion for hindsight: "
        "hindsight completion fish > ~/.config/fish/completions/hindsight.fish"
    ]
    for prog in NAMES:
        lines.append(
            f"complete -c {prog} -n __fish_use_subcommand -l version -d 'print the version'"
        )
        for name, (text, options, words) in commands.items():
            lines.append(
                f"complete -c {prog} -f -n __fish_use_subcommand -a {name} -d {_quote(text)}"
            )
            seen = f"'__fish_seen_subcommand_from {name}'"
            if words:
                lines.append(f"complete -c {prog} -f -n {seen} -a {_quote(' '.join(words))}")
            for option in options:
                if option.startswith("--"):
                    lines.append(f"complete -c {prog} -n {seen} -l {option[2:]}")
                else:
                    lines.append(f"complete -c {prog} -n {seen} -s {option[1:]}")
    return "\n".join(lines) + "\n"
