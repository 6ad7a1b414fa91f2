from __future__ import annotations

from pathlib import Path

from conftest import Script, recorded_sessions, session_from_records
from hindsight.detect import Options, recommend


def test_sequences_across_sessions() -> None:
    found = [f.data for f in recommend.repeated_sequences(recorded_sessions(), Options())]
    # The 4-step version (with tox, 2 sessions) overlaps the 3-step one seen in 3 sessions: one is enough.
    assert found == [
        {
            "type": "extract_script",
            "steps": ["make lint", "make build", "make check"],
            "sessions": 3,
        }
    ]


def test_a_procedure_across_two_sessions_is_a_skill_and_sliding_windows_collapse(
    tmp_path: Path,
) -> None:
    steps = [
        "uv sync",
        "uv run alembic upgrade head",
        "uv run pytest -x",
        "docker compose up -d",
        "curl -f localhost:8000/health",
    ]
    sessions = []
    for n in range(2):
        s = Script()
        for i, command in enumerate(steps):
            s.bash(command, i * 5, 1)
        sessions.append(session_from_records(tmp_path, s.records, f"s{n}"))
    found = [f.data for f in recommend.repeated_sequences(sessions, Options())]
    assert found == [{"type": "propose_skill", "steps": steps, "sessions": 2}]


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
