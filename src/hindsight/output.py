"""The one way commands print JSON: redacted, indented, one document."""

from __future__ import annotations

import sys

import orjson

from hindsight.redact import redact_json


def print_json(doc: object) -> None:
    sys.stdout.buffer.write(orjson.dumps(redact_json(doc), option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.flush()
