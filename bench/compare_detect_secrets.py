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
from guard.corpus import LOOKALIKES, SECRETS  # noqa: E402


def scan(text: str) -> list[str]:
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "transcript.txt")
    with open(path, "w") as handle:
        handle.write(text + "\n")
    found = SecretsCollection()
    with default_settings():
        found.scan_file(path)
    return [s.secret_value or "" for secrets in found.data.values() for s in secrets]


hit = sum(
    1 for _, line, secret in SECRETS if any(v and (secret in v or v in secret) for v in scan(line))
)
fp = sum(1 for line in LOOKALIKES if scan(line))
print(
    f"detect-secrets: import {1000 * (t1 - t0):.0f} ms; recall {hit}/{len(SECRETS)}; "
    f"false positives {fp}/{len(LOOKALIKES)}"
)
