"""The contract every registered source passes: it finds its sessions of a repo and its worktrees
in its own home, reads the same story into the same events, and turns damaged input (a last line
still being written, invalid UTF-8, records it does not know, an empty or a deleted file) into
counts, never into a crash or a lost event."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hindsight import sources
from hindsight.locate import Repo
from hindsight.session import ReadStats, Session
from hindsight.sources.base import Transcript, Window

from .samples import COMMAND, ERROR, PROMPT, SAMPLES, lines_of, write

AGENTS = sorted(sources.AGENTS)


def test_every_registered_source_has_a_sample() -> None:
    assert sorted(SAMPLES) == AGENTS


def _repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo", (tmp_path / "repo-wt",))


def _found(agent: str, home: Path, repo: Repo, since: float | None = None) -> list[Transcript]:
    return sources.load(agent).discover(repo, home, Window(since=since))


def _read(agent: str, path: Path) -> Session:
    transcript = Transcript(path, agent, path.stem, 0, 0)
    return sources.load(agent).read(transcript, [])


def _assert_story(session: Session) -> None:
    assert session.prompts() == [PROMPT]
    [call] = session.shell_calls()
    assert (call.command, call.exit_code, call.failed) == (COMMAND, 2, True)
    assert ERROR in call.output


@pytest.mark.parametrize("agent", AGENTS)
def test_discovers_root_and_worktree_in_its_own_home_only(agent: str, tmp_path: Path) -> None:
    repo, home = _repo(tmp_path), tmp_path / "home"
    in_root = write(agent, home, str(repo.root))
    in_worktree = write(agent, home, str(tmp_path / "repo-wt" / "src"))
    write(agent, home, str(tmp_path / "other"))
    found = _found(agent, home, repo)
    assert sorted(t.path for t in found) == sorted([in_root, in_worktree])
    assert {t.agent for t in found} == {agent}
    assert _found(agent, tmp_path / "elsewhere", repo) == []
    # The window: a file not changed since `since` is not pending.
    os.utime(in_root, (1_000_000, 1_000_000))
    assert [t.path for t in _found(agent, home, repo, since=2_000_000)] == [in_worktree]


@pytest.mark.parametrize("agent", AGENTS)
def test_reads_the_story(agent: str, tmp_path: Path) -> None:
    session = _read(agent, write(agent, tmp_path, "/w/repo"))
    _assert_story(session)
    assert session.agent == agent
    assert session.stats.skipped_total == 0 and session.stats.files_unreadable == 0


def _damaged(agent: str, tmp_path: Path, extra: bytes, at: int | None) -> Session:
    body = lines_of(SAMPLES[agent].records("/w/repo", "s1"))
    if at is None:
        body.append(extra)
    else:
        body.insert(at, extra)
    return _read(agent, write(agent, tmp_path, "/w/repo", body))


@pytest.mark.parametrize("agent", AGENTS)
def test_truncated_last_line_is_counted(agent: str, tmp_path: Path) -> None:
    session = _damaged(agent, tmp_path, b'{"type": "assistant", "message": {"con', None)
    _assert_story(session)
    assert dict(session.stats.skipped) == {"truncated": 1}


@pytest.mark.parametrize("agent", AGENTS)
def test_invalid_utf8_is_counted(agent: str, tmp_path: Path) -> None:
    session = _damaged(agent, tmp_path, b'{"text": "caf\xe9 \xff"}\n', 2)
    _assert_story(session)
    assert dict(session.stats.skipped) == {"invalid_utf8": 1}


@pytest.mark.parametrize("agent", AGENTS)
def test_unknown_record_types_are_counted(agent: str, tmp_path: Path) -> None:
    session = _damaged(agent, tmp_path, lines_of([SAMPLES[agent].unknown])[0], 2)
    _assert_story(session)
    assert dict(session.stats.skipped) == {"unknown_type": 1}


@pytest.mark.parametrize("agent", AGENTS)
def test_empty_file_is_an_empty_session(agent: str, tmp_path: Path) -> None:
    session = _read(agent, write(agent, tmp_path, "/w/repo", []))
    assert session.events == [] and session.stats == ReadStats()


@pytest.mark.parametrize("agent", AGENTS)
def test_deleted_file_is_counted_unreadable(agent: str, tmp_path: Path) -> None:
    repo, home = _repo(tmp_path), tmp_path / "home"
    path = write(agent, home, str(repo.root))
    [transcript] = _found(agent, home, repo)
    path.unlink()
    session = sources.load(agent).read(transcript, [])
    assert session.events == [] and session.stats.files_unreadable == 1


@pytest.mark.parametrize("agent", AGENTS)
def test_home_comes_from_option_then_variable_then_default(
    agent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = sources.AGENTS[agent]
    monkeypatch.delenv(entry.env, raising=False)
    assert sources.home(agent, None) == Path.home() / entry.default_home
    monkeypatch.setenv(entry.env, str(tmp_path / "env"))
    assert sources.home(agent, None) == tmp_path / "env" / entry.env_subdir
    assert sources.home(agent, str(tmp_path / "arg")) == tmp_path / "arg"
