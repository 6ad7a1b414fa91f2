"""The digest's timeline: what a model judge needs to find a lesson, within the budget (#10)."""

from __future__ import annotations

from pathlib import Path

from conftest import Script, session_from_records
from hindsight import digest


def _session(tmp_path: Path):  # -> Session
    s = Script().prompt("do a pr instead of pushing, and never force-push", 0)
    s.bash(
        "npm run test:unit",
        1,
        2,
        2,
        "sh: -c: line 0: syntax error near unexpected token `('\nnpm ERR! code 2",
    )
    s.bash("npm test -- src/a.test.ts", 5, 2, 0, "PASS src/a.test.ts\nTests: 3 passed")
    s.say("The unquoted pattern is a sh syntax error; running one file works.", 8)
    s.tool("Write", {"file_path": "/repo/notes.md", "content": "x"}, 9, 1, "File created")
    return session_from_records(tmp_path, s.records)


def test_the_timeline_holds_the_users_words_the_failure_and_the_fix(tmp_path: Path) -> None:
    block, _ = digest._session_block(_session(tmp_path), 5)
    assert "user: do a pr instead of pushing, and never force-push" in block
    assert "$ npm run test:unit -> error exit 2 [d1]" in block
    assert "$ npm test -- src/a.test.ts -> ok [d2]" in block
    assert "agent: The unquoted pattern is a sh syntax error" in block
    assert "Write notes.md -> ok" in block  # an acknowledgement is not quoted
    # Tool output only inside the fenced DATA block, each excerpt under its mark.
    data = block.split("DATA (untrusted):\n", 1)[1]
    assert data.startswith("```\nd1: -c: line 0: syntax error near unexpected token")
    assert "d2: PASS src/a.test.ts | Tests: 3 passed" in data
    assert "syntax error" not in block.split("DATA (untrusted)")[0].split("agent:")[0]


def test_a_lower_level_drops_detail_and_the_marks_of_what_it_dropped(tmp_path: Path) -> None:
    block, shown = digest._session_block(_session(tmp_path), 1)
    assert shown == [
        "10:00:00 user: do a pr instead of pushing, and never force-push",
        "10:00:01 $ npm run test:unit -> error exit 2 [d1]",
    ]
    assert "d2:" not in block and "agent:" not in block


def _long(tmp_path: Path, name: str = "long", steps: int = 60):  # -> Session
    big = Script().prompt("build every step", 0)
    for n in range(steps):
        big.bash(f"make step{n}", n + 1, 1, 0, "ok\n" * 3 + "done " * 40)
    big.bash("make final", steps + 2, 1, 2, "make: *** No rule to make target 'final'.")
    return session_from_records(tmp_path, big.records, name)


def test_each_session_gets_a_fair_share_and_what_it_leaves_flows_on(tmp_path: Path) -> None:
    # One long session no longer pulls the others down, nor do they squeeze it out: a rank at a
    # time (what the user said and what failed, then what worked, ...), each session its share,
    # the small one's unused share going to the long one.
    small, long = _session(tmp_path), _long(tmp_path)
    whole = len(digest._session_block(small, 5)[0].encode())
    long_whole = len(digest._session_block(long, 5)[0].encode())
    room = 3 * whole
    (a, _), (b, shown) = digest._fit([small, long], room)
    assert len(a.encode()) + len(b.encode()) <= room < whole + long_whole
    assert len(a.encode()) + len(b.encode()) > room - 300  # the budget is used
    assert a.startswith(digest._session_block(small, 2)[0].split("Tool output")[0])
    assert "d1: -c: line 0: syntax error" in a
    assert shown[0] == "10:00:00 user: build every step"
    assert any("$ make final -> error exit 2 [d" in line for line in shown)
    assert "No rule to make target 'final'" in b
    # Nearest to what the user said or what failed first: not the steps halfway between.
    assert any("make step59 ->" in line for line in shown)
    assert not any("make step30 ->" in line for line in shown)


def test_the_newest_session_is_no_longer_left_out_by_an_old_long_one(tmp_path: Path) -> None:
    old, new = _long(tmp_path, "old", 200), _session(tmp_path)
    room = len(digest._session_block(old, 1)[0].encode()) + 400
    (_, _), (b, shown) = digest._fit([old, new], room)
    assert "user: do a pr instead of pushing, and never force-push" in b
    assert "$ npm run test:unit -> error exit 2 [d1]" in shown[1]


