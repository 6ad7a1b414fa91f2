"""hindsight review through a real pseudo-terminal, on the shipped example's real lessons: what
the person answers is what happens, and nothing but a terminal can answer."""

from __future__ import annotations

import json
import os
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from conftest import example_options, run_cli
from hindsight import example, ledger
from hindsight.memory import START, key_of_line

NOW = {"HINDSIGHT_NOW": "2026-12-02T10:00:00Z"}
DAY = "2026-12-02"
REASON = "installs `fastjsonx`, which no manifest declares"
PROMPT = "[q]uit? "


class Inbox(NamedTuple):
    options: list[str]
    memory: Path  # the memory folder
    order: list[ledger.Lesson]  # the waiting lessons, in the order review asks
    strong: set[str]  # ids of those a run would put in memory: held only by waiting


def cli(inbox: Inbox, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, *inbox.options, env=NOW, stdin=stdin)


def rows(memory: Path) -> dict[str, ledger.Lesson]:
    return {x.id: x for x in ledger.Ledger(memory).all()}


def snapshot(memory: Path) -> tuple[bytes, list[tuple[object, ...]]]:
    """MEMORY.md's bytes and every row of the ledger, its history and meta included."""
    conn = sqlite3.connect(f"{(memory / 'hindsight' / 'ledger.sqlite').as_uri()}?mode=ro", uri=True)
    try:
        table = [
            row
            for name in ("lessons", "history", "meta")
            for row in conn.execute(f"SELECT * FROM {name} ORDER BY 1, 2")
        ]
    finally:
        conn.close()
    return (memory / "MEMORY.md").read_bytes(), table


def entries(memory: Path) -> list[str]:
    return [x for x in (memory / "MEMORY.md").read_text().split("\n") if x.startswith("- **")]


def line_of(lesson: ledger.Lesson, title: str | None = None, body: str | None = None) -> str:
    return f"- **{title or lesson.title}** ({DAY}) {body or lesson.body} [{lesson.kind}]"


@pytest.fixture
def inbox(tmp_path: Path) -> Inbox:
    """The example run, then three of its lessons held for review as the guard holds them: two
    the run put in memory (their lines out of the block), one it left in the report."""
    ex = example.install(tmp_path)
    options = example_options(tmp_path, ex)
    done = run_cli("run", "--since", "3650d", *options, env=NOW)
    assert done.returncode == 0, done.stderr
    memory = tmp_path / "memory"
    known = sorted(ledger.Ledger(memory).all(), key=lambda x: x.id)
    strong = [x for x in known if x.state == ledger.MEMORY][:2]
    weak = [x for x in known if x.state == ledger.REPORT][:1]
    path = memory / "MEMORY.md"
    keys = {x.key for x in strong}
    kept = [x for x in path.read_text().split("\n") if not (x and key_of_line(x) in keys)]
    path.write_text("\n".join(kept))
    ledger.Ledger(memory).apply(
        [ledger.op(x.key, DAY, "test", state=ledger.WAITING, reason=REASON) for x in strong + weak]
    )
    order = [x for x in ledger.Ledger(memory).all() if x.state == ledger.WAITING]
    assert len(order) == 3
    return Inbox(options, memory, order, {x.id for x in strong})


_STARTED: list[subprocess.Popen[bytes]] = []


@pytest.fixture(autouse=True)
def _no_review_left_running() -> Iterator[None]:
    """A test that fails halfway leaves no review waiting on its terminal."""
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


