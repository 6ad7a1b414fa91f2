"""What the people and the agent said: corrections, unfinished work, decisions, dead ends."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight import fmt
from hindsight import session as s
from hindsight.detect import Finding, Options, evidence_key, shell, steps
from hindsight.detect.streams import main_stream, relative, shell_events, tool_of

# "don't" addresses the agent where a clause opens with it ("- do NOT break UI", "so you don't
# have to", "we don't make calls"); after a thing's name it describes that thing ("new events do
# not appear", "counts don't match"): a task's problem statement, not a rule.
_ADDRESSED = r"(?:^|[^\w\s'’]\s*|\b(?:i|we|you|please|pls|just|and|but|so|then|also|still|to|hey|ok|okay|now|yes|yeah|oh|well)\s+)"
_REDIRECT = re.compile(
    r"^\s*(?:no\b|nope\b|stop\b|wrong\b|not that\b|instead\b|never\b|please use\b|use\b)"
    rf"|{_ADDRESSED}(?:don'?t|do not)\b(?! (?:have|need) to\b)"
    r"|\binstead\b|\bshould(?:n'?t| not)\b|\brather\b",
    re.I,
)
# "no" or "wrong" alone says this turn went wrong ("no the gh actions still failed, try
# again"); a redirect says how to work, so after such an opener another rule word must follow.
_WEAK_OPENER = re.compile(r"^\W*(?:no|nope|wrong|not that)\b[\W_]*", re.I)
_KEEP = re.compile(r"\bkeep (?:it|things|them|the|using)\b", re.I)
# A question asks for a way ("how can i install it for the user instead of per project"); it
# rules nothing, even where it carries "instead".
_ASKS = re.compile(
    r"\?\s*$|,\s*(?:right|correct|ok(?:ay)?|yes|no|true)\W*$|^\W*i(?:'m)? (?:wonder|am not sure)\b"
    r"|^\W*(?:(?:wait|hmm+|ok(?:ay)?|so|and|but|also|hey|actually)\W+)?"
    r"(?:how|what|why|where|when|which|who|whose|did|does|is|are|was|were|"
    r"(?:do|have|should|shall) (?:i|we|you)|(?:can|could) (?:i|we)|"
    r"(?:would|will) (?:it|that|this)\b)\b",
    re.I,
)
# A new task ("Create a new documentation for this called ...md"): its "don't" scopes that task.
_NEW_TASK = re.compile(
    r"^\W*(?:(?:please|pls|now|ok(?:ay)?|also|and|then)\W+)?"
    r"(?:create|add|build|implement|generate|draft|write)\s+(?:a|an|me|new)\b",
    re.I,
)
# Text the harness puts in the user's turn: hook feedback, continuation summaries, API errors.
_HARNESS = re.compile(
    r"^\s*(?:Stop hook feedback|\w+ hook (?:feedback|error)|This session is being continued|"
    r"\[Request interrupted|API Error|<[a-z])",
    re.I,
)
# Words that make what the user typed a standing rule rather than this turn's task, in the
# languages of the development set (English, Spanish, Italian) and a few close ones.
# Words that make a rule hold every time, wherever the prompt says them (English, Spanish,
# Italian, French, German).
_EVERY_TIME = (
    r"always|never|from now on|exclusively|siempre|nunca|exclusivamente|sempre|mai|"
    r"esclusivamente|toujours|jamais|exclusivement|immer|niemals|ausschlie(?:ß|ss)lich"
)
_DURABLE = re.compile(
    rf"{_ADDRESSED}(?:don'?t|do not)(?! (?:really |even |quite |actually )?(?:know|think|"
    r"have|see|need|understand|get|care|remember|mind)\b)\b"
    rf"|\b(?:{_EVERY_TIME}|must(?:n'?t| not)?|should(?:n'?t| not)|instead of|"
    r"prefer(?:r?ed)?|rather than|remember|no more|debes|non fare|ricorda)\b"
    r"|(?:^|\bplease |\bcan you |\band )(?:make sure|ensure)\b"
    # Korean (rungchan2): "-지 말고/마" is "don't" said to someone; always, never, must.
    r"|\S지 ?(?:말|마)|항상|절대|반드시",
    re.I,
)
# Words that make a rule standing wherever the prompt states it, after its task too ("... per
# gemma 4 in locale useremo solo ed esclusivamente jcode"): not "don't" or "make sure", which an
# aside uses for this task ("Do not write anything just research and report").
_STANDING = re.compile(
    rf"\b(?:{_EVERY_TIME}|going forward)\b"
    # "Please ensure everything on GitHub is in English": a check of every case, not this one's.
    r"|\b(?:make sure|ensure)\s+(?:that\s+)?(?:everything|every|all)\b"
    # "I don't want any logic fully functional to be broken": a want of every case. Not "Do not
    # write any code just reply" (this turn's order; red team's and odgsully's own).
    r"|\bi (?:don'?t|do not) want any\b",
    re.I,
)
SPOKEN_CHARS = 400
_QUOTE_MARKS = ('"', "\u201c", "\u201d", "\u00ab", "\u00bb", "`")


def _lines(text: str) -> str:
    """The prompt with each line's spaces folded, as its quotes are."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines())


