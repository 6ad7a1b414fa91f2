from __future__ import annotations

from pathlib import Path

from conftest import Script, recorded_sessions, session_from_records
from hindsight.detect import Options, recommend


def test_sequences_across_sessions() -> None:
    found = {
        f.data["type"]: f.data for f in recommend.repeated_sequences(recorded_sessions(), Options())
    }
    assert found["extract_script"] == {
        "type": "extract_script",
        "steps": ["make lint", "make build", "make check"],
        "sessions": 3,
    }
    assert found["propose_skill"]["steps"] == [
        "make lint",
        "make build",
        "make check",
        "tox -e py311",
    ]
    assert found["propose_skill"]["sessions"] == 2


def test_skill_followed_by_failures(tmp_path: Path) -> None:
    s = (
        Script()
        .tool("Skill", {"skill": "deploy"}, 0, 1, "Launching skill: deploy")
        .bash("./deploy.sh", 2, 1, 1, "error: missing DEPLOY_ENV")
        .bash("./deploy.sh --env prod", 4, 1, 2, "denied")
    )
    (f,) = recommend.skill_friction([session_from_records(tmp_path, s.records)], Options())
    assert f.data == {
        "type": "improve_skill",
        "skill": "deploy",
        "failures": 2,
        "commands": ["./deploy.sh", "./deploy.sh --env prod"],
    }
