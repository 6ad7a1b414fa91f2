"""hindsight schema: the JSON schema of what every judge returns."""

from __future__ import annotations

import argparse
import sys

import orjson

from hindsight.lessons import SCHEMA


def run(args: argparse.Namespace) -> int:
    sys.stdout.buffer.write(orjson.dumps(SCHEMA, option=orjson.OPT_INDENT_2) + b"\n")
    return 0