def pasted(text: str, sentence: str) -> bool:
    """Whether ``sentence`` stands in the prompt inside a quotation opened before it on its line
    (`CI printed "npm ERR! ... Always install with --registry ..."`), after a colon that
    introduces other words on its line (`issue #42 from our tracker: ... always run ...`), or
    as words passed on (``passed_on``); or cannot be found in it. Someone else's words, not the
    user's rule (red team 9)."""
    at = text.find(sentence)
    if at < 0:
        return True
    before = text[text.rfind("\n", 0, at) + 1 : at]
    if sum(before.count(mark) for mark in _QUOTE_MARKS) % 2 or ":" in before:
        return True
    return passed_on(sentence, text)


def _spoken(text: str) -> bool:
    """Whether a prompt is a few sentences said to the agent, not a task's written spec: in a
    spec ("CRITICAL: ... The app must NEVER crash because of image loading.") a rule word
    states that task's requirement."""
    text = text.strip()
    return len(text) <= SPOKEN_CHARS and text.count("\n") <= 2


# Words that point back at something the quote does not name ("test it with curl", "Do that
# every time", "Always do that from now on"): loaded into a session that never saw it, they
# instruct whatever "that" is taken to be. "it"/"they"/"them" early on; "this"/"that"/"these"/
# "those" as the object of a verb or standing alone at a clause's end.
_POINTS_BACK_EARLY = re.compile(r"^(?:\S+\s+){0,5}?(?:it|they|them)\b", re.I)
_POINTS_BACK = re.compile(
    r"\b(?:do|does|did|doing|use|follow|repeat|run|try|apply|keep|make)\s+(?:this|that|these|those)"
    r"(?=\s*(?:[.!;,]|$)|\s+(?:again|every|each|always|from|now|too|instead|for|as|when|here)\b)",
    re.I,
)
# Words someone else wrote, passed on: "..., says CONTRIBUTING.md", "the README says: ...",
# a pasted issue's "Title:"/"Body:" fields, a log line ("[ci-bot] ...", "12:01:33 ...").
_ATTRIBUTED = re.compile(
    r",\s*(?:says|said|writes|wrote|according to|per)\b|\b(?:says|said|writes|wrote)\s*:",
    re.I,
)
_PASTE_INTRO = re.compile(
    r"\b(?:logs?|output|errors?|issue|trace(?:back)?|message|says|here is|here's|below|"
    r"following|pasted|ci)\b",
    re.I,
)
_PASTED_LINE = re.compile(
    r"^\s*(?:\[[^\]\n]{1,40}\]|\d{1,2}:\d{2}|>|(?:title|body|subject|from|to)\s*:)", re.I
)


def asks(sentence: str) -> bool:
    """Whether a sentence of the user's asks rather than rules ("?" or a question's shape)."""
    return _ASKS.search(sentence) is not None


def points_back(text: str, pronouns: bool = True) -> bool:
    """Whether the user's words lean on something they do not name: "do that", "that every
    time"; with ``pronouns``, an "it"/"they"/"them" among the first six words too (a model's
    pick out of its prompt; the rules judge names what "they" was where the prompt does)."""
    return _POINTS_BACK.search(text) is not None or (
        pronouns and _POINTS_BACK_EARLY.search(text) is not None
    )


