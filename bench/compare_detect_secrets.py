"""Recall and false positives of detect-secrets on hindsight's guard corpora, for comparison.

python -m venv /tmp/ds && /tmp/ds/bin/pip install detect-secrets
/tmp/ds/bin/python bench/compare_detect_secrets.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
t0 = time.perf_counter()
from detect_secrets import SecretsCollection  # noqa: E402
from detect_secrets.settings import default_settings  # noqa: E402

t1 = time.perf_counter()
from guard.placement import leaks  # noqa: E402
from guard.test_secret_corpus import ALL, ALL_LOOKS  # noqa: E402


def scan(text: str) -> list[str]:
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "transcript.txt")
    with open(path, "w") as handle:
        handle.write(text + "\n")
    found = SecretsCollection()
    with default_settings():
        found.scan_file(path)
    return [s.secret_value or "" for secrets in found.data.values() for s in secrets]


def found(secret: str, line: str) -> bool:
    """A hit when detect-secrets reports a value holding the secret's random part (or a part
    of the secret), as hindsight is scored (guard/placement.leaks)."""
    return any(v and (leaks(secret, v) or v in secret) for v in scan(line))


hit = sum(1 for _, _, line, secret in ALL if found(secret, line))
fp = sum(1 for _, line in ALL_LOOKS if scan(line))
print(
    f"detect-secrets: import {1000 * (t1 - t0):.0f} ms; recall {hit}/{len(ALL)}; "
    f"false positives {fp}/{len(ALL_LOOKS)}"
)
