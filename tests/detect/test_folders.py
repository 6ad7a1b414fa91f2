"""A relative `cd` that failed because an earlier Bash call had moved the shell (detect/folders.py)."""

from __future__ import annotations

from pathlib import Path

from conftest import Script, real_session, session_from_records
from hindsight.detect import Options, folders, run_all
from hindsight.judges.rules import RulesJudge

TITLE = "A `cd` persists between Bash calls here: use absolute paths"


def test_a_second_cd_into_the_folder_the_shell_is_in_is_a_verified_trap() -> None:
    # dirvine (1.0.77, zsh): `cd crates/saorsa-core && cargo clippy`, then the same `cd` again
    # fails "(eval):cd:1: no such file or directory"; the record's cwd is crates/saorsa-core.
    sess = real_session("dirvine+saorsa-core", "1d4d240a")
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {"step": "cd crates/saorsa-core", "folder": "crates/saorsa-core", "already_there": True}
    ]
    (lesson,) = [x for x in RulesJudge().judge(run_all([sess])).lessons if x.title == TITLE]
    assert lesson.memory and lesson.kind == "trap"
    assert lesson.body.startswith("`cd crates/saorsa-core` failed from inside it: ")


def test_a_cd_into_a_sibling_names_where_the_shell_stood() -> None:
    # Johannes0501 (2.1.90, bash): after `cd api-shrooms`, `cd openshrooly` fails; a later
    # `cd /home/jh/development/shrooms/openshrooly` works: the fix and the trap are one lesson.
    sess = real_session("Johannes0501+openshrooly", "5ecdf49b")
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"][0] == {
        "step": "cd openshrooly",
        "folder": "api-shrooms",
        "already_there": False,
    }
    lessons = RulesJudge().judge(run_all([sess])).lessons
    (lesson,) = [x for x in lessons if x.title == TITLE]
    assert lesson.body.startswith("`cd openshrooly` failed from `api-shrooms`: ")
    # The fix of the same failure (`cd /abs/openshrooly`) is the report's: one memory entry.
    assert [x.title for x in lessons if x.memory and "openshrooly" in x.title + x.body] == [TITLE]
    assert any(x.kind == "fix" and "openshrooly" in x.title and not x.memory for x in lessons)


def _script(tmp_path: Path, *, moved: str | None, target: str = "web") -> object:
    script = Script("/repo")
    script.prompt("build the web app", 0)
    script.bash("cd web && npm run build", 10)
    if moved is not None:
        script.cwd = moved  # Claude Code writes the shell's folder on every record
    script.bash(
        f"cd {target} && npm test",
        20,
        code=1,
        output=f"/bin/bash: line 1: cd: {target}: No such file or directory",
    )
    return session_from_records(tmp_path, script.records)


def test_a_cd_that_failed_from_the_sessions_own_folder_is_no_stale_folder(tmp_path: Path) -> None:
    # The record's cwd never moved: the folder is missing, not the shell elsewhere.
    assert list(folders.stale_folders([_script(tmp_path, moved=None)], Options())) == []


def test_a_folder_no_record_shows_the_shell_in_is_not_claimed(tmp_path: Path) -> None:
    # The shell stood in web/, but `cd api` names a folder no record shows: maybe it never
    # existed, so nothing says a `cd` from the root would have worked.
    sess = _script(tmp_path, moved="/repo/web", target="api")
    assert list(folders.stale_folders([sess], Options())) == []


def test_the_shell_left_in_the_folder_it_cds_into(tmp_path: Path) -> None:
    (found,) = folders.stale_folders([_script(tmp_path, moved="/repo/web")], Options())
    assert found.data["examples"] == [{"step": "cd web", "folder": "web", "already_there": True}]
    assert found.strength == 4


def test_an_absolute_cd_is_never_stale(tmp_path: Path) -> None:
    sess = _script(tmp_path, moved="/repo/web", target="/repo/web")
    assert list(folders.stale_folders([sess], Options())) == []


def test_a_path_that_works_from_the_root_fails_where_the_shell_stood() -> None:
    # greg-phillips (2.0.x): `./scripts/fc1 ...` ran from the root; after `cd
    # Fleet-Connect-1/build` it fails with 127 "No such file or directory"; `git add scripts/fc1`
    # from iMatrix/ fails "pathspec 'scripts/fc1' did not match any files".
    sessions = [
        real_session("greg-phillips+iMatrix_src", prefix)
        for prefix in ("0a45ad5f", "544eb189", "8e272239", "e77efb82")
    ]
    examples = [e for f in folders.stale_folders(sessions, Options()) for e in f.data["examples"]]
    assert {"path": "scripts/fc1", "folder": "Fleet-Connect-1/build"}.items() <= next(
        e for e in examples if e.get("path") == "scripts/fc1"
    ).items()
    lessons = [x for x in RulesJudge().judge(run_all(sessions)).lessons if x.title == TITLE]
    assert (
        len(lessons) == 1
        and "`scripts/fc1` was not found from `Fleet-Connect-1/build` (it is relative to the repository root)"
        in lessons[0].body
    )


