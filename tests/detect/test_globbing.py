"""A path holding brackets or parentheses that zsh read as a pattern (detect/globbing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Script, real_session, session_from_records
from hindsight.detect import Options, globbing, run_all
from hindsight.judges.rules import RulesJudge

TITLE = "Quote paths holding brackets or parentheses in shell commands: zsh reads them as patterns"


def test_a_next_route_group_path_zsh_could_not_expand_is_a_verified_trap() -> None:
    # rungchan2 (zsh): `git add src/app/(home)/_mypage/PostCard.tsx ...` fails "(eval):1: no
    # matches found: src/app/(home)/_mypage/PostCard.tsx"; the agent then ran `git add .`.
    sess = real_session("rungchan2+squeeze-lms", "a81d8e42")
    (found,) = globbing.unquoted_patterns([sess], Options())
    assert found.data["examples"] == [
        {"word": "src/app/(home)/_mypage/PostCard.tsx", "program": "git"}
    ]
    lessons = RulesJudge().judge(run_all([sess])).lessons
    (lesson,) = [x for x in lessons if x.title == TITLE]
    assert lesson.memory and lesson.kind == "trap"
    assert lesson.body == (
        "`git` with `src/app/(home)/_mypage/PostCard.tsx` failed before it ran: unquoted, zsh "
        "reads `[...]` and `(...)` in a path as a pattern and stops when no file matches it. "
        "Put such paths in quotes."
    )
    # "no matches found" is the shell's word, never memory's.
    assert "no matches" not in lesson.title + lesson.body


def _failing(tmp_path: Path, command: str, output: str) -> object:
    script = Script("/repo").prompt("stage the page", 0)
    script.bash(command, 10, code=1, output=output)
    return session_from_records(tmp_path, script.records)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # A `*` glob that matched nothing may have meant to match nothing (applab: /tmp/x*).
        ("ls /tmp/dmux-test*", "(eval):1: no matches found: /tmp/dmux-test*"),
        # The word is not the agent's: the shell's message names what the command did not type.
        ("git add -A", "zsh:1: no matches found: src/app/[slug]/page.tsx"),
        # Another failure of a path with brackets: nothing says the shell read it as a pattern.
        ("cat 'src/app/[slug]/page.tsx'", "cat: src/app/[slug]/page.tsx: No such file"),
    ],
)
def test_what_is_no_unquoted_pattern(tmp_path: Path, command: str, output: str) -> None:
    assert list(globbing.unquoted_patterns([_failing(tmp_path, command, output)], Options())) == []


def test_zsh_s_own_prefix_and_a_bad_pattern_are_read_too(tmp_path: Path) -> None:
    sess = _failing(
        tmp_path,
        "cd /repo && git add src/app/[locale]/admin/page.tsx && git commit -m wip",
        "Exit code 1\nzsh:1: bad pattern: src/app/[locale]/admin/page.tsx",
    )
    (found,) = globbing.unquoted_patterns([sess], Options())
    assert found.data["examples"] == [{"word": "src/app/[locale]/admin/page.tsx", "program": "git"}]