class Terminal:
    """``hindsight review`` with its standard input and output on a pseudo-terminal, as a
    person's shell runs it; standard error apart."""

    def __init__(self, options: list[str], stdout_too: bool = True) -> None:
        env = {**os.environ, **NOW}
        for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
            env.pop(name, None)
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hindsight", "review", *options],
            stdin=slave,
            stdout=slave if stdout_too else subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        _STARTED.append(self.proc)
        os.close(slave)
        self.seen = ""
        self.at = 0

    def _read(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        try:
            data = os.read(self.master, 4096)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        self.seen += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return bool(data)

    def expect(self, text: str, timeout: float = 20.0) -> str:
        """What the terminal showed up to and including ``text``, from where the last expect
        left off."""
        deadline = time.monotonic() + timeout
        while text not in self.seen[self.at :]:
            if not self._read(deadline):
                raise AssertionError(f"never saw {text!r}; the terminal showed {self.seen!r}")
        end = self.seen.index(text, self.at) + len(text)
        shown, self.at = self.seen[self.at : end], end
        return shown

    def answer(self, *lines: str) -> None:
        """Each line typed after its prompt (the terminal echoes it)."""
        for line in lines:
            os.write(self.master, f"{line}\n".encode())

    def end_of_input(self) -> None:
        os.write(self.master, b"\x04")  # Ctrl-D at the start of a line

    def finish(self, timeout: float = 20.0) -> tuple[int, str, str]:
        deadline = time.monotonic() + timeout
        while self._read(deadline):
            pass
        code = self.proc.wait(timeout=timeout)
        err = self.proc.stderr.read().decode() if self.proc.stderr else ""
        os.close(self.master)
        return code, self.seen[self.at :], err


def test_accept_puts_the_entry_on_top_as_the_persons_choice(inbox: Inbox) -> None:
    first, *rest = inbox.order
    term = Terminal(inbox.options)
    shown = term.expect(PROMPT)
    # As its memory entry would read, why it waits, its evidence keys and the sessions cited.
    assert f"1 of 3  (id {first.id}, waiting since {DAY})" in shown
    assert f"  {line_of(first)}\n" in shown
    assert f"  why it waits: {REASON}\n" in shown
    assert f"  evidence: {', '.join(first.evidence)}\n" in shown
    assert "  sessions: claude-code `" in shown and ".jsonl:" in shown
    assert f"  history: {DAY} " in shown and f"; {DAY} waiting (test)\n" in shown
    term.answer("a")
    assert f"accepted into memory: {first.title}" in term.expect(PROMPT)
    term.answer("q")
    code, out, err = term.finish()
    assert (code, err) == (0, "")
    assert out.endswith("\naccepted 1, edited 0, rejected 0, forgotten 0, skipped 2\n")
    text = (inbox.memory / "MEMORY.md").read_text()
    assert text.split("\n")[:2] == [START, line_of(first)]  # on top
    now = rows(inbox.memory)
    assert (now[first.id].state, now[first.id].origin) == (ledger.MEMORY, ledger.ACCEPTED)
    assert [now[x.id].state for x in rest] == [ledger.WAITING, ledger.WAITING]
    assert ledger.Ledger(inbox.memory).history(first.id)[-1][1] == ledger.MEMORY


def test_edit_accepts_the_edited_title_and_body_an_empty_line_keeping_the_old(
    inbox: Inbox,
) -> None:
    first, second, third = inbox.order
    term = Terminal(inbox.options)
    term.expect(PROMPT)
    term.answer("e")
    term.expect("title (empty keeps it): ")
    term.answer("Tests need the fast JSON parser")
    term.expect("body (empty keeps it): ")
    term.answer("")
    term.expect(PROMPT)
    term.answer("e")
    term.expect("title (empty keeps it): ")
    term.answer("")
    term.expect("body (empty keeps it): ")
    term.answer("Checked by hand: the Makefile defines it.")
    term.expect(PROMPT)
    term.answer("s")
    code, out, err = term.finish()
    assert (code, err) == (0, "")
    assert out.endswith("\naccepted 0, edited 2, rejected 0, forgotten 0, skipped 1\n")
    top = entries(inbox.memory)[:2]
    assert top == [
        line_of(second, body="Checked by hand: the Makefile defines it."),
        line_of(first, title="Tests need the fast JSON parser"),
    ]
    now = rows(inbox.memory)
    renamed = ledger.Ledger(inbox.memory).find("Tests need the fast JSON parser")
    assert (renamed.state, renamed.origin, renamed.body) == (ledger.MEMORY, "accepted", first.body)
    assert now[first.id].state == ledger.REMOVED  # the old title is the same lesson, taken in
    assert (now[second.id].state, now[second.id].origin) == (ledger.MEMORY, ledger.ACCEPTED)
    assert now[third.id].state == ledger.WAITING


def test_reject_keeps_it_in_the_report_and_forget_keeps_it_out_of_memory_for_good(
    inbox: Inbox,
) -> None:
    forget = next(x for x in inbox.order if x.id in inbox.strong)
    skip = next(x for x in inbox.order if x.id in inbox.strong and x is not forget)
    reject = next(x for x in inbox.order if x.id not in inbox.strong)
    answers = {forget.id: "f", skip.id: "s", reject.id: "r"}
    before = entries(inbox.memory)
    term = Terminal(inbox.options)
    for lesson in inbox.order:
        term.expect(PROMPT)
        term.answer(answers[lesson.id])
    code, out, err = term.finish()
    assert (code, err) == (0, "")
    assert out.endswith("\naccepted 0, edited 0, rejected 1, forgotten 1, skipped 1\n")
    assert entries(inbox.memory) == before
    now = rows(inbox.memory)
    assert now[reject.id].state == ledger.REPORT
    assert ledger.Ledger(inbox.memory).history(reject.id)[-1][2] == "rejected in review"
    assert now[forget.id].state == ledger.FORGOTTEN
    assert now[skip.id].state == ledger.WAITING
    # The same sessions read again as new: the forgotten lesson, strong enough for memory, stays
    # out; the skipped one still waits and the run says so.
    (inbox.memory / "hindsight" / "state.json").unlink()
    done = cli(inbox, "run", "--since", "3650d")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("\n1 lesson waits for your review: hindsight review\n")
    titles = "\n".join(entries(inbox.memory))
    assert f"**{forget.title}**" not in titles and f"**{skip.title}**" not in titles
    now = rows(inbox.memory)
    assert (now[forget.id].state, now[skip.id].state) == (ledger.FORGOTTEN, ledger.WAITING)


def test_skip_a_wrong_answer_asked_again_and_end_of_input_leave_everything_as_it_was(
    inbox: Inbox,
) -> None:
    # A lesson's words come from sessions: an escape sequence in them is shown, never obeyed.
    first = inbox.order[0]
    hostile = "\x1b[2K\x1b[1Ahidden\u202e"
    ledger.Ledger(inbox.memory).apply(
        [ledger.op(first.key, DAY, "test", body=f"{first.body} {hostile}", reason=hostile)]
    )
    before = snapshot(inbox.memory)
    term = Terminal(inbox.options)
    shown = term.expect(PROMPT)
    assert "\x1b" not in shown and "\u202e" not in shown
    assert f"  - **{first.title}** ({DAY}) {first.body} [2K [1Ahidden [{first.kind}]\n" in shown
    assert "  why it waits: \\x1b[2K\\x1b[1Ahidden\\u202e\n" in shown
    term.answer("s")
    term.expect(PROMPT)
    term.answer("yes please")
    assert "answer a, e, r, f, s or q" in term.expect(PROMPT)
    term.end_of_input()
    code, out, err = term.finish()
    assert (code, err) == (0, "")
    assert out.endswith("\naccepted 0, edited 0, rejected 0, forgotten 0, skipped 3\n")
    assert snapshot(inbox.memory) == before


def test_quit_leaves_the_rest_as_it_was(inbox: Inbox) -> None:
    term = Terminal(inbox.options)
    term.expect(PROMPT)
    term.answer("r")
    term.expect(PROMPT)
    term.answer("q")
    code, out, _ = term.finish()
    assert code == 0
    assert out.endswith("\naccepted 0, edited 0, rejected 1, forgotten 0, skipped 2\n")
    now = rows(inbox.memory)
    assert [now[x.id].state for x in inbox.order] == [ledger.REPORT, ledger.WAITING, ledger.WAITING]


@pytest.mark.parametrize("typed", ["", "a\n", "a\na\na\n"], ids=["nothing", "a", "a-a-a"])
def test_without_a_terminal_it_refuses_in_one_line_and_changes_nothing(
    inbox: Inbox, typed: str
) -> None:
    before = snapshot(inbox.memory)
    done = cli(inbox, "review", stdin=typed)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "terminal" in done.stderr
    assert "hindsight review --json" in done.stderr
    assert snapshot(inbox.memory) == before
    # A terminal on standard input alone is no more a person at one than a pipe is.
    term = Terminal(inbox.options, stdout_too=False)
    term.answer("a")
    code, _, err = term.finish()
    assert code == 1 and err.count("\n") == 1 and "terminal" in err
    assert snapshot(inbox.memory) == before


def test_json_lists_exactly_what_waits_and_changes_nothing(inbox: Inbox) -> None:
    before = snapshot(inbox.memory)
    done = cli(inbox, "review", "--json", stdin="a\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "waiting": [
            {
                "id": x.id,
                "title": x.title,
                "body": x.body,
                "kind": x.kind,
                "reason": REASON,
                "evidence": list(x.evidence),
            }
            for x in inbox.order
        ]
    }
    assert snapshot(inbox.memory) == before


def test_status_and_run_say_how_many_wait(inbox: Inbox) -> None:
    done = cli(inbox, "status")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("\n3 lessons wait for your review: hindsight review\n")
    status = json.loads(cli(inbox, "status", "--json").stdout)
    assert status["waiting"] == 3
    summary = json.loads(cli(inbox, "run", "--json").stdout)
    assert summary["waiting"] == 3


def test_nothing_waiting_is_said_on_a_terminal(tmp_path: Path) -> None:
    ex = example.install(tmp_path)
    options = example_options(tmp_path, ex)
    done = run_cli("run", "--since", "3650d", "--json", *options, env=NOW)
    assert done.returncode == 0 and json.loads(done.stdout)["waiting"] == 0
    assert "wait for your review" not in run_cli("status", *options, env=NOW).stdout
    code, out, err = Terminal(options).finish()
    assert (code, out, err) == (0, "nothing waits for your review\n", "")
