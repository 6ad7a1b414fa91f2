"""Recall and false positives of hindsight's redaction per kind, on the corpora in tests/guard/.

    python bench/secrets.py            # the summary and every kind below 100% / above 0%
    python bench/secrets.py --all      # every kind

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


if __name__ == "__main__":
    main()