def test_what_a_fix_or_a_hidden_failure_printed_ranks_with_the_commands(tmp_path: Path) -> None:
    # SantiagoCoronado: the fix's "Quote created successfully"; greg-phillips: a build behind
    # `| tail` printing "No such file or directory" with exit 0.
    s = Script().bash("npx tsx scripts/create-quote.ts", 0, 1, 127, "sh: dotenv: not found")
    s.bash(
        "npx tsx scripts/create-quote.ts --id 4", 2, 1, 0, "ok\nid 4\nQuote created successfully"
    )
    s.bash("./build.sh 2>&1 | tail -5", 4, 1, 0, "/bin/bash: ./build.sh: No such file or directory")
    s.bash("ls", 6, 1, 0, "a\nb")
    sess = session_from_records(tmp_path, s.records)
    fix = frozenset({(str(sess.events[1].at.path), sess.events[1].at.line)})
    ranks = {ex[1].split(": ", 1)[1][:12]: ex[0] for _, _, ex in digest._items(sess, fix) if ex}
    assert ranks == {"dotenv: not ": 1, "ok | id 4 | ": 2, "/bin/bash: .": 2, "a | b": 5}


def test_the_words_a_user_typed_into_a_refusal_are_kept(tmp_path: Path) -> None:
    # pookNast: the user's answer to a refused call is in the refusal's text.
    s = Script().tool(
        "Write",
        {"file_path": "/repo/plan.md", "content": "x"},
        0,
        1,
        "The user doesn't want to proceed with this tool use. The tool use was rejected. To "
        "tell you how to proceed, the user said:\nGenerate the milestone contract first\n\n"
        "Note: The user's next message may contain a correction or preference.",
        error=True,
    )
    block, _ = digest._session_block(session_from_records(tmp_path, s.records), 1)
    assert "Generate the milestone contract first" in block


def test_findings_share_the_budget_per_session(tmp_path: Path) -> None:
    from hindsight.detect import Finding

    def finding(session: str, n: int) -> Finding:
        return Finding(
            "tool_error", f"k{session}{n}", session, [], None, 5 - n % 2, {"x": "y" * 200}
        )

    many = [finding("aaaa", n) for n in range(20)]
    one = [finding("bbbb", 0)]
    findings = many + one  # strongest first: the one of session b would come last
    texts = [digest._finding_md(f) + "\n" for f in findings]
    size = len(texts[0].encode())
    chosen = digest._share_findings(findings, texts, 5 * size)
    assert len(findings) - 1 in chosen  # session b's finding is in
    assert sorted(chosen) == [0, 1, 2, 3, 20]  # a's strongest four take the rest


def test_what_says_why_is_kept_from_a_failure_and_a_pass(tmp_path: Path) -> None:
    # AojdevStudio / odgsully / rickithadi: a hook's reason is on the line after its header;
    # a merge conflict and a coverage gate carry no error word; a test run sums up last.
    s = Script().bash(
        "rm -rf .next",
        0,
        1,
        2,
        "Bash operation blocked by hook:\n"
        "- [python3 .claude/hooks/pre_tool_use.py]: BLOCKED: Dangerous rm command detected",
    )
    s.bash(
        "git merge agent-1",
        3,
        1,
        1,
        "Auto-merging logs/stop.json\nCONFLICT (content): Merge conflict in logs/stop.json",
    )
    s.bash("npm test", 6, 1, 1, "PASS a\n" * 30 + "Tests: 2 failed, 40 passed")
    # A pass that printed its error (a background server's log, `|| true`).
    s.bash(
        "npm run dev || true",
        9,
        1,
        0,
        "> next dev\n> app@1\nstarting\nsh: next: command not found\nbye",
    )
    block, _ = digest._session_block(session_from_records(tmp_path, s.records), 5)
    assert "BLOCKED: Dangerous rm command detected" in block
    assert "CONFLICT (content): Merge conflict in logs/stop.json" in block
    assert "Tests: 2 failed, 40 passed" in block
    assert "next: command not found" in block
