"""The memory gate on real sessions: how many memory-worthy lessons of the rules judge it keeps.

Reads every transcript under ../shared/fixtures/claude-code/real (or the folder given), judges each
project's sessions with the rules judge, and runs the screen and the trust gate on the lessons that
want memory. Prints kept/held counts and every held lesson's reason (no transcript text).

    .venv/bin/python bench/trust_real.py [FOLDER] [--show] [--model]

--show: the held lessons' text too. --model: the gate as `apply` runs it for a model judge
(``own_judge=False``: commands exact, the user's words whole clauses, prose of hindsight's or the
session's words), on the same lessons: how many a judge writing like the rules judge keeps.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from hindsight.detect import run_all
from hindsight.judges.rules import RulesJudge
from hindsight.screen import Screen
from hindsight.sources.base import Transcript
from hindsight.sources.claude_code import ClaudeCodeSource
from hindsight.trust import Gate

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT.parent / "shared" / "fixtures" / "claude-code" / "real"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    base = Path(args[0]) if args else DEFAULT
    kept = held = screened = 0
    reasons: Counter[str] = Counter()
    for project in sorted(p for p in base.iterdir() if p.is_dir()):
        paths = sorted(project.rglob("*.jsonl"))
        sessions = [
            ClaudeCodeSource().read(Transcript(p, "claude-code", p.stem, 0, 0), []) for p in paths
        ]
        findings = run_all(sessions)
        judged = RulesJudge().judge(findings)
        trusted = [t for s in sessions for t in s.prompts()]
        trusted += [c.command for s in sessions for c in s.shell_calls() if c.command]
        screen = Screen(trusted)
        # The recorded repos are not on this machine: a relative path, or one below a session's
        # folder, stands for a file of the repository (what the real check finds on disk).
        cwds = tuple(s.cwd.rstrip("/") + "/" for s in sessions if s.cwd)

        def in_repo(path: str, cwd: str | None, cwds: tuple[str, ...] = cwds) -> bool:
            return not path.startswith(("/", "~")) or path.startswith(cwds)

        gate = Gate(sessions, findings, in_repo, own_judge="--model" not in sys.argv)
        for lesson in judged.lessons:
            if not lesson.memory:
                continue
            if screen.check(f"{lesson.title}\n{lesson.body}") is not None:
                screened += 1
                continue
            reason = gate.check(lesson)
            if reason is None:
                kept += 1
            else:
                held += 1
                reasons[reason.split(" (")[0]] += 1
                print(f"held [{project.name}] {lesson.kind}: {reason}")
                if "--show" in sys.argv:
                    print(f"    {lesson.title}\n    {lesson.body}")
    print(
        f"\nmemory-worthy lessons: {kept} kept, {held} held by the trust gate, {screened} by the screen"
    )
    for reason, n in reasons.most_common():
        print(f"  {n:3d}  {reason}")


if __name__ == "__main__":
    main()
