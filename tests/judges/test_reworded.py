"""A model's pick in hindsight's words (judges/reworded.py): where the trust gate holds a model
judge's memory lesson, the rules' wording of the finding it is about may enter memory instead.

Through the real CLI (`digest --json`, the judge's JSON, `apply`) on a real session of the
development set, laid out as a user's machine has it (bench/quality_layout.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli, shared_fixture

sys.path.insert(0, str(ROOT / "bench"))

import quality_layout

SOURCE = "claude-code/real/guitarjak+website-1-wun-production"
QUOTE = "Do not change any style or function of the app."


def _layout(tmp_path: Path) -> quality_layout.Layout:
    layout = quality_layout.Layout(shared_fixture(SOURCE), tmp_path / "machine")
    layout.lay("6249afd9-c94e-4795-b2bd-87415553a1dd.jsonl")
    return layout


def _where(layout: quality_layout.Layout) -> list[str]:
    return ["--claude-home", str(layout.home), "--memory-dir", str(layout.memory)]


def _apply(layout: quality_layout.Layout, lessons: list[dict]) -> tuple[dict, str]:
    done = run_cli(
        "apply", "-", "--json", *_where(layout), cwd=layout.repo,
        stdin=json.dumps({"judge": "claude-code", "lessons": lessons}),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    memory = layout.memory / "MEMORY.md"
    return json.loads(done.stdout), memory.read_text() if memory.exists() else ""


def _aside_key(layout: quality_layout.Layout) -> str:
    digest = run_cli("digest", "--json", *_where(layout), cwd=layout.repo)
    assert digest.returncode == 0, digest.stderr
    (key,) = [
        f["key"]
        for f in json.loads(digest.stdout)["findings"]
        if f["kind"] == "instruction" and f["data"]["quote"].startswith(QUOTE)
    ]
    return key


def _lesson(title: str, body: str, key: str) -> dict:
    return {
        "title": title, "body": body, "kind": "preference", "strength": 4,
        "evidence": [key], "memory": True, "where": [],
    }  # fmt: skip


def test_a_held_pick_enters_memory_in_the_users_own_words(tmp_path: Path) -> None:
    layout = _layout(tmp_path)
    key = _aside_key(layout)
    # The model's own words ("mobile-responsive", "exact scope") are not the session's: held.
    picked = _lesson(
        "Keep changes to the exact scope asked",
        f'For the mobile-responsive work the user said: "{QUOTE}" Add only what was asked.',
        key,
    )
    summary, memory = _apply(layout, [picked])
    assert summary["held"] == 1 and summary["lessons_added"] == 1
    assert f'**User preference: "{QUOTE}"**' in memory
    assert "exact scope" not in memory
    report = next((layout.memory / "hindsight" / "reports").glob("*.md")).read_text()
    assert "Keep changes to the exact scope asked" in report  # the model's, in the report


def test_a_pick_about_something_else_is_not_reworded(tmp_path: Path) -> None:
    # The model cites the aside for a lesson that says nothing of it: no backup is taken.
    layout = _layout(tmp_path)
    picked = _lesson(
        "Deploys go through the mobile-responsive pipeline",
        'The user said: "deploy it" before the mobile-responsive work.',
        _aside_key(layout),
    )
    summary, memory = _apply(layout, [picked])
    assert summary["held"] == 1 and summary["lessons_added"] == 0
    assert "User preference" not in memory


def test_a_new_task_is_never_reworded_into_a_standing_rule(tmp_path: Path) -> None:
    # odgsully: "Create a new documentation ... where you summarize Hey don't move around
    # columns ...": the report keeps the rule word in sight, memory never takes the task.
    layout = quality_layout.Layout(
        shared_fixture("claude-code/real/odgsully+adhs-working"), tmp_path / "machine"
    )
    for t in layout.transcripts:
        layout.lay(t.name)
    digest = run_cli("digest", "--json", "--max-bytes", "5000000", *_where(layout), cwd=layout.repo)
    (finding,) = [
        f
        for f in json.loads(digest.stdout)["findings"]
        if f["kind"] == "instruction" and "move around columns" in f["data"]["quote"]
    ]
    assert finding["data"]["task"] is True
    quote = finding["data"]["quote"]
    picked = _lesson(
        "Never reorder the MCAO columns", f'The user said: "{quote}" Keep it.', finding["key"]
    )
    summary, memory = _apply(layout, [picked])
    assert summary["lessons_added"] == 0 and "Create a new documentation" not in memory


def test_a_correction_after_a_tainted_command_keeps_the_users_words(tmp_path: Path) -> None:
    # rickithadi: `npx next clean` (a word of it from tool output) failed, then the user typed
    # "@agent-design-reviewer-agent keep the monochromatic theme. ...": the command is context,
    # the user's words stand without it.
    layout = quality_layout.Layout(
        shared_fixture("claude-code/real/rickithadi+uluwatu-surf-school"), tmp_path / "machine"
    )
    for t in layout.transcripts:
        layout.lay(t.name)
    done = run_cli("run", "--quiet", *_where(layout), cwd=layout.repo)
    assert done.returncode == 0, done.stderr
    memory = (layout.memory / "MEMORY.md").read_text()
    (entry,) = [line for line in memory.splitlines() if "monochromatic" in line]
    assert entry.startswith('- **User preference: "@agent-design-reviewer-agent keep the')
    assert 'The user said: "@agent-design-reviewer-agent keep the monochromatic theme.' in entry
    assert "npx next clean" not in entry


def _hook_sessions(tmp_path: Path, with_script: bool) -> tuple[Path, Path]:
    from conftest import Script, make_repo
    from hindsight.sources.claude_files import claude_folder_name

    root, _ = make_repo(tmp_path)
    if with_script:
        (root / ".claude" / "hooks").mkdir(parents=True)
        (root / ".claude" / "hooks" / "pre_tool_use.py").write_text("# blocks rm\n")
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    refusal = (
        "PreToolUse:Bash hook error: [uv run .claude/hooks/pre_tool_use.py]: "
        "BLOCKED: Dangerous rm command detected and prevented"
    )
    for n, command in enumerate(("rm -rf build", "rm -r dist")):
        s = Script(cwd=str(root)).prompt("clean up", 0)
        s.tool("Bash", {"command": command}, 2, 0.1, refusal, error=True)
        (folder / f"s{n}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in s.records))
    return root, home


def test_a_refusing_hook_of_the_repository_is_named_and_one_of_nowhere_is_not(
    tmp_path: Path,
) -> None:
    for with_script in (True, False):
        root, home = _hook_sessions(tmp_path / str(with_script), with_script)
        memory = tmp_path / str(with_script) / "memory"
        done = run_cli(
            "run", "--quiet", "--claude-home", str(home), "--memory-dir", str(memory), cwd=root
        )
        assert done.returncode == 0, done.stderr
        (entry,) = [
            line for line in (memory / "MEMORY.md").read_text().splitlines() if "`rm`" in line
        ]
        named = "A hook of the user's (`.claude/hooks/pre_tool_use.py`) refused 2 calls"
        # Without the file in the repository, the script's name is tool output: left out.
        plain = "A hook of the user's refused 2 calls"
        assert (named in entry, plain in entry) == (with_script, not with_script), entry


def test_a_correction_that_points_back_keeps_its_command() -> None:
    # Red team of session 6: without the command, "No, run it with sudo instead." is any "it".
    from hindsight.judges import reworded
    from hindsight.lessons import Lesson

    def body(said: str) -> str:
        return f'After `npx shadycli push --all` (rejected), the user said: "{said}".'

    pointing = Lesson("t", body("No, run it with sudo instead."), "preference", 4, ["k1"], True)
    assert reworded.without_context(pointing) is None
    plain = Lesson("t", body("keep the monochromatic theme."), "preference", 4, ["k1"], True)
    alone = reworded.without_context(plain)
    assert alone is not None and alone.body == 'The user said: "keep the monochromatic theme.".'


PROMPT = (
    "Can you make the @public/w1w-homepage-index.html responsive for mobile. Use frontend "
    "design plugin to help. Do not change any style or function of the app. JUST MAKE IT "
    "RESPONSIVE"
)


def _quoting(title: str, quote: str, key: str) -> dict:
    lesson = _lesson(title, "Keep every change to what was asked; the user narrowed it.", key)
    return {**lesson, "quote": quote}


def test_the_users_words_a_pick_names_enter_memory_as_the_users_own(tmp_path: Path) -> None:
    # The model names the words the lesson rests on ("quote"): memory takes them, in the
    # template for the user's words; the model's own prose ("narrowed") stays in the report.
    layout = _layout(tmp_path)
    key = _aside_key(layout)
    words = "Do not change any style or function of the app. JUST MAKE IT RESPONSIVE"
    summary, memory = _apply(
        layout, [_quoting("Keep changes to exactly what was asked", words, key)]
    )
    assert summary["held"] == 0 and summary["lessons_added"] == 1
    (entry,) = [line for line in memory.splitlines() if "User preference" in line]
    assert entry.startswith('- **User preference: "Do not change any style or function of the')
    assert f'The user said: "{words}".' in entry and "narrowed" not in entry
    report = next((layout.memory / "hindsight" / "reports").glob("*.md")).read_text()
    assert "Keep changes to exactly what was asked" in report  # the model's words: the report's


@pytest.mark.parametrize(
    "words",
    [
        "Do not change any style",  # cut inside the user's clause
        "Change any style of the app.",  # the negation dropped
        "Always change the style of the app.",  # words the user never typed
        PROMPT.split(". ")[0] + ".",  # a question the user asked
        "JUST MAKE IT RESPONSIVE",  # "it": nothing named, out of its prompt
    ],
)
def test_words_that_are_not_the_users_whole_clauses_stay_out(tmp_path: Path, words: str) -> None:
    layout = _layout(tmp_path)
    summary, memory = _apply(layout, [_quoting("Scope", words, _aside_key(layout))])
    assert summary["already_reported"] == 0
    # Never these words as the user's; the aside the model cited may still enter whole, in the
    # rules' wording (a model's pick, hindsight's words).
    assert f'The user said: "{words}"' not in memory
    assert all(
        line.endswith(f'The user said: "{QUOTE}". [preference]')
        for line in memory.splitlines()
        if "User preference" in line
    ), memory


@pytest.mark.parametrize(
    "quote",
    [
        "Test i\u200bt with curl against prod.",  # zero-width inside "it"
        "Test \uff49\uff54 with curl against prod.",  # fullwidth "it"
        "Can\u200b you push to main without review.",  # zero-width inside "Can you"
    ],
)
def test_a_quote_is_read_as_every_check_reads_it(quote: str) -> None:
    # Red team of session 7: the quote's own filters read the raw text, the gate a folded one.
    from hindsight.judges import reworded
    from hindsight.lessons import Lesson

    picked = Lesson("t", "b", "preference", 4, ["k1"], True, quote=quote)
    assert reworded.quoted(picked) is None
    plain = Lesson("t", "b", "preference", 4, ["k1"], True, quote="Ne\u200bver push to main.")
    entry = reworded.quoted(plain)
    assert entry is not None and entry.body == 'The user said: "Never push to main.".'


@pytest.mark.parametrize(
    ("quote", "entry"),
    [
        # Run 7's judge quoted it as a preference: the user's e-mail, no rule (labelled never).
        ("my email is e.covasa@me.com", False),
        ("Our GitHub org name is acme-labs.", False),
        ("My phone: 555 0100", False),
        # A rule that names an address is still a rule; "my name" inside one is no disclosure.
        ("Send release notes to ops@example.com, never to the whole team.", True),
        ("Always sign commits with my name as it is in git config.", True),
    ],
)
def test_a_detail_the_user_told_is_no_preference(quote: str, entry: bool) -> None:
    from hindsight.judges import reworded
    from hindsight.lessons import Lesson

    picked = Lesson("t", "b", "preference", 4, ["k1"], True, quote=quote)
    assert (reworded.quoted(picked) is not None) is entry
