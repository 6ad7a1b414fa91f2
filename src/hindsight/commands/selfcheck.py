"""hindsight selfcheck."""

from __future__ import annotations

import argparse

from hindsight.selfcheck import run_checks


def run(args: argparse.Namespace) -> int:
    ok = run_checks(print)
    print("selfcheck passed" if ok else "selfcheck FAILED")
    return 0 if ok else 1
