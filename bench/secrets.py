"""Recall and false positives of hindsight's redaction per kind, on the corpora in tests/guard/.

    python bench/secrets.py            # the summary and every kind below 100% / above 0%
    python bench/secrets.py --all      # every kind
    python bench/secrets.py --outputs  # also through the real CLI: recall in every output and file

Line by line through ``redact``; tests/guard/test_secret_corpus.py also runs the same corpora
through the real CLI and checks every output and file.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from guard.placement import leaks
from guard.test_secret_corpus import ALL, ALL_LOOKS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="print every kind")
    parser.add_argument(
        "--outputs",
        action="store_true",
        help="run the corpus through the CLI (digest, run, status, memory) and measure recall "
        "in each output and file hindsight keeps, per kind (about a minute)",
    )
    args = parser.parse_args()
    import subprocess

    probe = "import time; t = time.perf_counter(); import hindsight.redact; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout)
        for _ in range(5)
    ]
    from hindsight.redact import redact

    t1 = time.perf_counter()
    total, found = Counter[str](), Counter[str]()
    for kind, _, line, secret in ALL:
        total[kind] += 1
        found[kind] += not leaks(secret, redact(line))
    looks, changed = Counter[str](), Counter[str]()
    for kind, line in ALL_LOOKS:
        looks[kind] += 1
        changed[kind] += redact(line) != line
    t2 = time.perf_counter()
    print(f"secrets: {sum(found.values())}/{len(ALL)} redacted over {len(total)} kinds")
    print(
        f"look-alikes: {sum(changed.values())}/{len(ALL_LOOKS)} changed over {len(looks)} classes"
    )
    print(
        f"import hindsight.redact {1000 * sorted(runs)[2]:.1f} ms (median of 5, fresh processes); "
        f"both corpora {1000 * (t2 - t1):.0f} ms"
    )
    for kind in sorted(total):
        if args.all or found[kind] < total[kind]:
            print(f"  secret  {kind:<28} {found[kind]}/{total[kind]}")
    for kind in sorted(looks):
        if args.all or changed[kind]:
            print(f"  look    {kind:<28} {changed[kind]}/{looks[kind]} changed")
    if args.outputs:
        outputs(args.all)


def outputs(every: bool) -> None:
    """Recall per output (each command's stdout and stderr, each file under the memory folder:
    MEMORY.md, its archive, reports, state, ledger, hook log) and per kind, as
    tests/guard/test_secret_corpus.py runs the CLI."""
    import tempfile

    from conftest import make_repo, run_cli
    from guard.placement import write_sessions

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root, _ = make_repo(base)
        home = base / "home"
        folder = write_sessions(home, root, [(p, line) for _, p, line, _ in ALL])
        env = {"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"}
        where = ["--claude-home", str(home)]
        shown: dict[str, str] = {}
        runs = [
            ["digest", "--max-bytes", "2000000"],
            ["digest", "--json", "--max-bytes", "2000000"],
            ["run", "--dry-run"],
            ["run", "--json", "--max-new", "2000"],
        ]
        for args in runs:
            done = run_cli(*args, *where, "--since", "3650d", cwd=root, env=env)
            shown[" ".join(args[:2])] = done.stdout + done.stderr
        for args in (["status"], ["status", "--json"], ["memory", "show"], ["memory", "check"]):
            done = run_cli(*args, *where, cwd=root)
            shown[" ".join(args)] = done.stdout + done.stderr
        for path in (folder / "memory").rglob("*"):
            if path.is_file():
                shown[str(path.relative_to(folder / "memory"))] = path.read_text(errors="replace")
        anywhere: set[int] = set()
        total: Counter[str] = Counter(kind for kind, *_ in ALL)
        print(f"outputs: {len(shown)} (each command's output, each file kept)")
        for name, text in sorted(shown.items()):
            missed = {n for n, (_, _, _, secret) in enumerate(ALL) if leaks(secret, text)}
            anywhere |= missed
            print(f"  {name:<40} recall {100 * (1 - len(missed) / len(ALL)):.2f}%")
        leaked = Counter(ALL[n][0] for n in anywhere)
        print(
            f"recall over all outputs: {100 * (1 - len(anywhere) / len(ALL)):.2f}% "
            f"({len(ALL) - len(anywhere)}/{len(ALL)}); kinds with a leak: {len(leaked)}/{len(total)}"
        )
        for kind in sorted(total):
            if every or leaked[kind]:
                print(f"  secret  {kind:<28} leaked somewhere {leaked[kind]}/{total[kind]}")


if __name__ == "__main__":
    main()
