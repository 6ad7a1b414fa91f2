from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hindsight import locate


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def committed(folder: Path) -> Path:
    """A new repository in ``folder`` with one commit of one file."""
    folder.mkdir()
    git("init", "-q", "-b", "main", ".", cwd=folder)
    (folder / "f").write_text("x")
    git("add", "-A", cwd=folder)
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "i", cwd=folder)
    return folder


@pytest.fixture
def repo_with_worktree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "my.repo_x"
    root.mkdir()
    git("init", "-q", "-b", "main", ".", cwd=root)
    (root / "sub").mkdir()
    (root / "sub" / "f").write_text("x")
    git("add", "-A", cwd=root)
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "i", cwd=root)
    wt = tmp_path / "wt.feature"
    git("worktree", "add", "-q", "-b", "feat", str(wt), cwd=root)
    return root, wt


def test_find_repo_from_anywhere(repo_with_worktree: tuple[Path, Path]) -> None:
    root, wt = repo_with_worktree
    for start in (root, root / "sub", wt, wt / "sub"):
        repo = locate.find_repo(start)
        assert repo.root == root.resolve()
        assert repo.worktrees == (wt.resolve(),)
    repo = locate.find_repo(wt)
    assert repo.owns(str(wt / "sub" / "deeper")) and repo.owns(str(root))
    assert not repo.owns(str(root.parent / "my.repo_x2"))
    assert not repo.owns(str(root.parent))


def test_plain_folder_is_its_own_root(tmp_path: Path) -> None:
    repo = locate.find_repo(tmp_path)
    assert (
        repo.root == tmp_path.resolve() and not repo.is_git and repo.roots == (tmp_path.resolve(),)
    )


def test_missing_repo_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(locate.HindsightError, match="no such folder"):
        locate.find_repo(tmp_path / "nope")


def test_bare_repository_with_linked_worktrees(tmp_path: Path) -> None:
    seed = committed(tmp_path / "seed")
    bare = tmp_path / "proj.git"
    git("clone", "-q", "--bare", str(seed), str(bare), cwd=tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    git("worktree", "add", "-q", str(one), "main", cwd=bare)
    git("worktree", "add", "-q", "-b", "other", str(two), cwd=bare)
    for start in (bare, one, two):
        repo = locate.find_repo(start)
        # The bare folder is the main entry; only checkouts are worktrees.
        assert repo.root == bare.resolve()
        assert repo.worktrees == (one.resolve(), two.resolve())


def test_submodule_is_its_own_repository(tmp_path: Path) -> None:
    inner = committed(tmp_path / "inner")
    outer = tmp_path / "outer"
    outer.mkdir()
    git("init", "-q", "-b", "main", ".", cwd=outer)
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "lib", cwd=outer)
    repo = locate.find_repo(outer / "lib")
    assert repo.root == (outer / "lib").resolve() and repo.worktrees == ()
    assert locate.find_repo(outer).root == outer.resolve()
