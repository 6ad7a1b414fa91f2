"""hindsight completion bash|zsh|fish: each script, run by the real shell, completes commands,
their options and their choices, for both names of the command."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import real_client, run_cli


def script(shell: str, tmp_path: Path) -> Path:
    done = run_cli("completion", shell)
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"completion.{shell}"
    path.write_text(done.stdout)
    return path


def shell(name: str) -> str:
    return real_client(name)  # a skip where it is absent; CI installs it, and fails without it


def run(argv: list[str]) -> list[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_bash(tmp_path: Path) -> None:
    path = script("bash", tmp_path)

    def complete(*words: str) -> list[str]:
        line = " ".join(f'"{w}"' for w in words)
        return run(
            [
                shell("bash"),
                "-c",
                f"source {path}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _hindsight; "
                'printf "%s\\n" "${COMPREPLY[@]}"; complete -p agent-hindsight',
            ]
        )

    # The line after the completions is `complete -p`'s: each of these is the only one.
    assert complete("hindsight", "sel")[:2] == ["selfcheck", "complete"]
    assert complete("hindsight", "sta")[:2] == ["status", "complete"]
    assert complete("hindsight", "memory", "pru")[0] == "prune"
    assert complete("hindsight", "run", "--dr")[0] == "--dry-run"
    assert complete("hindsight", "completion", "")[:3] == ["bash", "zsh", "fish"]
    assert complete("hindsight", "--ver")[0] == "--version"
    assert complete("hindsight", "x")[-1] == "agent-hindsight"  # both names are bound


def test_fish(tmp_path: Path) -> None:
    path = script("fish", tmp_path)

    def complete(line: str) -> list[str]:
        done = run([shell("fish"), "-c", f"source {path}; complete -C '{line}'"])
        return done

    assert complete("hindsight stat")[0] == "status"
    assert complete("agent-hindsight memory ") == [
        "add", "check", "forget", "list", "promote", "prune", "remove", "show",
    ]  # fmt: skip
    assert complete("hindsight run --dr") == ["--dry-run"]
    assert complete("hindsight completion ") == ["bash", "fish", "zsh"]


def test_zsh(tmp_path: Path) -> None:
    """The completion widgets' builtins are stubbed to print what they would offer."""
    path = script("zsh", tmp_path)
    zsh = shell("zsh")
    assert subprocess.run([zsh, "-n", str(path)], check=False).returncode == 0
    stubs = (
        "compdef() { print -r -- compdef $@ }; _files() { print -r -- FILES }; "
        "compadd() { print -rl -- ${(P)2} }; "
        "_describe() { print -rl -- ${${(P)4}%%:*} }; "
    )

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        return run(
            [
                zsh,
                "-fc",
                f"{stubs} source {path}; words=({line} ''); CURRENT={len(words) + 1}; _hindsight",
            ]
        )

    assert complete("hindsight")[:3] == ["compdef", "_hindsight", "hindsight"]
    offered = complete("hindsight")[4:]
    assert offered[:3] == ["run", "scan", "digest"] and "completion" in offered
    memory = complete("hindsight", "memory")
    assert memory[4:12] == ["show", "add", "prune", "list", "remove", "forget", "promote", "check"]
    assert memory[-1] == "FILES"
    assert "--dry-run" in complete("agent-hindsight", "run")


def test_unknown_shell_is_bad_usage() -> None:
    done = run_cli("completion", "tcsh")
    assert done.returncode == 2 and "invalid choice: 'tcsh'" in done.stderr and not done.stdout
