"""Commands killed at the harness's time limit again and again (detect/timeouts.py)."""

from __future__ import annotations

import pytest

from conftest import real_session
from hindsight.detect import Options, run_all, timeouts
from hindsight.judges.rules import RulesJudge


def test_the_same_job_killed_ten_times_is_a_lesson() -> None:
    # Tar-ive: `gh run watch`, then `sleep N && gh run view` up to 900 s, killed at 2 minutes.
    sess = real_session("Tar-ive+CADS-Visualizer", "b75d6612")
    (found,) = timeouts.repeated_timeouts([sess], Options())
    assert found.data["job"] == "gh run" and found.data["times"] == 10
    assert found.data["shapes"] == ["gh run watch …", "sleep … && gh run view …"]
    assert 120 <= found.data["limit_s"] < 121
    (lesson,) = [x for x in RulesJudge().judge(run_all([sess])).lessons if "time out" in x.title]
    assert lesson.title == "`gh run` commands time out after 2 min here"
    assert lesson.memory and lesson.kind == "trap"
    assert "17456" not in lesson.body  # the run ids came from gh's output


def test_one_timeout_is_only_a_slow_command() -> None:
    sess = real_session("AojdevStudio+cdev", "a806d921")  # `npm test` killed once
    assert list(timeouts.repeated_timeouts([sess], Options())) == []


@pytest.mark.parametrize(
    ("command", "shape"),
    [
        ("sleep 180 && gh run view 17456322327", "sleep … && gh run view …"),
        ("gh run watch 17456183654", "gh run watch …"),
        ("wrangler login", "wrangler login"),
        ("cd /tmp/x && npm test -- --watch=false", "cd … && npm test …"),
        ("docker compose exec web python manage.py test", "docker compose exec …"),
    ],
)
def test_a_shape_names_programs_never_arguments(command: str, shape: str) -> None:
    assert timeouts.shape(command) == shape