def passed_on(quote: str, prompt: str) -> bool:
    """Whether ``quote`` stands in ``prompt`` as someone else's words the user passed on: in
    quotation marks, attributed ("says"), on a pasted log or issue line, or below a line that
    introduces a paste ("here is the CI log:"). Every place it stands must be so."""
    found = False
    for at in _occurrences(quote, prompt):
        found = True
        line_start = prompt.rfind("\n", 0, at) + 1
        line_end = prompt.find("\n", at)
        line = prompt[line_start : len(prompt) if line_end < 0 else line_end]
        before = prompt[line_start:at].rstrip()
        after = prompt[at + len(quote) :]
        above = prompt[:line_start].rstrip()
        intro = above.endswith(":") and _PASTE_INTRO.search(above[above.rfind("\n") + 1 :])
        quoted = before.endswith(("'", '"', "\u201c", "\u2018", "`")) or before.endswith(":")
        if not (
            quoted
            or _ATTRIBUTED.search(before + quote + after[:40])
            or _PASTED_LINE.match(line)
            or intro
        ):
            return False
    return found


def _occurrences(quote: str, prompt: str) -> Iterator[int]:
    start = prompt.find(quote)
    while start >= 0:
        yield start
        start = prompt.find(quote, start + 1)


# A request for this turn's work ("Can you make the page responsive"), not "can you make sure".
_REQUEST = re.compile(
    r"^\W*(?:(?:please|ok(?:ay)?|so|and|also|hey)\W+)?(?:can|could|would|will) you\b(?! make sure\b)",
    re.I,
)


def asks_or_assigns(text: str) -> bool:
    """Whether the user's words open as a question, a request for this turn's work or a new
    task: words that rule nothing beyond it, whatever rule word they hold."""
    first = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return any(p.search(first) for p in (_ASKS, _REQUEST, _NEW_TASK))


# The user telling a detail of theirs ("my email is ...", "our org name is acme"): a fact this
# turn needed, no rule, and personal data memory has no use for.
_DISCLOSES = re.compile(
    r"^\W*(?:my|our)\s+(?:[\w-]+\s+){0,2}(?:e-?mail|phone|number|address|name|user\s?name|"
    r"handle|account|id)(?:\s+is\b|\s*[=:])",
    re.I,
)


def discloses(text: str) -> bool:
    """Whether the user's words open by telling a detail of theirs: a fact, not a rule."""
    return bool(_DISCLOSES.search(text))