def test_a_path_the_error_does_not_name_is_not_claimed(tmp_path: Path) -> None:
    script = Script("/repo")
    script.bash("./scripts/deploy.sh --check", 5)  # works from the root
    script.cwd = "/repo/web"
    script.bash("./scripts/deploy.sh --check", 20, code=1, output="deploy: config missing")
    sess = session_from_records(tmp_path, script.records)
    assert list(folders.stale_folders([sess], Options())) == []
    script.bash(
        "./scripts/deploy.sh --check",
        30,
        code=127,
        output="/bin/bash: line 1: ./scripts/deploy.sh: No such file or directory",
    )
    sess = session_from_records(tmp_path, script.records, "second")
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {
            "step": "./scripts/deploy.sh --check",
            "folder": "web",
            "already_there": False,
            "path": "scripts/deploy.sh",
        }
    ]


def test_the_digest_shows_the_trap_never_the_error_lines_it_covers(tmp_path: Path) -> None:
    # The finding keeps the signatures of the failures it explains (a normalized error line:
    # tool output); the digest, text and JSON, shows the examples and nothing of those.
    sess = real_session("dirvine+saorsa-core", "1d4d240a")
    (found,) = folders.stale_folders([sess], Options())
    assert any("no such file or directory" in c for c in found.data["covers"])
    from hindsight import digest

    text = digest._finding_md(found)
    assert "examples:" in text and "covers" not in text and "no such file" not in text
    assert "covers" not in digest._public(found)["data"]


def test_a_file_tools_relative_path_fails_where_the_shell_stood() -> None:
    # jacksontwodotai (1.0.x): `cd frontend && timeout 10s npm run dev ...` leaves the shell in
    # frontend/ (the records' cwd); a search of `server.js` then fails "Path does not exist:
    # server.js" (line 413), the file the agent had searched as `server.js` from the root
    # (lines 97, 103, 189; its Read at line 88 failed: too large).
    sess = real_session("jacksontwodotai+GamePlanPro", "8f30b6da")
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {"step": "server.js", "folder": "frontend", "already_there": False, "path": "server.js"}
    ]
    assert [w.line for w in found.where] == [413]
    (lesson,) = [x for x in RulesJudge().judge(run_all([sess])).lessons if x.title == TITLE]
    assert lesson.memory and lesson.kind == "trap"
    assert lesson.body.startswith(
        "`server.js` was not found from `frontend` (it is relative to the repository root): "
    )


def _search_script(tmp_path: Path, *, read_first: bool, output: str, error: bool = True) -> object:
    script = Script("/repo")
    if read_first:  # the file read by its absolute path, the shell at the root
        script.tool("Read", {"file_path": "/repo/server.js"}, 0, 1, "1\tconst app = 1")
    script.bash("cd web && npm run dev", 10)
    script.cwd = "/repo/web"
    script.tool("Grep", {"pattern": "app", "path": "server.js"}, 20, 1, output, error=error)
    return session_from_records(tmp_path, script.records)


_MISSING = "<tool_use_error>Path does not exist: server.js</tool_use_error>"


def test_a_search_that_missed_a_root_file_from_a_subfolder(tmp_path: Path) -> None:
    sess = _search_script(tmp_path, read_first=True, output=_MISSING)
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {"step": "server.js", "folder": "web", "already_there": False, "path": "server.js"}
    ]


def test_a_relative_path_never_used_from_the_root_is_not_claimed(tmp_path: Path) -> None:
    # Nothing shows server.js at the root: maybe it exists nowhere.
    sess = _search_script(tmp_path, read_first=False, output=_MISSING)
    assert list(folders.stale_folders([sess], Options())) == []


def test_a_file_tools_error_that_does_not_name_the_path_is_not_claimed(tmp_path: Path) -> None:
    sess = _search_script(
        tmp_path, read_first=True, output="<tool_use_error>Invalid regex</tool_use_error>"
    )
    assert list(folders.stale_folders([sess], Options())) == []


def test_a_relative_path_a_file_tool_used_from_the_root_is_known(tmp_path: Path) -> None:
    # Searched as `server.js` with the shell at the root, then searched again from web/; a
    # relative search that worked from web/ (app.js) says nothing of the root: its failure
    # from api/ is not claimed.
    script = Script("/repo")
    script.tool("Grep", {"pattern": "app", "path": "server.js"}, 0, 1, "server.js:1:app")
    script.bash("cd web && npm run dev", 10)
    script.cwd = "/repo/web"
    script.tool("Grep", {"pattern": "app", "path": "app.js"}, 15, 1, "app.js:1:app")
    script.tool("Grep", {"pattern": "x", "path": "server.js"}, 20, 1, _MISSING, error=True)
    missing_app = _MISSING.replace("server.js", "app.js")
    script.cwd = "/repo/api"
    script.tool("Grep", {"pattern": "x", "path": "app.js"}, 30, 1, missing_app, error=True)
    sess = session_from_records(tmp_path, script.records)
    (found,) = folders.stale_folders([sess], Options())
    assert [e["path"] for e in found.data["examples"]] == ["server.js"]


