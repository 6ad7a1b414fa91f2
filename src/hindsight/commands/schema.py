"""hindsight schema: not built yet (see the open issues)."""

from __future__ import annotations

import argparse

from hindsight.errors import HindsightError


def run(args: argparse.Namespace) -> int:
    raise HindsightError("'hindsight schema' is not built yet in this version")
