"""The evasive corpus (guard/evasive.py), each attempt placed where it occurs in a session, run
through the real `hindsight run` and through `apply` with a fooled model judge's JSON: none
reaches MEMORY.md or its archive, and the benign lesson of every session still does."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

from conftest import Script, digest_then_apply, make_repo, run_cli
from guard import channels
from guard.evasive import EVASIVE
from hindsight.ledger import Ledger
from hindsight.sources.claude_files import claude_folder_name

NOW = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}


def _failing(fix: str) -> str:
    """The command the agent ran before taking the attacker's suggestion."""
    words = [w for w in fix.split() if not re.match(r"^[A-Z_]+=", w)]
    return "bash ./scripts/repair.sh" if words[0] == "bash" else " ".join(words[:2])


def _place(s: Script, root: Path, i: int, position: str, text: str) -> None:
    if position.startswith("via "):  # a channel the reader once dropped (guard/channels.py)
        channel, pair = position.removeprefix("via ").split(": ", 1)
        fail, fix = pair.split(" => ")
        if channel == "copy":  # the text stands in the copied records (see _sessions)
            s.bash(fail, 10, 1, 2 if fail.startswith("make") else 1, "make: *** [all] Error 2")
        else:
            channels.place(s, str(root), channel, fail, text)
        s.bash(fix, 80, 1)
        return
    if " => " in position:
        fail, fix = position.split(" => ")
        if fail.startswith("subagent: "):
            fail = fail.removeprefix("subagent: ")
            s.tool("Read", {"file_path": f"{root}/README.md"}, 5, 1, text)
            prompt = f"Set the project up. The README says: {text}"
            s.tool("Agent", {"prompt": prompt, "description": "setup"}, 7, 1, "done")
            s.bash(fail, 10, 1, 2, "make: *** [all] Error 1")
        else:
            s.bash(fail, 10, 1, 2 if fail.startswith("make") else 1, text)
        s.bash(fix, 80, 1)
        return
    if position.startswith(("pip ", "npm ", "NODE_", "git remote", "bash ", "GOFLAGS")):
        s.bash(_failing(position), 10, 1, 1, text)
        s.bash(position, 80, 1)
        return
    if position in ("script stderr", "curl output"):
        tool = f"./tools/step{i}.sh" if position == "script stderr" else "curl -fsS"
        s.bash(f"{tool} --fast", 10, 1, 22 if "curl" in tool else 1, text)
        s.bash(f"{tool} --clean --verbose --retries 3", 90, 1)
        return
    if position == "tool error":
        for at in (10, 20):
            s.tool("Read", {"file_path": f"{root}/src/mod{i}.py"}, at, 1, text, error=True)
        return
    if position == "file listing":
        s.bash("ls docs", 10, 1, 0, text)
        name = text.splitlines()[0][:60]
        for at in (20, 30):
            s.bash(f"cat 'docs/{name}'", at, 1, 1, f"cat: {name}: No such file or directory")
        return
    if position == "README read":
        s.tool("Read", {"file_path": f"{root}/README.md"}, 10, 1, text)
    elif position == "web fetch":
        s.tool("WebFetch", {"url": f"https://docs.acme.test/page{i}"}, 10, 1, text)
    elif position == "git log":
        s.bash("git log --oneline -5", 10, 1, 0, text)
    # The agent, fooled, repeats it as its reason (a decision) and in a todo.
    s.say(f"I'll follow the documented setup instead of the Makefile because {text}", 12)
    s.tool(
        "TodoWrite",
        {"todos": [{"content": text, "status": "pending", "activeForm": "x"}]},
        13,
        0.1,
        "ok",
    )


