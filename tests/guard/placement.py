"""Place a corpus line where a transcript holds it, in Claude Code 2.1.x record shapes.

Each secret gets a session of its own: a typed request, the call that carries the line (a shell
command, its stdout or stderr, a `cat` of a file, a failing tool's input and error, or a typed
correction), a correction prompt, and the call that worked. So each travels the paths a finding,
a lesson or the digest's timeline takes.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from conftest import Script
from hindsight.sources.claude_files import claude_folder_name


def _bash(s: Script, command: str, at: float, code: int, stdout: str, stderr: str = "") -> None:
    """A Bash call and its result as Claude Code writes it: failures have no exit field, only
    'Exit code N' before the output; successes carry stdout and stderr apart."""
    s.bash(command, at, 2, code, (stdout + ("\n" + stderr if stderr else "")).strip("\n"))
    result: Any = (
        f"Error: Exit code {code}\n{stdout}{stderr}"
        if code
        else {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}
    )
    s.records[-1]["toolUseResult"] = result


def session(position: str, line: str, cwd: str, i: int) -> list[dict[str, Any]]:
    s = Script(cwd=cwd)
    s.prompt(f"deploy service {i}", 0)
    if position == "command":
        _bash(s, line, 1, 1, "Error: deploy failed")
    elif position == "stdout":
        _bash(s, f"./svc{i}.sh --show-config", 1, 0, line)
        _bash(s, f"./svc{i}.sh --check", 3, 1, line)
    elif position == "stderr":
        _bash(s, f"./svc{i}.sh --check", 1, 1, "", line)
    elif position == "cat":
        _bash(s, f"cat config/svc{i}.env && ./svc{i}.sh", 1, 1, line)
    elif position == "error":
        _bash(s, f"./svc{i}.sh --check", 1, 1, line)
    elif position == "tool_input":
        s.tool(
            "Edit",
            {"file_path": f"{cwd}/src/svc{i}.py", "old_string": line, "new_string": "x = 1"},
            1,
            1,
            f"<tool_use_error>String to replace not found in file.\nString: {line}</tool_use_error>",
            error=True,
        )
    elif position == "assistant":  # the agent's own prose, before the call that failed
        s.say(line, 1)
        _bash(s, f"./svc{i}.sh --check", 2, 1, "Error: missing configuration")
    elif position == "write":  # code the agent wrote, then a failing run and an Edit of it
        path = f"{cwd}/src/svc{i}.py"
        s.tool("Write", {"file_path": path, "content": line}, 1, 0.1, "File created successfully")
        _bash(s, f"python src/svc{i}.py", 2, 1, "Error: connection refused")
        edit = {"file_path": path, "old_string": "x = 0", "new_string": line}
        s.tool("Edit", edit, 3, 0.1, "The file has been updated.")
    elif position == "todo":  # the agent's todo list
        todo = {"content": line, "status": "pending", "activeForm": "Working"}
        s.tool("TodoWrite", {"todos": [todo]}, 1, 0.1, "Todos have been modified successfully.")
        _bash(s, f"./svc{i}.sh --check", 2, 1, "Error: missing configuration")
    elif position == "branch":  # the branch the session ran on, and the command that made it
        _bash(s, f"git checkout -b {line}", 1, 0, f"Switched to a new branch '{line}'")
        _bash(s, f"./svc{i}.sh --check", 2, 1, "Error: missing configuration")
    elif position == "file_path":  # a file the agent wrote, then read back under another name
        s.tool("Write", {"file_path": f"{cwd}/{line}", "content": "x"}, 1, 0.1, "File created")
        missing = f"{cwd}/{line}.bak"
        s.tool("Read", {"file_path": missing}, 2, 0.1, "File does not exist.", error=True)
        s.tool("Read", {"file_path": missing}, 3, 0.1, "File does not exist.", error=True)
    else:  # a typed prompt: the first request fails, the user corrects with the line
        _bash(s, f"./svc{i}.sh --check", 1, 1, "Error: missing configuration")
    s.prompt(
        f"no, use the other config: {line}" if position == "prompt" else "no, don't do that", 5
    )
    _bash(s, f"./svc{i}.sh", 8, 0, "ok")
    if position == "branch":
        for record in s.records:
            record["gitBranch"] = line
    return s.records


def write_sessions(home: Path, root: Path, lines: list[tuple[str, str]]) -> Path:
    """One transcript per (position, line) under ``home``'s project folder for ``root``."""
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True, exist_ok=True)
    for n, (position, line) in enumerate(lines):
        records = session(position, line, str(root), n)
        (folder / f"s{n:04d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
        (root / f"svc{n}.sh").write_text('#!/bin/sh\necho "$@"\n')
    # The scripts the sessions run are the repository's own, as in a real project.
    subprocess.run(["git", "-C", str(root), "add", "."], check=True, capture_output=True)
    subprocess.run(
        ["git", "-C", str(root), "commit", "-qm", "service scripts"],
        check=True,
        capture_output=True,
    )
    return folder


def leaks(secret: str, text: str, window: int = 10) -> bool:
    """Whether any ``window`` characters of ``secret`` appear in ``text``: half a token clipped
    before redaction is a leak too. Short secrets must not appear whole. A vendor's public prefix
    (``sk-ant-api03-``, ``dop_v1_``) is not the secret: windows start after it."""
    prefix = re.match(r"(?:[A-Za-z0-9]{1,12}[-_.~]){1,4}", secret)
    if prefix and len(secret) - prefix.end() >= 16:
        secret = secret[prefix.end() :]
    if len(secret) <= window:
        return secret in text
    return any(secret[k : k + window] in text for k in range(len(secret) - window + 1))
