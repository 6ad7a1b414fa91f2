"""The one way commands print JSON: redacted, indented, one document."""

from __future__ import annotations

import sys

import orjson

from hindsight.redact import redact_json


def print_json(doc: object) -> None:
    clean = redact_json(doc)
    try:
        data = orjson.dumps(clean, option=orjson.OPT_INDENT_2)
    except TypeError:  # a file name that is not UTF-8 somewhere in it
        data = orjson.dumps(_printable(clean), option=orjson.OPT_INDENT_2)
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.flush()


def _printable(value: object) -> object:
    from hindsight.fmt import printable

    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable(v) for v in value]
    if isinstance(value, dict):
        return {printable(k): _printable(v) for k, v in value.items()}
    return value