def test_a_hook_named_by_a_relative_path_fails_where_the_shell_stood() -> None:
    # FrancoEscob (1.0.112, a resumed session): the hooks run `uv run .claude/hooks/*.py`; they
    # complete while the records put the shell at the root (post_tool_use.py line 373, stop.py
    # line 354); after `cd /.../X-DEMO/frontend` (line 357) the records put it there and both
    # fail to start (lines 376, 386). The refusals copied at the resume carry the root as their
    # cwd (written then), so only the records written at the time count; user_prompt_submit.py
    # never completed anywhere the records show, so it is not claimed.
    sess = real_session("FrancoEscob+nexus-dmeo", "5aab28de")
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {
            "folder": "X-DEMO/frontend",
            "already_there": False,
            "hook": ".claude/hooks/post_tool_use.py",
        },
        {"folder": "X-DEMO/frontend", "already_there": False, "hook": ".claude/hooks/stop.py"},
    ]
    assert [w.line for w in found.where] == [376, 386]
    assert found.data["covers"] == []
    (lesson,) = [x for x in RulesJudge().judge(run_all([sess])).lessons if x.title == TITLE]
    assert lesson.memory and lesson.kind == "trap"
    assert lesson.body == (
        "the hook `.claude/hooks/post_tool_use.py` could not be found from `X-DEMO/frontend` (it "
        "ran from the repository root); the hook `.claude/hooks/stop.py` could not be found from "
        "`X-DEMO/frontend` (it ran from the repository root): Bash calls share one shell, so the "
        "folder an earlier `cd` moved to stays. Use absolute paths, or `cd` back to the "
        "repository root first. Hooks run in that folder too, so one named by a relative path "
        "fails there."
    )
    # What the hooks printed stays out of memory: hindsight's words and the script's path only.
    assert "spawn" not in lesson.body and "No such file" not in lesson.body


_SPAWN = (
    "Bash operation blocked by hook:\n- [{hook}]: error: Failed to spawn: `{script}`\n"
    "  Caused by: No such file or directory (os error 2)\n"
)


def _hook_script(
    tmp_path: Path,
    *,
    hook: str = "uv run .claude/hooks/check.py",
    worked: bool = True,
    moved: str | None = "/repo/web",
    said: str | None = None,
) -> object:
    script = Script("/repo")
    if worked:  # the harness's record of the hook completing, the shell at the root
        script.records.append(
            {
                **script._base("system", 1),
                "subtype": "informational",
                "content": f"\x1b[1mPreToolUse:Bash\x1b[22m [{hook}] completed successfully",
                "level": "info",
            }
        )
    script.bash("cd web && npm run build", 2)
    if moved is not None:
        script.cwd = moved
    output = said or _SPAWN.format(hook=hook, script=".claude/hooks/check.py")
    script.tool("Bash", {"command": "npm test"}, 10, 1, output, error=True)
    return session_from_records(tmp_path, script.records)


def test_a_hook_refusal_where_the_shell_stood_is_a_stale_folder(tmp_path: Path) -> None:
    sess = _hook_script(tmp_path)
    assert [(h.command, h.ok, h.cwd) for h in sess.hooks] == [
        ("uv run .claude/hooks/check.py", True, None),
        ("uv run .claude/hooks/check.py", False, "/repo/web"),
    ]
    (found,) = folders.stale_folders([sess], Options())
    assert found.data["examples"] == [
        {"folder": "web", "already_there": False, "hook": ".claude/hooks/check.py"}
    ]


def test_a_hook_never_seen_completing_from_the_root_is_not_claimed(tmp_path: Path) -> None:
    # Nothing shows the script anywhere: maybe it was never written.
    assert list(folders.stale_folders([_hook_script(tmp_path, worked=False)], Options())) == []


def test_a_hook_that_failed_from_the_root_is_not_claimed(tmp_path: Path) -> None:
    assert list(folders.stale_folders([_hook_script(tmp_path, moved=None)], Options())) == []


def test_a_hook_that_moves_to_its_folder_or_names_an_absolute_path_is_not_claimed(
    tmp_path: Path,
) -> None:
    for hook in (
        "sh -c 'cd /repo && uv run .claude/hooks/check.py'",
        "uv run /repo/.claude/hooks/check.py",
        "uv run $CLAUDE_PROJECT_DIR/.claude/hooks/check.py",
    ):
        sess = _hook_script(tmp_path, hook=hook)
        assert list(folders.stale_folders([sess], Options())) == [], hook


def test_a_hook_that_refused_on_its_own_rule_is_not_claimed(tmp_path: Path) -> None:
    # The hook ran and said no: its rule, not the folder.
    said = "Bash operation blocked by hook:\n- [uv run .claude/hooks/check.py]: BLOCKED: no rm\n"
    assert list(folders.stale_folders([_hook_script(tmp_path, said=said)], Options())) == []
