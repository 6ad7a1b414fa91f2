"""bench/drift.py's comparison of what two CLI versions wrote (the recording half runs the real
CLIs: `python bench/drift.py`)."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import drift


def test_new_types_and_fields_are_reported_and_nothing_else() -> None:
    old = [
        {"type": "user", "uuid": "a", "message": {"role": "user", "content": "hi"}},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]},
        },
        {"type": "user", "toolUseResult": {"stdout": "", "stderr": ""}},
        {"type": "progress"},
    ]
    new = [
        {"type": "user", "uuid": "a", "sentAtMs": 1, "message": {"role": "user", "content": "hi"}},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "id": "t", "name": "Bash", "caller": {}}]},
        },
        {"type": "user", "toolUseResult": {"stdout": "", "exitCode": 0}},
        {"type": "cost-state"},
    ]
    assert drift.compare(drift.shape(old), drift.shape(new)) == {
        "new_record_types": ["cost-state"],
        "gone_record_types": ["progress"],
        "fields": {
            "assistant": {"new": ["content[tool_use].caller"], "gone": ["content[tool_use].input"]},
            "user": {
                "new": ["sentAtMs", "toolUseResult.exitCode"],
                "gone": ["toolUseResult.stderr"],
            },
        },
    }
    assert drift.compare(drift.shape(old), drift.shape(old)) == {
        "new_record_types": [],
        "gone_record_types": [],
        "fields": {},
    }
