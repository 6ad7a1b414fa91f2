"""hindsight scrub through the real CLI: what older versions wrote, redacted in place, the rest
byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from guard.fakes import ALNUM, Fakes
from hindsight.memory import END, START

F = Fakes(41)
GHP = "ghp_" + F.s(ALNUM, 36)
AKIA = "AKIA" + F.s("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
PW = F.word_password()
OUTSIDE = f"# my notes\r\nmy own token, kept as I wrote it: {GHP}\r\n\xff\xfe raw bytes\r\n".encode(
    "latin-1"
)


def _old_files(mem: Path) -> dict[str, bytes]:
    (mem / "hindsight" / "reports").mkdir(parents=True)
    files = {
        "MEMORY.md": OUTSIDE
        + (
            f"{START}\r\n- **Push** (2026-11-01) `git push https://{GHP}@github.com/a/b` [fix]\r\n"
            f"- **Make** (2026-11-01) use `make check` [fix]\r\n{END}\r\nafter the block\r\n"
        ).encode(),
        "MEMORY.archive.md": f"\n## Archived 2026-11-02\n\n- **Db** (2026-10-01) password: {PW} [trap]\n".encode(),
        "hindsight/reports/2026-11-01.md": f"## 10:00 run\n\n1. **Aws**\n   `AWS_ACCESS_KEY_ID={AKIA} aws s3 ls`\n".encode(),
        "hindsight/reports/2026-11-02.md": b"## 10:00 run\n\nnothing secret here\n",
        "hindsight/state.json": json.dumps(
            {"version": 2, "reported": ["k1"], "last_run": {"ok": False, "error": f"token {GHP}"}},
            indent=2,
        ).encode()
        + b"\n",
        "hindsight/hook.log": f"2026-11-01T10:00:00Z run failed: curl -u bot:{PW} x\n".encode(),
    }
    for name, data in files.items():
        (mem / name).write_bytes(data)
    return files


def test_scrub_dry_run_then_in_place(tmp_path: Path) -> None:
    mem = tmp_path / "mem"
    files = _old_files(mem)
    dry = run_cli("scrub", "--dry-run", "--memory-dir", str(mem))
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.splitlines() == [
        f"{mem}/MEMORY.md: would redact 1 (github_token 1)",
        f"{mem}/MEMORY.archive.md: would redact 1 (password 1)",
        f"{mem}/hindsight/reports/2026-11-01.md: would redact 1 (aws_access_key_id 1)",
        f"{mem}/hindsight/state.json: would redact 1 (github_token 1)",
        f"{mem}/hindsight/hook.log: would redact 1 (password 1)",
    ]
    assert {n: (mem / n).read_bytes() for n in files} == files  # a dry run writes nothing

    done = run_cli("scrub", "--json", "--memory-dir", str(mem))
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["dry_run"] is False
    assert [(Path(f["path"]).name, f["redacted"]) for f in doc["files"]] == [
        ("MEMORY.md", 1),
        ("MEMORY.archive.md", 1),
        ("2026-11-01.md", 1),
        ("state.json", 1),
        ("hook.log", 1),
    ]
    memory = (mem / "MEMORY.md").read_bytes()
    assert memory.startswith(OUTSIDE)  # the user's own notes, secret and all, untouched
    assert (
        memory[len(OUTSIDE) :]
        == (
            f"{START}\r\n- **Push** (2026-11-01) `git push https://[REDACTED:github_token]@github.com/a/b` [fix]\r\n"
            f"- **Make** (2026-11-01) use `make check` [fix]\r\n{END}\r\nafter the block\r\n"
        ).encode()
    )
    assert (
        (mem / "MEMORY.archive.md")
        .read_text()
        .endswith("- **Db** (2026-10-01) password: [REDACTED:password] [trap]\n")
    )
    assert AKIA not in (mem / "hindsight/reports/2026-11-01.md").read_text()
    assert (mem / "hindsight/reports/2026-11-02.md").read_bytes() == files[
        "hindsight/reports/2026-11-02.md"
    ]
    state = json.loads((mem / "hindsight/state.json").read_text())
    assert state["last_run"]["error"] == "token [REDACTED:github_token]"
    assert state["reported"] == ["k1"]
    assert PW not in (mem / "hindsight/hook.log").read_text()
    again = run_cli("scrub", "--memory-dir", str(mem))
    assert again.stdout == f"nothing to scrub in {mem}\n"


def test_scrub_refuses_a_link_and_a_broken_block(tmp_path: Path) -> None:
    mem = tmp_path / "mem"
    (mem / "hindsight").mkdir(parents=True)
    outside = tmp_path / "elsewhere.log"
    outside.write_text(f"token {GHP}\n")
    (mem / "hindsight" / "hook.log").symlink_to(outside)
    done = run_cli("scrub", "--memory-dir", str(mem))
    assert done.returncode == 1
    assert done.stderr.endswith("is a symbolic link; hindsight does not read through links\n")
    assert outside.read_text() == f"token {GHP}\n"
    (mem / "hindsight" / "hook.log").unlink()
    broken = f"{START}\n- **x** (2026-11-01) {GHP} [fix]\n".encode()
    (mem / "MEMORY.md").write_bytes(broken)
    done = run_cli("scrub", "--memory-dir", str(mem))
    assert done.returncode == 1 and done.stderr.startswith("hindsight: error: ")
    assert (mem / "MEMORY.md").read_bytes() == broken