# Asking is not ruling: a question's "should" or "always" asks about the rule.
_QUESTION = re.compile(r"\?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
QUOTE_CHARS = 200


def said(text: str, cue: re.Pattern[str] = _REDIRECT) -> str | None:
    """What the user said that redirects the agent: the prompt's opening sentences up to the one
    that carries a redirecting word, within 200 characters (a long paste after them is context,
    not the instruction); None when the opening holds no such word or the harness wrote it."""
    if _HARNESS.match(text):
        return None
    quote = ""
    for n, sentence in enumerate(_SENTENCE_END.split(text.strip())):
        if n and cue is _DURABLE:
            return None  # a standing rule is what the prompt opens with, not an aside after it
        quote = f"{quote} {sentence}".strip()
        if len(quote) > QUOTE_CHARS:
            return None
        if cue is _REDIRECT:
            if _redirects(sentence):
                return " ".join(quote.split())
        elif cue.search(sentence) and not (
            cue is _DURABLE and (_ASKS.search(sentence) or _NEW_TASK.match(sentence))
        ):
            return " ".join(quote.split())
    return None


def _redirects(sentence: str) -> bool:
    """Whether a sentence typed after trouble tells the agent how to work: not a question, not a
    new task, and more than a bare "no" (a retry or a report of the outcome is this turn's)."""
    if _ASKS.search(sentence) or _NEW_TASK.match(sentence):
        return False
    rest = _WEAK_OPENER.sub("", sentence, count=1)
    if rest == sentence:
        return _REDIRECT.search(sentence) is not None
    return any(p.search(rest) for p in (_REDIRECT, _DURABLE, _KEEP))


_DECISION = re.compile(
    r"\binstead of\b|\brather than\b|\bdecided to\b|\bI'll use\b|\bswitch(?:ing|ed)? to\b|"
    r"\bI (?:wrongly )?assumed\b|\bturns out\b|\bmy assumption\b|\bchose\b",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
# A cheap scan first (plain substring tests on the lowered text): the sentence patterns are costly
# on long assistant texts, and most texts hold none of these words.
_DECISION_HINTS = (
    "instead of",
    "rather than",
    "decided to",
    "i'll use",
    "switch",
    "assumed",
    "turns out",
    "assumption",
    "chose",
)
_BECAUSE = re.compile(r"\b(?:because|since|as|so that)\b", re.I)
_REMOVE = re.compile(r"^\s*(?:rm\s+(?:-\w+\s+)*|git\s+(?:checkout\s+--|restore)\s+)(.+)$")
_UNINSTALL = re.compile(
    r"\b(?:pip3?|npm|pnpm|yarn|cargo|poetry|uv)\s+(?:uninstall|remove|rm)\s+(?:-\S+\s+)*([\w@/.\-]+)"
)
_INSTALL = re.compile(
    r"\b(?:pip3?|npm|pnpm|yarn|cargo|poetry|uv)\s+(?:install|add|i)\s+(?:-\S+\s+)*([\w@/.\-=<>]+)"
)


def _troubled(call: s.ToolCall) -> bool:
    return call.status in (s.ERROR, s.REJECTED, s.INTERRUPTED, s.BLOCKED) or call.failed


def _put_right(call: s.ToolCall, later: list[s.Event]) -> bool:
    """Whether a call that failed on its own was put right later in the same turn: the same job
    (a shell step's program and subcommand; another tool on the same files) passed after it. The
    user's next words are then about the turn's outcome, not a reaction to that failure. A call
    the user refused or stopped, or a harness refused, stays trouble: that is the user's doing."""
    if call.status != s.ERROR:
        return False
    if call.command:
        job = shell.job(steps.failing(call.command, call.output)[0])
        return any(
            e.tool.command and not e.tool.failed and job in steps.jobs(e.tool.command)
            for e in later
            if e.tool and e.tool.status == s.OK
        )
    return bool(call.paths) and any(
        e.tool.name == call.name and e.tool.paths == call.paths and not e.tool.failed
        for e in later
        if e.tool and e.tool.status == s.OK
    )


def _trouble(turn: list[s.Event]) -> list[s.Event]:
    """The turn's failures, refusals and interrupts still standing when it ended."""
    return [
        e
        for n, e in enumerate(turn)
        if e.kind == s.INTERRUPT
        or (e.tool and _troubled(e.tool) and not _put_right(e.tool, turn[n + 1 :]))
    ]


def _aside(text: str) -> str | None:
    """A sentence carrying a rule word later in a typed prompt (within its first 1,000
    characters), for the report."""
    if _HARNESS.match(text):
        return None
    # Not what the user pasted: a quoted block ("> ...") or a fenced one is somebody else's
    # words (an issue, a wiki page) that the prompt is about.
    typed = _FENCED.sub("\n", text.strip()[:1000])
    typed = "\n".join(line for line in typed.splitlines() if not line.lstrip().startswith(">"))
    for sentence in _SENTENCE_END.split(typed):
        if (
            len(sentence) <= QUOTE_CHARS
            and _DURABLE.search(sentence)
            and not _QUESTION.search(sentence)
        ):
            return " ".join(sentence.split())
    return None


_FENCED = re.compile(r"```.*?(?:```|$)", re.S)
_PRONOUN = re.compile(r"^\W*(?:they|them|it|its|this|that|these|those)\b", re.I)
_SPAN = re.compile(r"`([^`\n]{2,80})`")
_PATHLIKE = re.compile(r"^[\w.~-]*(?:/[\w.-]*)+$|^[\w-]+\.[A-Za-z]\w{0,7}$")


def _subject(turn: list[s.Event]) -> str | None:
    """What the agent's last words before a prompt were about: the one file or folder they named
    in a code span, or None."""
    said = next((e.text for e in reversed(turn) if e.kind == s.ASSISTANT and e.text), "")
    named = {str(span).strip() for span in _SPAN.findall(str(said))}
    paths = [name for name in named if _PATHLIKE.match(name)]
    # One only: of two files named, which one "they" means is a guess (red team, #10: the
    # first, a path the agent repeated from a file it read, was not the one the user meant).
    return paths[0] if len(paths) == 1 else None


def corrections(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """A typed prompt right after a failure, rejection or interrupt that redirects the agent."""
    for sess in sessions:
        stream = main_stream(sess)
        turn: list[s.Event] = []
        interrupts = 0
        for event in stream:
            if event.kind == s.INTERRUPT:
                interrupts += 1
            # A program's prompt (SDK) redirects the agent as a typed one would: found alike,
            # kept from memory by the trust gate (it is not the user's words).
            if event.kind not in (s.PROMPT, s.TASK):
                turn.append(event)
                continue
            trouble = _trouble(turn)
            # The user stopped their own request before the agent did anything and typed it
            # again: what they add scopes that task ("do not write anything, just report"),
            # it corrects nothing and rules nothing beyond it.
            amends = bool(trouble) and not any(e.kind in (s.TOOL, s.ASSISTANT) for e in turn)
            quote = said(event.text) if trouble and not amends else None
            rule = None if quote or amends else said(event.text, _DURABLE)
            aside = None if quote or rule else _aside(event.text)
            if rule or aside:
                # A rule typed without trouble before it: the user's own words. One the prompt
                # opens with stands; one in an aside may be this task's, and goes to the report.
                standing = bool(rule) or bool(
                    aside
                    and _STANDING.search(aside)
                    and _spoken(event.text)
                    and not asks_or_assigns(aside)
                    and not pasted(_lines(event.text), aside)
                )
                data: dict[str, object] = {"quote": rule or aside, "opening": standing}
                if aside and (_ASKS.search(aside) or _NEW_TASK.match(aside)):
                    # "how can i ... instead", "Create a new doc where ... don't ...": the
                    # report keeps the rule word in sight; no judge may make it a standing rule.
                    data["task"] = True
                if _PRONOUN.match(str(rule or aside)):
                    # "they should always be committed": a rule about what the agent just
                    # named. Name it too, or the rule means nothing to the next session.
                    about = _subject(turn)
                    if about:
                        data["about"] = about
                    else:
                        data["opening"] = False
                        data["task"] = True  # "It should always be bypassed": of what?
                yield Finding(
                    "instruction",
                    evidence_key("rule", sess.session_id, event.uuid or event.at.line),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    3 if rule else 2,
                    data,
                )
            if trouble and turn and quote:
                last = trouble[-1]
                what = (tool_of(last).command or tool_of(last).name) if last.tool else "interrupted"
                data = {
                    "quote": quote,
                    "after": fmt.clip(what, 160),
                    "after_status": tool_of(last).status if last.tool else s.INTERRUPTED,
                }
                if pasted(_lines(event.text), _SENTENCE_END.split(quote)[-1]):
                    data["pasted"] = True  # the error it answers, quoted: not the user's rule
                yield Finding(
                    "correction",
                    evidence_key("correct", sess.session_id, event.uuid or event.at.line),
                    sess.session_id,
                    [last.at, event.at],
                    event.ts,
                    4,
                    data,
                )
            turn = []
        if interrupts:
            yield Finding(
                "interrupts",
                evidence_key("interrupts", sess.session_id, interrupts),
                sess.session_id,
                [e.at for e in stream if e.kind == s.INTERRUPT][:6],
                None,
                1,
                {"count": interrupts},
            )


def unfinished(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Todos still open at the end, and sessions that ended on a failed command."""
    for sess in sessions:
        todos = [t for t in sess.final_todos() if t.get("status") in ("pending", "in_progress")]
        done = s.completed_later(sess, sessions) if todos else set()  # finished later: not open
        todos = [t for t in todos if t.get("content") not in done]
        if todos:
            last = [e for e in sess.events if e.kind == s.TODOS and e.subagent is None][-1]
            open_todos = [fmt.clip(t["content"], 160) for t in todos]
            yield Finding(
                "unfinished_todos",
                evidence_key("todos", sess.session_id, *sorted(open_todos)),
                sess.session_id,
                [last.at],
                last.ts,
                3,
                {"todos": open_todos, "statuses": [t["status"] for t in todos]},
            )
        tools = [e for e in main_stream(sess) if e.tool is not None]
        if (
            tools
            and tools[-1].tool
            and tools[-1].tool.status == s.ERROR
            and tools[-1].tool.is_shell
        ):
            call = tools[-1].tool
            data = {
                "command": call.command,
                "exit_code": call.exit_code,
                "error": shell.error_line(call.output),
            }
            yield Finding(
                "ended_on_error",
                evidence_key("ended", sess.session_id, call.id),
                sess.session_id,
                [tools[-1].at],
                tools[-1].ts,
                2,
                data,
                untrusted=("error",),
            )


def decisions(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """The agent's stated choices with their reason, and assumptions it corrected."""
    for sess in sessions:
        stream = main_stream(sess)
        shells = shell_events(stream)
        ended_well = not shells or not tool_of(shells[-1]).failed
        for event in stream:
            if event.kind != s.ASSISTANT:
                continue
            lowered = event.text.lower()
            if not any(hint in lowered for hint in _DECISION_HINTS):
                continue
            # Sentence by sentence: one pattern over a whole long text backtracks badly.
            for match in _SENTENCE.finditer(event.text):
                if not _DECISION.search(match.group(0)):
                    continue
                sentence = fmt.clip(match.group(0).strip(" -*"), 300)
                if len(sentence) < 20:
                    continue
                reasoned = bool(_BECAUSE.search(sentence))
                data = {"sentence": sentence, "reasoned": reasoned, "stuck": ended_well}
                yield Finding(
                    "decision",
                    evidence_key(
                        "decision", sess.session_id, event.uuid or event.at.line, match.start()
                    ),
                    sess.session_id,
                    [event.at],
                    event.ts,
                    3 if reasoned and ended_well else 2,
                    data,
                    untrusted=("sentence",),
                )


def abandoned(sessions: list[s.Session], opts: Options) -> Iterator[Finding]:
    """Approaches tried and dropped: a file written then removed or reverted, a library swapped."""
    for sess in sessions:
        written: dict[str, s.Event] = {}
        uninstalled: list[tuple[str, s.Event]] = []
        for event in main_stream(sess):
            call = event.tool
            if call is None or call.status != s.OK:
                continue
            if call.name in ("Write", "write_file") and isinstance(
                call.input.get("file_path"), str
            ):
                written[str(call.input["file_path"])] = event
            command = call.command or ""
            removed = _REMOVE.match(command) if "rm " in command or "git " in command else None
            if removed:
                for arg in removed.group(1).split():
                    for path, wrote in list(written.items()):
                        if path == arg or path.endswith("/" + arg.lstrip("./")):
                            data = {"path": relative(path, sess.cwd), "how": fmt.clip(command, 120)}
                            yield Finding(
                                "abandoned",
                                evidence_key(
                                    "abandon", sess.session_id, tool_of(wrote).id, call.id
                                ),
                                sess.session_id,
                                [wrote.at, event.at],
                                wrote.ts,
                                2,
                                data,
                            )
                            del written[path]
            gone = (
                _UNINSTALL.search(command)
                if "un" in command or "rem" in command or "rm" in command
                else None
            )
            if gone:
                uninstalled.append((gone.group(1), event))
            added = (
                _INSTALL.search(command)
                if uninstalled and ("install" in command or "add" in command)
                else None
            )
            if added and uninstalled:
                old, when = uninstalled.pop()
                data = {"dropped": old, "adopted": added.group(1), "how": fmt.clip(command, 120)}
                yield Finding(
                    "abandoned",
                    evidence_key("swap", sess.session_id, tool_of(when).id, call.id),
                    sess.session_id,
                    [when.at, event.at],
                    when.ts,
                    2,
                    data,
                )
