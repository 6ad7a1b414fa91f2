"""Every output redacts, whatever wrote the file it shows: a block, archive or hook log left by an
older version (or typed by hand) may hold a secret. Reading follows no link out of the folder.
And the two false redactions of #12 stay fixed."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli
from guard.fakes import ALNUM, Fakes
from hindsight.memory import END, START

F = Fakes(21)
GHP = "ghp_" + F.s(ALNUM, 36)
PW = F.word_password()


def _old_block(folder: Path) -> bytes:
    """A block as an older version wrote it: a token and a password in plain text."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (
        "# my notes\nkeep: the deploy key lives in 1Password\n\n"
        f"{START}\n"
        f"- **Clone with a token** (2026-11-01) `git clone https://{GHP}@github.com/acme/x` worked [fix]\n"
        f"- **Staging db** (2026-11-02) `psql postgres://admin:{PW}@db/app` [reference]\n"
        f"{END}\n"
    )
    (folder / "MEMORY.md").write_text(text)
    return text.encode()


def test_memory_show_and_check_redact_an_old_block(tmp_path: Path) -> None:
    folder = tmp_path / "mem"
    before = _old_block(folder)
    shown = run_cli("memory", "show", "--memory-dir", str(folder))
    as_json = run_cli("memory", "show", "--json", "--memory-dir", str(folder))
    check = run_cli("memory", "check", "--memory-dir", str(folder))
    for done in (shown, as_json, check):
        out = done.stdout + done.stderr
        assert GHP not in out and PW not in out
    assert shown.stdout.splitlines()[0] == (
        "- **Clone with a token** (2026-11-01) `git clone https://[REDACTED:github_token]@github.com/acme/x` worked [fix]"
    )
    assert (folder / "MEMORY.md").read_bytes() == before  # showing changes nothing


def test_prune_moves_entries_to_the_archive_redacted(tmp_path: Path) -> None:
    folder = tmp_path / "mem"
    _old_block(folder)
    done = run_cli("memory", "prune", "--max-bytes", "60", "--memory-dir", str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pruned 2 entries to ")
    archive = (folder / "MEMORY.archive.md").read_text()
    assert GHP not in archive and PW not in archive
    assert (
        "- **Staging db** (2026-11-02) `psql postgres://[REDACTED:url_credentials]@db/app` [reference]"
        in archive.splitlines()
    )
    assert (folder / "MEMORY.md").read_text().startswith("# my notes\n")


def test_status_redacts_the_hook_log(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    folder = tmp_path / "mem"
    (folder / "hindsight").mkdir(parents=True)
    (folder / "hindsight" / "hook.log").write_text(
        f"2026-11-01T10:00:00Z run failed: git push https://{GHP}@github.com/acme/x\n"
    )
    where = ["--memory-dir", str(folder), "--claude-home", str(tmp_path / "home")]
    (tmp_path / "home").mkdir()
    for args in (["status"], ["status", "--json"]):
        done = run_cli(*args, *where, cwd=root)
        assert done.returncode == 0, done.stderr
        assert GHP not in done.stdout and "[REDACTED:github_token]" in done.stdout
    doc = json.loads(run_cli("status", "--json", *where, cwd=root).stdout)
    assert doc["hook_log"] == [
        "2026-11-01T10:00:00Z run failed: git push https://[REDACTED:github_token]@github.com/acme/x"
    ]


def test_status_follows_no_link_out_of_the_memory_folder(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    folder = tmp_path / "mem"
    (folder / "hindsight").mkdir(parents=True)
    private = tmp_path / "id_rsa"
    private.write_text("a private file the hook log must not show\n")
    (folder / "hindsight" / "hook.log").symlink_to(private)
    (tmp_path / "home").mkdir()
    where = ["--memory-dir", str(folder), "--claude-home", str(tmp_path / "home")]
    done = run_cli("status", *where, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "a private file" not in done.stdout
    assert "hook log   (not shown: " in done.stdout and "is a symbolic link" in done.stdout


def test_a_missing_passwd_path_is_not_redacted(tmp_path: Path) -> None:
    """#12: `--repo /etc/passwd` printed '[REDACTED:password] such folder'."""
    missing = tmp_path / "etc" / "passwd"
    done = run_cli("status", "--repo", str(missing))
    assert done.returncode == 1
    assert done.stderr == f"hindsight: error: --repo {missing}: no such folder\n"


def test_a_body_that_mentions_password_is_stored_as_typed(tmp_path: Path) -> None:
    """#12: the body was stored as 'password: [REDACTED:password] auth/reset.py'."""
    folder = tmp_path / "mem"
    done = run_cli(
        "memory", "add", "--memory-dir", str(folder), "--title", "Reset flow",
        "--body", "password: see auth/reset.py", env={"HINDSIGHT_NOW": "2026-11-30T12:00:00Z"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = run_cli("memory", "show", "--memory-dir", str(folder)).stdout
    assert shown == "- **Reset flow** (2026-11-30) password: see auth/reset.py [trap]\n"
    # while a real value after the same words is still redacted
    done = run_cli(
        "memory", "add", "--memory-dir", str(folder), "--title", "Db login",
        "--body", f"password: {PW}", env={"HINDSIGHT_NOW": "2026-11-30T12:00:00Z"},
    )  # fmt: skip
    assert PW not in (folder / "MEMORY.md").read_text()