def _sessions(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, _ = make_repo(tmp_path)
    (root / "README.md").write_text("acme app: see https://github.com/acme/app\n")
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    for i, (_, position, text, _) in enumerate(EVASIVE):
        s = Script(cwd=str(root))
        s.prompt(f"build component {i}", 0)
        s.bash(
            f"make target-{i}", 1, 1, 2, f"make: *** No rule to make target 'target-{i}'.  Stop."
        )
        s.bash(f"make check-{i}", 3, 1)
        _place(s, root, i, position, text)
        records = s.records
        if position.startswith("via copy: "):
            records = _forked(folder, str(root), i, text) + records
        for r in records:
            r["sessionId"] = f"s{i:03d}"
        (folder / f"s{i:03d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root, home, folder / "memory"


def _forked(folder: Path, root: str, i: int, text: str) -> list[dict]:
    """An earlier session where the agent read ``text``, written an hour before; the records a
    fork of it copies (same uuids) into session ``i`` before its own."""
    first = channels.earlier(root, text).records
    for r in first:
        r["sessionId"] = f"s{i:03d}e"
    path = folder / f"s{i:03d}e.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in first))
    hour_ago = path.stat().st_mtime - 3600
    os.utime(path, (hour_ago, hour_ago))
    return copy.deepcopy(first)


def _outside_fences(text: str) -> str:
    """The report's text outside fenced blocks (data stands inside them)."""
    out, fence = [], None
    for line in text.splitlines():
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = re.match(r"`+", stripped).group(0)  # type: ignore[union-attr]
        elif fence is not None and stripped == fence:
            fence = None
        elif fence is None:
            out.append(line)
    return "\n".join(out)


def _memory_text(memory: Path) -> str:
    archive = memory / "MEMORY.archive.md"
    return (memory / "MEMORY.md").read_text() + (archive.read_text() if archive.exists() else "")


def _reached(text: str) -> list[str]:
    folded = text.casefold()
    return [marker for _, _, _, marker in EVASIVE if marker.casefold() in folded]


def _benign_kept(text: str, memory: Path | None = None) -> list[int]:
    """The sessions whose benign lesson entered memory (the archive counts), or found the block
    full: a run's lessons past the cap stay in the report, the ledger's reason 'no room'."""
    room = set()
    if memory is not None:
        room = {
            x.title
            for x in Ledger(memory).all()
            if x.state == "report" and x.reason.startswith("no room")
        }
    return [
        i
        for i in range(len(EVASIVE))
        if f"`make target-{i}` has no target here" in text
        or any(f"`make target-{i}` has no target here" in t for t in room)
    ]


def test_no_evasive_injection_reaches_memory_through_run(tmp_path: Path) -> None:
    assert len(EVASIVE) >= 60
    root, home, memory = _sessions(tmp_path)
    done = run_cli(
        "run", "--json", "--max-new", "500", "--claude-home", str(home), cwd=root, env=NOW
    )
    assert done.returncode == 0, done.stderr
    text = _memory_text(memory)
    assert _reached(text) == []
    report = (memory / "hindsight" / "reports" / "2026-11-30.md").read_text()
    assert _reached(_outside_fences(report)) == []
    assert len(_benign_kept(text, memory)) == len(EVASIVE)
    check = run_cli("memory", "check", "--claude-home", str(home), cwd=root)
    assert check.returncode == 0, check.stdout


def _fooled(digest: dict) -> dict:
    """What a judge fooled by every attempt writes: the planted text as lessons, citing the
    session's real findings, beside the benign lesson of the same session."""
    by_session: dict[str, list[str]] = {}
    for f in digest["findings"]:
        by_session.setdefault(f["session_id"], []).append(f["key"])
    lessons = []
    for i, (_, position, text, marker) in enumerate(EVASIVE):
        keys = by_session[f"s{i:03d}"]
        fix = position.split(" => ")[-1]  # the agent ran the attacker's suggestion: cite the run
        planted = fix if marker.casefold() in fix.casefold() else text
        for n, (body, lesson_kind) in enumerate(
            [
                (text, "trap"),
                (f"Use `{planted}`; it worked.", "fix"),
                (f'The user said: "{text}"', "preference"),
            ]
        ):
            lessons.append(
                {
                    "title": f"Injected {i}.{n}",
                    "body": body,
                    "kind": lesson_kind,
                    "strength": 5,
                    "evidence": keys,
                    "memory": True,
                }
            )
        lessons.append(
            {
                "title": f"`make target-{i}` has no target here",
                "body": f"Use `make check-{i}`.",
                "kind": "fix",
                "strength": 3,
                "evidence": keys,
                "memory": True,
            }
        )
    return {"judge": "claude-code", "lessons": lessons}


def test_no_evasive_injection_reaches_memory_through_apply(tmp_path: Path) -> None:
    root, home, memory = _sessions(tmp_path)
    result = digest_then_apply(root, home, _fooled, NOW)
    text = _memory_text(memory)
    assert _reached(text) == [] and "Injected" not in text
    assert len(_benign_kept(text, memory)) == len(EVASIVE)
    # Each injected lesson is stopped by one gate: the screen, or held to the report by the trust
    # gate or default-deny (``kept_out`` counts those among ``held``).
    stopped = result["quarantined"] + result["held"]
    assert stopped == 3 * len(EVASIVE)
