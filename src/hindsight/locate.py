"""Where the repository is: its main checkout and every worktree, from git alone (each agent's own
folder rules live beside its reader in sources/)."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from hindsight.errors import HindsightError
from hindsight.record import Value


class Repo(Value):
    """The main checkout and every linked worktree; a plain folder is its own single root."""

    _fields = ("root", "worktrees", "is_git")
    root: Path
    worktrees: tuple[Path, ...]
    is_git: bool

    def __init__(self, root: Path, worktrees: tuple[Path, ...] = (), is_git: bool = True) -> None:
        self.root = root
        self.worktrees = worktrees
        self.is_git = is_git

    @property
    def roots(self) -> tuple[Path, ...]:
        return (self.root, *[w for w in self.worktrees if w != self.root])

    def owns(self, cwd: str) -> bool:
        """True when ``cwd`` is a root, a worktree, or a folder below one of them."""
        return _owns(self.roots, cwd)


@functools.lru_cache(maxsize=1024)
def _owns(roots: tuple[Path, ...], cwd: str) -> bool:
    # Cached: a repo's transcripts carry a handful of cwds, asked about once a file.
    path = Path(cwd)
    return any(path == r or r in path.parents for r in roots)


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def find_repo(start: Path) -> Repo:
    """The main repository root from any folder inside it or any linked worktree."""
    start = start.expanduser()
    if not start.is_dir():
        raise HindsightError(f"--repo {start}: no such folder")
    start = start.resolve()
    # One git call in the common case (each costs a fork and ~1 ms of git): the main worktree is
    # always listed first, then the linked ones.
    listing = _git(start, "worktree", "list", "--porcelain")
    trees = [
        Path(line[9:]) for line in (listing or "").splitlines() if line.startswith("worktree ")
    ]
    if listing is None or not trees:
        return Repo(start, (), is_git=False)
    root = trees[0]
    if not _is_bare_entry(listing, root) and not (root / ".git").exists():
        # A submodule: git lists its git folder (.git/modules/<name>) as the main worktree.
        top = _git(start, "rev-parse", "--show-toplevel")
        root = Path(top.strip()) if top else start
    worktrees = tuple(t for t in trees[1:] if t != root and not _is_bare_entry(listing, t))
    return Repo(root, worktrees)


def _is_bare_entry(listing: str, tree: Path) -> bool:
    block = listing.split(f"worktree {tree}\n", 1)
    return len(block) == 2 and block[1].split("\n\n", 1)[0].startswith("bare")
