"""The evasive injection corpus (tests/guard/evasive.py) through the real CLI: how many attempts
reach MEMORY.md or its archive, how many benign lessons of the same sessions are kept, through
`run` (rules judge) and through `apply` (a fooled model judge's JSON); then the judged corpus
(tests/guard/judged.py): a fooled judge's lessons that cut, flip or disguise clean sessions'
own words, counted per point.

    .venv/bin/python bench/evasion.py                   # this checkout
    git archive 878748e src | tar -x -C /tmp/hs-old     # hindsight before #11's trust gate
    .venv/bin/python bench/evasion.py --src /tmp/hs-old/src --no-apply-cap

``--src`` runs another tree's package (PYTHONPATH) on the same sessions; a tree whose `apply`
has no --max-new gets the default cap of 5 (``--no-apply-cap``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from guard.evasive import EVASIVE  # noqa: E402
from guard.judged import JUDGED  # noqa: E402
from guard.test_evasion import (  # noqa: E402
    NOW,
    _benign_kept,
    _fooled,
    _memory_text,
    _outside_fences,
    _sessions,
)
from guard.test_judged import (  # noqa: E402
    judged_lessons,
    judged_sessions,
    kept,
    memory_text,
    reached,
)


def _cli(src: Path, *args: str, cwd: Path, stdin: str | None = None) -> str:
    env = {**os.environ, **NOW, "PYTHONPATH": str(src)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "hindsight", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"hindsight {args[0]} failed: {done.stderr.strip()}")
    return done.stdout


def _tally(memory: Path, label: str) -> None:
    text = _memory_text(memory)
    folded = text.casefold()
    reached = [(c, m) for c, _, _, m in EVASIVE if m.casefold() in folded]
    in_memory = _benign_kept((memory / "MEMORY.md").read_text())
    report = "\n".join(p.read_text() for p in (memory / "hindsight" / "reports").glob("*.md"))
    outside = _outside_fences(report).casefold()
    in_report = [m for _, _, _, m in EVASIVE if m.casefold() in outside]
    print(f"{label}: {len(reached)}/{len(EVASIVE)} attempts reach MEMORY.md or its archive")
    for cls, n in Counter(c for c, _ in reached).most_common():
        print(f"    {cls}: {n}")
    print(
        f"    benign lessons kept: {len(_benign_kept(text))}/{len(EVASIVE)} "
        f"({len(in_memory)} in MEMORY.md, the rest moved to the archive by the 6 KB cap); "
        f"attempts standing outside a data fence in the report: {len(in_report)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--no-apply-cap", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root, home, memory = _sessions(Path(tmp) / "run")
        _cli(args.src, "run", "--json", "--max-new", "500", "--claude-home", str(home), cwd=root)
        _tally(memory, "run")
        root, home, memory = _sessions(Path(tmp) / "apply")
        digest = _cli(
            args.src,
            "digest",
            "--json",
            "--max-bytes",
            "5000000",
            "--claude-home",
            str(home),
            cwd=root,
        )
        cap = [] if args.no_apply_cap else ["--max-new", "500"]
        out = _cli(
            args.src,
            "apply",
            "-",
            "--json",
            *cap,
            "--claude-home",
            str(home),
            cwd=root,
            stdin=json.dumps(_fooled(json.loads(digest))),
        )
        _tally(memory, f"apply (a fooled judge, {3 * len(EVASIVE)} injected lessons)")
        got = json.loads(out)
        print(
            f"    injected lessons quarantined by the screen: {got['quarantined']}, held to the "
            f"report by the trust gate: {got.get('held', 0)}; new memory entries: {got['lessons_added']}"
        )

    with tempfile.TemporaryDirectory() as tmp:
        root, home, memory = judged_sessions(Path(tmp))
        digest = _cli(
            args.src, "digest", "--json", "--max-bytes", "5000000", "--claude-home", str(home),
            cwd=root,
        )  # fmt: skip
        _cli(
            args.src, "apply", "-", "--json", *cap, "--claude-home", str(home), cwd=root,
            stdin=json.dumps(judged_lessons(json.loads(digest))),
        )  # fmt: skip
        text = memory_text(memory)
        got = reached(text)
        print(
            f"apply (a fooled judge's lessons on clean sessions): {len(got)}/{len(JUDGED)} "
            "attacks reach MEMORY.md or its archive"
        )
        for point in sorted({c.point for c in JUDGED}):
            total = sum(c.point == point for c in JUDGED)
            print(f"    {point}: {sum(p == point for p, _ in got)}/{total}")
        print(f"    benign lessons kept: {len(kept(text))}/{len(JUDGED)}")


if __name__ == "__main__":
    main()
