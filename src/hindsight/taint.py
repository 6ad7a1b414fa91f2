"""Taint: which of a session's trusted pieces carry a token that first came from untrusted text.

The user's prompts are trusted; so are the agent's own actions (its commands, tool inputs, todos,
stated decisions), but only while they carry nothing they took from untrusted text (tool output,
file contents, web pages) earlier in the same session: a mirror host, a flag, a variable, a path,
a sentence the agent copied. A tainted piece cannot support a memory lesson. Being in the
repository clears a path, never a host or a sentence: a README can carry an injection too.
"""

from __future__ import annotations

import bisect
import codecs
import functools
import os
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

from hindsight import hosts
from hindsight import session as s
from hindsight.randomness import lazy

_FLAG = functools.cache(lambda: re.compile(r"(?<![\w-])--?[A-Za-z][\w-]{2,}(?:=\S+)?"))
_ASSIGN = functools.cache(lambda: re.compile(r"(?<![\w-])[A-Za-z_][A-Za-z0-9_]{2,}=[^\s'\"`;&|]*"))
_PATH = functools.cache(
    lambda: re.compile(r"(?<![\w:/.])(?:~|\.{1,2})?/?[\w.\-]+(?:/[\w.\-]+)+/?(?![\w/])")
)
# A word; each Han, kana or Hangul character counts as one (those scripts need no spaces).
_FILE = functools.cache(lambda: re.compile(r"(?<![\w./-])[\w-]{4,}\.[A-Za-z]\w{0,7}(?![\w/])"))
# A name joined by separators (a file, a branch, a target): words an attacker can smuggle in.
_NAME = functools.cache(lambda: re.compile(r"(?<![\w-])[^\W_]+(?:[_-][^\W_]+){2,}(?![\w-])"))
_WORD = functools.cache(
    lambda: re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W_]+")
)
SHORT_COPY = 4  # this many words in a row, said first by untrusted text, make a copied sentence
COPY_HEAD, COPY_TAIL = 6000, 2000  # what of each untrusted chunk sentence copies are sought in
# Tool inputs that are the agent's own choice and may be quoted by a lesson.
_INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "glob")


# Each ASCII byte that is no letter or digit (what ``[\W_]`` matches) as a space.
_ASCII_WORDS = bytes(c if chr(c).isalnum() else 32 for c in range(128)) + b" " * 128


def words(text: str) -> str:
    """The words of ``text``, casefolded and joined by single spaces (for copy checks)."""
    folded = text.casefold()
    if folded.isascii():  # a byte translate and a split in C: 4x faster than a substitution
        return " ".join(folded.encode("ascii").translate(_ASCII_WORDS).decode("ascii").split())
    return " ".join(_WORD().findall(folded))


def norm(text: str) -> str:
    """How pieces and quoted spans are compared: casefolded, spaces folded, backticks as quotes
    (judges write a backtick inside a code span as a quote), a clipping ellipsis dropped."""
    folded = text.casefold().replace("`", "'").replace('"', "'").replace("…", " ")
    return " ".join(folded.split())


@functools.lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[tuple[str, str], ...]:
    """(kind, token) pairs that can carry an attacker's choice into a command (cached: the same
    command recurs)."""
    return tuple(_tokens(text))


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    """(kind, token) pairs that can carry an attacker's choice into a command."""
    for host in hosts.find(text):
        yield "host", host
    for hit in _FLAG().finditer(text):
        yield (
            "flag",
            hit.group(0).split("=", 1)[0] if hit.group(0).startswith("--") else hit.group(0),
        )
    for hit in _ASSIGN().finditer(text):
        yield "variable", hit.group(0)
    for hit in _PATH().finditer(text):
        path = hit.group(0).rstrip("/")
        yield "path", path
        if len(name := path.rsplit("/", 1)[-1]) >= 8:
            yield "path", name  # a listing names the file alone; the agent adds the folder
    for hit in _FILE().finditer(text):
        yield "path", hit.group(0)
    for hit in _NAME().finditer(text):
        yield "name", hit.group(0)


_SEGMENTS = functools.cache(lambda: re.compile(r"\|\||&&|[|;&\n()]|\$\(|`"))
_BACKTICKS = functools.cache(lambda: re.compile(r"`([^`\n]+)`"))
_PLAIN_WORD = functools.cache(lambda: re.compile(r"[^\W_][\w.:+@-]*"))
_NUMBERISH = functools.cache(lambda: re.compile(r"[\d.,:+%-]*p?"))
_SHELL_PREFIX = frozenset(
    {"sudo", "env", "time", "command", "nice", "nohup", "exec", "builtin", "timeout", "xargs"}
)
# Programs whose next word names what to run, not how: ``npx X``, ``uv run X``, ``python -m X``.
_RUNNERS = frozenset({"npx", "uvx", "pnpx", "bunx", "pipx"})
# The subcommands of common tools: fixed by the tool, not chosen by whoever wrote the output
# (``git add``, ``npm install``); the words after them still count.
_SUBCOMMANDS: dict[str, frozenset[str]] = {
    name: frozenset(words.split())
    for names, words in (
        (
            "git",
            "add am apply bisect blame branch checkout cherry-pick clean clone commit config "
            "describe diff fetch format-patch grep init log ls-files ls-remote merge mv pull push "
            "rebase reflog remote reset restore revert rev-parse rm show stash status submodule "
            "switch tag worktree",
        ),
        (
            "npm pnpm yarn bun",
            "add audit build ci dlx exec i init install link list ls outdated pack publish "
            "remove rebuild run start t test uninstall update version x why",
        ),
        (
            "pip pip3 uv poetry pipenv pdm hatch",
            "add build check download freeze install list lock pip publish remove run show sync "
            "tree uninstall update venv wheel",
        ),
        ("cargo", "add bench build check clean clippy doc fmt install run test tree update"),
        ("go", "build clean env fmt generate get install list mod run test tidy vet work"),
        (
            "docker podman",
            "build compose down exec images inspect logs ps pull push restart rm rmi run start "
            "stop up",
        ),
        ("kubectl", "apply create delete describe edit exec get logs port-forward rollout"),
        ("gh", "api auth issue pr release repo run view list create checkout status"),
        (
            "python python3 py",
            "build coverage http.server json.tool mypy pip pytest ruff unittest venv",
        ),
        ("ruff", "analyze check clean config format rule server version"),
        ("next", "build dev export info lint start telemetry"),
        ("vite", "build dev optimize preview"),
        ("prisma", "db format generate init migrate studio validate"),
        ("supabase", "db functions gen init link login migration start status stop"),
        ("vercel", "build deploy dev env link login logs pull"),
        ("wrangler", "d1 deploy dev init kv login pages r2 secret tail whoami"),
        ("flutter dart", "analyze build clean create doctor format pub run test"),
        ("terraform tofu", "fmt init output plan validate"),
    )
    for name in names.split()
}
# Names git gives every clone (the session's branch, from the transcript, is trusted too).
_CONVENTIONS = ("origin", "upstream", "head", "main", "master")


def command_words(command: str) -> Iterator[tuple[str, str]]:
    """Every argument word and flag of a shell command, one-letter flags and plain words (a make
    target) included, as ("flag", word) or ("word", casefolded word): an attacker's suggestion
    needs no host or long flag to be followed (``make exfiltrate``, ``git commit -n``). Not the
    program (it must exist to run), a subcommand of a common tool, a number, a quoted sentence
    or a path (``tokens`` has paths); a heredoc's body is a file's content, not the command."""
    first = command.split("<<", 1)
    text = first[0] + (first[1].split("\n", 1)[0] if len(first) > 1 else "")
    for segment in _SEGMENTS().split(text):
        prefix, words = _after_prefix(shell_split(segment))
        for word in prefix:
            yield from _assigned(word)  # ``HUSKY=0 git commit``: the variable was chosen
        if not words:
            continue
        program = words[0].rsplit("/", 1)[-1]
        rest = words[1:]
        if program in _RUNNERS or (
            rest and program in ("uv", "poetry", "pipenv") and rest[0] == "run"
        ):
            rest = rest[1:] if program not in _RUNNERS else rest
            if rest and not rest[0].startswith("-"):
                # What the runner runs: its name counts (an output may have named it), and its
                # own subcommands are its (``uv run ruff check``).
                ran = rest[0].rsplit("/", 1)[-1]
                hit = _PLAIN_WORD().fullmatch(ran)
                if hit and any(c.isalpha() for c in ran):
                    yield "word", ran.casefold()
                program, rest = ran, rest[1:]
        subs = _SUBCOMMANDS.get(re.sub(r"(?<=python)[\d.]+$", "", program), frozenset())
        seen_sub = False
        for word in rest:
            if word.startswith("-") and len(word) > 1:
                flag = word.split("=", 1)[0]
                if not _NUMBERISH().fullmatch(flag[1:]):
                    yield "flag", flag
                    if flag.startswith("--") and "-" in flag[2:].strip("-"):
                        # ``--no-verify`` also as the words an output may say it in ("the
                        # no-verify option"): a name of several parts, never a bare "force"
                        yield "word", flag[2:].casefold()
                if "=" in word:
                    word = word.split("=", 1)[1]
                else:
                    continue
            if not seen_sub and subs and word.casefold() in subs:
                seen_sub = True
                continue  # ``git add``: the tool's own word
            seen_sub = True
            if "=" in word and "/" not in word.split("=", 1)[0]:
                yield from _assigned(word)  # ``export HUSKY=0``, ``-c core.hooksPath=x``
            if any(c in word for c in " /=\t") or _NUMBERISH().fullmatch(word):
                continue
            hit = _PLAIN_WORD().fullmatch(word.strip(".,;:'\"`"))
            if hit and any(c.isalpha() for c in hit.group(0)):
                yield "word", hit.group(0).casefold()


def _after_prefix(words: list[str]) -> tuple[list[str], list[str]]:
    """A step's leading ``sudo``, ``env``, ``FOO=1`` words, and what runs after them."""
    n = 0
    while n < len(words) and (words[n] in _SHELL_PREFIX or "=" in words[n]):
        n += 1
    return words[:n], words[n:]


_VARIABLE = functools.cache(lambda: re.compile(r"[A-Za-z_][\w.]*"))


def _assigned(word: str) -> Iterator[tuple[str, str]]:
    """The name an assignment sets (``HUSKY`` of ``HUSKY=0``, ``core.hookspath`` of
    ``core.hooksPath=/dev/null``) as a word: an output that says "set HUSKY to 0" suggested it
    as surely as one that printed ``HUSKY=0`` (red team of #11, fourth pass)."""
    name = word.split("=", 1)[0]
    if len(name) >= 3 and _VARIABLE().fullmatch(name) and any(c.isalpha() for c in name):
        yield "word", name.casefold()


def shell_split(text: str) -> list[str]:
    from hindsight.detect import shell

    return shell.split(text)


# Tags the harness wraps around a result (a background shell's status): its words, not output's.
_HARNESS_TAGS = functools.cache(
    lambda: re.compile(r"</?(?:status|exit_code|stdout|stderr|timestamp|shell_id|tool_use_error)>")
)
_HARNESS_TOOLS = frozenset({"TodoWrite", "TodoRead"})  # their result is the harness's fixed text


def _untrusted_text(call: s.ToolCall) -> str:
    if call.name in _HARNESS_TOOLS or not call.output:
        return ""
    return _both(call.output)


def _both(out: str) -> str:
    out = _HARNESS_TAGS().sub(" ", out) if "</" in out else out
    seen = as_seen(out)
    # Both forms: the raw one for what was said as is, the rendered one for what the agent read.
    both = out if seen == out else f"{out}\n{seen}"
    decoded = base64_text(out)
    return f"{both}\n{decoded}" if decoded else both


_BASE64 = lazy(r"(?<![\w+/])[A-Za-z0-9+/]{16,4096}={0,2}(?![\w+/=])")
MAX_DECODED = 64  # base64 runs decoded in one text (a lockfile holds thousands of hashes)


def base64_text(text: str) -> str:
    """The text that base64 runs in ``text`` decode to, where they decode to printable text: a
    model decodes "aHVza3k9MA==" unasked, so an instruction hidden so is still one the agent
    read (red team of #11, fourth pass). Hashes and images decode to bytes and are skipped."""
    import binascii

    found: list[str] = []
    for n, hit in enumerate(_BASE64().finditer(text)):
        if n >= MAX_DECODED:
            break
        run = hit.group(0)
        if run.isalpha() or run.isdigit():
            continue  # a word or a number, not an encoding
        try:
            raw = binascii.a2b_base64(run + "=" * (-len(run) % 4))
            plain = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            continue
        if plain and sum(c.isprintable() or c in "\n\t" for c in plain) == len(plain):
            found.append(plain)
    return "\n".join(found)


def _in_order(sess: s.Session) -> list[s.Seen]:
    """The session's untrusted text beyond tool outputs, in time order (undated last)."""
    return sorted(sess.untrusted, key=lambda u: (u.ts is None, u.ts or datetime.min))


def _before(seen: s.Seen, event: s.Event) -> bool:
    """Whether the agent saw ``seen`` before ``event``: by time, and at the same instant by place
    in the file (many records share a stamp: one API response, an imported session); across files
    at one instant, before the agent's step and after the user's prompt."""
    if seen.ts != event.ts:
        return event.ts is None if seen.ts is None or event.ts is None else seen.ts < event.ts
    if seen.at.path == event.at.path:
        return seen.at.line < event.at.line
    return event.kind != s.PROMPT


_ANSI = lazy(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_OVERSTRIKE = lazy(r".\x08")
_TAG = lazy(r"</?[A-Za-z][^<>]{0,200}>")
_JSON_ESCAPE = lazy(r"\\[nrt\"/]")
_CODE_ESCAPE = lazy(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))")
# "__" not after a word character, or not before one: written as one branch after the
# others, so that every branch starts with a literal and the scan skips to the next *, ~ or _
# (6x faster than "(?<!\w)__|__(?!\w)", whose look-behind first defeated that).
_EMPHASIS = lazy(r"\*\*?|~~|__(?:(?<!\w__)|(?!\w))")
_WRAPPED = lazy(r"(\w-)[ \t]*\r?\n[ \t]*(?=\w)")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"})
_DASH_CHARS = lazy("[" + "".join(map(chr, _DASHES)) + "]")
_RENDERED_HINTS = ("\x1b", "\x08", "<", "%", "\\", "-\n", "-\r\n", "&", "*", "~~", "__", "`")


def _unescape(hit: re.Match[str]) -> str:
    char = chr(int(hit.group(1) or hit.group(2), 16))
    return char if char.isprintable() else " "


def as_seen(text: str) -> str:
    """Tool output as the agent (or a terminal, a browser, a JSON parser) renders it: escape
    sequences and backspace overstrikes gone, HTML tags dropped, JSON, code (``\\x2d``), HTML
    entity and URL escapes decoded, markdown emphasis and code marks dropped,
    a word hyphen-wrapped over two lines joined, Unicode folded (NFKC, format characters,
    look-alike letters, every dash to '-'). A token glued to such markup is still the token the
    agent read, so taint must find it there (red team of #11, third pass)."""
    if text.isascii() and not any(h in text for h in _RENDERED_HINTS):
        return text
    from hindsight.screen import normalize

    if "\x1b" in text:
        text = _ANSI().sub("", text)
    if "\x08" in text:
        text = _OVERSTRIKE().sub("", text)
    if "<" in text:
        text = _TAG().sub("", text)
    if "\\" in text:
        text = _CODE_ESCAPE().sub(_unescape, text)
        text = _JSON_ESCAPE().sub(" ", text)
    if "&" in text and ";" in text:
        import html

        text = html.unescape(text)
    # markdown emphasis and code marks split a word for the eye only: --no-**verify**
    if "*" in text or "~~" in text or "__" in text:  # a code mark alone needs no regex scan
        text = _EMPHASIS().sub("", text)
    if "`" in text:
        text = text.replace("`", "")
    if "%" in text:
        from urllib.parse import unquote

        text = unquote(text)
    if "-\n" in text or "-\r\n" in text:
        text = _WRAPPED().sub(r"\1", text)
    if not text.isascii():
        from hindsight.screen import mapped

        text = mapped(normalize(text), _DASH_CHARS(), _DASHES)
    return text


PROSE, COMMAND, INPUT = "prose", "command", "input"


def _agent_pieces(event: s.Event) -> list[tuple[str, str, str]]:
    """The agent's own words and choices at this event, trusted places if untainted: (piece,
    its kind: prose, where a copied sentence counts, a shell command, whose every word counts,
    or another tool input; the tool's name, as search lessons cite a query: ``Grep: deploy``).
    A subagent's prompt is the agent's prose: quoting untrusted text taints it."""
    out: list[tuple[str, str, str]] = []
    if event.kind == s.ASSISTANT and event.text:
        out.append((event.text, PROSE, ""))
    if event.todos:
        out += [(str(t.get("content") or ""), PROSE, "") for t in event.todos]
    call = event.tool
    if call is not None:
        for key in _INPUT_KEYS:
            value = call.input.get(key)
            if isinstance(value, str) and value:
                shell = key == "command" or (call.is_shell and value == call.command)
                out.append((value, COMMAND if shell else INPUT, call.name))
        if call.is_shell and call.command and call.input.get("command") != call.command:
            out.append((call.command, COMMAND, call.name))
        todos = call.input.get("todos")
        if isinstance(todos, list):
            out += [(str(t.get("content") or ""), PROSE, "") for t in todos if isinstance(t, dict)]
        if call.kind == s.AGENT:
            for key in ("prompt", "description"):
                value = call.input.get(key)
                if isinstance(value, str) and value.strip():
                    out.append((value, PROSE, ""))
    return [p for p in out if p[0].strip()]


def piece_tokens(piece: str, kind: str) -> tuple[tuple[str, str], ...]:
    """The tokens of a trusted place that taint checks: a command's every argument word and flag,
    the words of the code spans in the agent's prose and todos, and ``tokens`` everywhere."""
    extra: list[tuple[str, str]] = []
    if kind == COMMAND:
        extra = list(command_words(piece))
    elif kind == PROSE:
        extra = [tok for span in _BACKTICKS().findall(piece) for tok in command_words(span)]
    return tokens(piece) + tuple(dict.fromkeys(extra))


def user_tokens(text: str) -> Iterator[tuple[str, str]]:
    """Every word and flag the user typed: trusted wherever the agent uses them later."""
    yield from tokens(text)
    for word in text.split():
        word = word.strip(".,;:!?'\"`()[]{}<>")
        if word.startswith("-") and len(word) > 1:
            yield "flag", word.split("=", 1)[0]
        for hit in _PLAIN_WORD().finditer(word):
            yield "word", hit.group(0).casefold()


class SessionTrust:
    """One session's trusted pieces, split into the user's, the agent's clean ones and the
    tainted ones (each with its reason), plus the words of its untrusted text.

    Tokens are looked for in the untrusted text, not taken from it: only the agent's pieces are
    tokenized (short), the tool outputs are searched as one string (fast, whatever their size).
    Untrusted text is every channel the reader indexed (``Session.untrusted``: attachments, hook
    feedback, the uncapped middle of long outputs, copied records...) besides the tool outputs,
    merged in time order: a token taints a piece only if the agent saw it before using it.
    """

    def __init__(
        self,
        sess: s.Session,
        in_repo: Callable[[str, str | None], bool],
        defines: Callable[[str], bool] | None = None,
    ) -> None:
        base = defines or getattr(in_repo, "defines", None) or (lambda word: False)
        # A package the session installed itself (`uv add x` writes x into pyproject.toml) is
        # not the repository's word: an output may have named it first (red team 9).
        installed = _installed(sess)
        self._defines: Callable[[str], bool] = (
            (lambda word: word.casefold() not in installed and base(word)) if installed else base
        )
        self.user: list[str] = []
        self.clean: list[str] = []
        self.tainted: list[tuple[str, str]] = []
        self.tool_names: set[str] = set()
        chunks: list[str] = []  # untrusted text, casefolded, in order
        cased: list[str] = []
        word_chunks: list[str] = []
        gram_chunks: list[tuple[int, str]] = []  # (word offset, the words runs are indexed from)
        self._cut = False
        self._starts: list[int] = []  # offset of each chunk, and where it came from
        self._wheres: list[tuple[str, str]] = []  # (channel, file:line)
        size = wsize = 0
        # (token, position in the untrusted stream when a trusted place first used it)
        trusted_at: dict[tuple[str, str], int] = {}
        # agent piece, prose, tool name, stream offset, word offset
        pending: list[tuple[str, str, str, int, int, str | None]] = []
        user_words: list[tuple[int, str]] = []
        branch = sess.git_branch or ""
        for word in (*_CONVENTIONS, branch, *branch.split("/")):
            trusted_at.setdefault(("word", word.casefold()), 0)
            trusted_at.setdefault(("name", word), 0)

        def add(text: str, channel: str, src: s.Where) -> None:
            nonlocal size, wsize
            self._starts.append(size)
            self._wheres.append((channel, f"{src.path.name}:{src.line}"))
            chunks.append(" " + text.casefold())
            # as written, for one-letter flags (-B is not -b); folded where folding moved offsets
            cased.append(" " + text if len(chunks[-1]) == len(text) + 1 else chunks[-1])
            size += len(chunks[-1])
            said = words(text)
            word_chunks.append(" " + said)
            # Runs of words are indexed (a dict entry each) from a chunk's head and tail, as
            # detection keeps them; the gate looks for a lesson's runs in the rest (``copies``).
            if len(text) > COPY_HEAD + COPY_TAIL:
                said = words(f"{text[:COPY_HEAD]}\n{text[-COPY_TAIL:]}")
                self._cut = True
            gram_chunks.append((wsize, said))
            wsize += word_chunks[-1].count(" ")  # offsets count words

        # The repository's instruction files, loaded before the first prompt and never shown
        # in the transcript: an earlier session may have written a page's advice there.
        for name, text in getattr(in_repo, "instructions", list)():
            add(text, f"the repository's {name}", s.Where(Path(name), 0))
        index, k = _in_order(sess), 0
        for event in sess.events:
            while k < len(index) and _before(index[k], event):
                add(_both(index[k].text), index[k].channel, index[k].at)
                k += 1
            if event.kind == s.PROMPT:
                self.user.append(event.text)
                user_words.append((wsize, words(event.text)))
                for tok in user_tokens(event.text):
                    trusted_at.setdefault(tok, size)
                continue
            call = event.tool
            # The folder the shell stood in when a call ran (an earlier `cd` persists): its
            # relative paths name files there.
            ran_in = call.cwd if call is not None else None
            pending += [
                (p, kind, name, size, wsize, ran_in) for p, kind, name in _agent_pieces(event)
            ]
            if call is not None:
                self.tool_names.add(call.name)
                text = _untrusted_text(call)
                if text:
                    add(text, "tool output", call.result_at or event.at)
        for seen in index[k:]:
            add(_both(seen.text), seen.channel, seen.at)
        self._stream = "".join(chunks)
        self._cased_chunks: list[str] | None = cased
        self._cased = ""
        self._firsts: dict[str, int] = {}
        self._grams: dict[str, int] | None = None
        self._gram_chunks = gram_chunks
        self.untrusted_words = "".join(word_chunks)
        self.user_words = " ".join(w for _, w in user_words)
        for piece, kind, name, at, wat, ran_in in pending:
            said = " ".join(w for pos, w in user_words if pos <= wat)
            reason = self._taint(piece, kind, at, wat, said, trusted_at, sess.cwd, in_repo, ran_in)
            if reason is None:
                self.clean.append(piece)
                if name:
                    self.clean.append(f"{name}: {piece}")
                for tok in piece_tokens(piece, kind):
                    trusted_at.setdefault(tok, at)
                if kind == COMMAND:  # every word of a clean command, a path's parts too
                    for tok in user_tokens(piece):
                        trusted_at.setdefault(tok, at)
            else:
                self.tainted.append((piece, reason))
        # Only the gate's questions remain: the searched text is not kept for them.
        self._stream, self._cased, self._cased_chunks, self._firsts = "", "", None, {}
        self.user_norm = "\x00".join(norm(p) for p in self.user)
        self.clean_norm = "\x00".join(norm(p) for p in self.clean)

    def _first_cased(self, token: str, end: int) -> int:
        """``_first`` for a token whose case matters: a one-letter flag (``-B`` is not ``-b``)."""
        if self._cased_chunks is not None:
            self._cased, self._cased_chunks = "".join(self._cased_chunks), None
        key = "\x00" + token
        if key not in self._firsts:
            self._firsts[key] = self._find_whole(token, self._cased)
        found = self._firsts[key]
        return found if 0 <= found < end else -1

    def _first(self, token: str, end: int) -> int:
        """Where ``token`` first stands, as a whole token, in the untrusted text before ``end``
        (the first place in the whole text, found once: the same tokens recur in many pieces)."""
        if token not in self._firsts:
            self._firsts[token] = self._find_whole(token, self._stream)
        found = self._firsts[token]
        return found if 0 <= found < end else -1

    def _first_encoded(self, token: str, end: int) -> int:
        """Where ``token`` first stands in the untrusted text spelled backwards or in rot13: a
        model reads both as easily as the plain word (red team of #11, fourth pass). Only an
        assignment of six characters and more (``HUSKY=0``): shorter ones meet another word's
        reversal by chance, and two more scans of the whole text for every word cost a third
        of a large run."""
        found = [
            f
            for form in (token[::-1], codecs.encode(token, "rot13"))
            if form != token and (f := self._first(form, end)) >= 0
        ]
        return min(found, default=-1)

    def _find_whole(self, token: str, stream: str) -> int:
        start = 0
        while (i := stream.find(token, start)) >= 0:
            after = i + len(token)
            before_ok = i == 0 or not (stream[i - 1].isalnum() or stream[i - 1] in "-_.")
            after_ok = after >= len(stream) or not (
                stream[after].isalnum() or stream[after] in "-_"
            )
            if before_ok and after_ok:
                return i
            start = i + 1
        return -1

    def copies(
        self,
        text: str,
        trusted_words: str,
        end: int | None = None,
        common: frozenset[str] = frozenset(),
    ) -> bool:
        """Whether ``text`` holds SHORT_COPY words in a row that the untrusted text said first
        (before word number ``end``) and the trusted text does not; a run made only of ``common``
        words (hindsight's own, such as "no such file or directory") is no copy."""
        if self._grams is None:
            # The first place each run stands: chunks and runs written backwards, so the first
            # place is the last written (dict(zip()) in C; a setdefault a run cost a tenth of a
            # session's taint). One chunk's runs at a time: a list of all would add 4 MB.
            grams: dict[str, int] = {}
            for offset, chunk in reversed(self._gram_chunks):
                said = chunk.split()
                runs = list(
                    map(" ".join, zip(*(said[i:] for i in range(SHORT_COPY)), strict=False))
                )
                places = range(offset + len(runs) - 1, offset - 1, -1)
                grams.update(zip(reversed(runs), places, strict=True))
            self._grams, self._gram_chunks = grams, []
        seq = words(text).split()
        padded = f" {trusted_words} "
        for i in range(len(seq) - SHORT_COPY + 1):
            part = seq[i : i + SHORT_COPY]
            if common and all(w in common or w.isdigit() for w in part):
                continue
            gram = " ".join(part)
            pos = self._grams.get(gram)
            if pos is None and end is None and self._cut:  # the gate: a run from a middle too
                all_said = self.untrusted_words
                pos = 0 if f" {gram} " in all_said or all_said.endswith(f" {gram}") else None
            if pos is not None and (end is None or pos < end) and f" {gram} " not in padded:
                return True
        return False

    def _taint(
        self,
        piece: str,
        kind: str,
        at: int,
        word_at: int,
        said: str,
        trusted_at: dict[tuple[str, str], int],
        cwd: str | None,
        in_repo: Callable[[str, str | None], bool],
        ran_in: str | None = None,
    ) -> str | None:
        if cwd and len(cwd) > 1 and cwd in piece:
            # The session's own folder, spelled out: the harness told the agent where it works
            # (and writes it in its hook records). Its folder names are no tool's words there;
            # the same name standing alone is checked as any other (red team of session 7).
            piece = piece.replace(cwd, ".")
        # A relative path of a command resolves where its own `cd` took the shell too
        # (`cd apps/api && node src/index.ts` runs apps/api/src/index.ts), and where an earlier
        # call left the shell. A bare word only where the session stood or the command's own
        # `cd` went: a folder an earlier call moved to may be a vendored one whose names its
        # author chose (red team 9). Found when asked.
        folders: dict[bool, list[str | None]] = {}

        def places(shell_stood: bool) -> list[str | None]:
            if shell_stood not in folders:
                here = (ran_in or cwd) if shell_stood else cwd
                moved = _cd_folders(piece, here) if kind == COMMAND else []
                folders[shell_stood] = [*dict.fromkeys([cwd, here]), *moved]
            return folders[shell_stood]

        for tok in piece_tokens(piece, kind):
            end = min(at, trusted_at.get(tok, at))
            if tok[0] == "flag" and len(tok[1]) == 2:
                found = self._first_cased(tok[1], end)
            else:
                found = self._first(tok[1].casefold(), end)
            if found < 0 and tok[0] == "variable" and len(tok[1]) >= 6:
                found = self._first_encoded(tok[1].casefold(), end)
            if found < 0:
                continue
            if tok[0] in ("path", "name") and any(
                in_repo(path, folder)
                for path in _paths_around(piece, tok[1])
                for folder in places(tok[0] == "path")
            ):
                continue  # the repository's own file: the agent may have found it anywhere
            if tok[0] in ("word", "name") and (
                self._defines(tok[1])
                or any(
                    in_repo(tok[1], folder)
                    # A file's name (`bash setup.sh`) is a path, found where paths are.
                    for folder in places(bool(_FILE().fullmatch(tok[1])))
                )
            ):
                # A file, a folder (`cd my-app` after a listing showed it), a make target or a
                # script the repository itself defines.
                continue
            channel, where = self._wheres[bisect.bisect_right(self._starts, found) - 1]
            return (
                f"tainted: a {tok[0]} in the agent's own text first came from {channel} ({where})"
            )
        # The agent's own prose is held to a shorter run: it has no reason to repeat tool output.
        if kind == PROSE and self.copies(piece, said, word_at):
            return "tainted: the agent repeated a sentence from tool output"
        return None


_TARGET = functools.cache(lambda: re.compile(r"^([A-Za-z0-9_.%/ -]+?)\s*:(?![=:])", re.MULTILINE))
_TARGET_FILES = ("makefile", "gnumakefile", "justfile")
_SCRIPT_FILES = ("package.json", "pyproject.toml")
MAX_DEFINING_FILES = 50  # Makefiles and manifests read for their targets and scripts


INSTRUCTION_FILES = ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md", "AGENTS.md", "GEMINI.md")
MAX_INSTRUCTIONS = 256 * 1024  # characters read of each


# A path as a shell or a router spells it: Next.js route groups and segments ("(home)",
# "[id]") split the path tokens, but the whole path is the repository's file.
_WIDE_PATH = functools.cache(lambda: re.compile(r"[\w.~/()\[\]{}@+,-]*/[\w.~/()\[\]{}@+,-]*"))


def _paths_around(piece: str, token: str) -> Iterator[str]:
    """The piece's paths that hold ``token``: its path tokens, then the wider spans a route's
    brackets and parentheses cut into several tokens."""
    for kind, path in tokens(piece):
        if kind == "path" and token in path:
            yield path
    if "(" in piece or "[" in piece or "{" in piece:
        for span in _WIDE_PATH().findall(piece):
            if token in span:
                yield span
                yield span.strip("(),")


_INSTALLERS = frozenset(
    {"pip", "pip3", "uv", "poetry", "pipenv", "pdm", "npm", "pnpm", "yarn", "bun", "cargo",
     "gem", "go", "pipx", "composer", "dotnet"}
)  # fmt: skip
_INSTALLING = frozenset({"install", "add", "i", "get", "require"})
_PACKAGE = functools.cache(lambda: re.compile(r"^@?[A-Za-z0-9][\w.-]*(?:/[\w.-]+)?"))


def _installed(sess: s.Session) -> frozenset[str]:
    """The package names the session's own shell commands installed or added."""
    names: set[str] = set()
    for event in sess.events:
        command = event.tool.command if event.tool is not None else None
        if not command or not any(w in command for w in (" add", " install", " i ", " get")):
            continue
        for segment in _SEGMENTS().split(command):
            words = _after_prefix(shell_split(segment))[1]
            if len(words) < 3 or words[0].rsplit("/", 1)[-1] not in _INSTALLERS:
                continue
            rest = words[1:]
            if rest[0] == "pip" and len(rest) > 1:  # `uv pip install x`
                rest = rest[1:]
            if rest[0] not in _INSTALLING:
                continue
            for word in rest[1:]:
                hit = None if word.startswith("-") else _PACKAGE().match(word)
                if hit:
                    names.add(hit.group(0).casefold())
                    names.add(hit.group(0).rsplit("/", 1)[-1].casefold())
    return frozenset(names)


def _cd_folders(command: str, start: str | None) -> list[str]:
    if "cd " not in command:
        return []  # the common case, without importing the detectors
    from hindsight.detect import steps

    return steps.cd_folders(command, start)


class Repo:
    """The repository's own names, as taint clears them: whether a path names a file or folder
    inside the repository or one of its worktrees (never outside them, never under .git), and
    whether a word is one the repository defines: a tracked file's name or stem, a folder, a
    Makefile or justfile target, a package.json or pyproject script. Its text never counts (a
    README can carry an injection too), nor hindsight's MEMORY files."""

    def __init__(self, roots: list[str]) -> None:
        self.real = [os.path.realpath(r) for r in roots]
        self._words: set[str] | None = None
        self._paths: dict[tuple[str, str | None], bool] = {}
        self._instructions: list[tuple[str, str]] | None = None

    def __call__(self, path: str, cwd: str | None) -> bool:
        key = (path, cwd)
        if key not in self._paths:
            self._paths[key] = self._in_repo(path, cwd)
        return self._paths[key]

    def _in_repo(self, path: str, cwd: str | None) -> bool:
        expanded = os.path.expanduser(path)
        for root in self.real:
            base = cwd if cwd and not os.path.isabs(expanded) else root
            full = os.path.realpath(os.path.join(base, expanded))
            if not (full == root or full.startswith(root + os.sep)):
                continue
            if "/.git" not in full[len(root) :] and os.path.exists(full):
                return True
        return False

    def instructions(self) -> list[tuple[str, str]]:
        """The text of the repository's instruction files, as taint searches it (CLAUDE.md, AGENTS.md, GEMINI.md...),
        as the agent loads them at start, hindsight's own block left out: untrusted like a
        README (red team of #11, fourth pass: a note an earlier session copied from a web page
        into CLAUDE.md steered the next one, whose transcript never shows it)."""
        if self._instructions is None:
            from hindsight import memory

            found: list[tuple[str, str]] = []
            for root in self.real:
                for name in INSTRUCTION_FILES:
                    path = os.path.join(root, name)
                    if not os.path.isfile(path) or not self._in_repo(path, None):
                        continue  # a link out of the repository is not its file
                    try:
                        with open(path, encoding="utf-8", errors="replace") as f:
                            text = f.read(MAX_INSTRUCTIONS)
                    except OSError:
                        continue
                    head, _, rest = text.partition(memory.START)
                    text = head + rest.partition(memory.END)[2] if rest else head
                    if text.strip():  # rendered once here, not once a session
                        found.append((name, _both(text)))
            self._instructions = found
        return self._instructions

    def defines(self, word: str) -> bool:
        if self._words is None:
            self._words = self._vocabulary()
        return word.casefold() in self._words

    def _vocabulary(self) -> set[str]:
        import subprocess

        found: set[str] = set()
        defining: list[str] = []

        def git(root: str, *args: str) -> str:
            try:
                done = subprocess.run(["git", "-C", root, *args], capture_output=True, timeout=20)
            except (OSError, subprocess.SubprocessError):
                return ""
            return done.stdout.decode(errors="replace") if done.returncode == 0 else ""

        for root in self.real:
            # branches, tags and remotes: ``git push origin develop``
            for ref in git(root, "for-each-ref", "--format=%(refname:lstrip=2)").split():
                found.add(ref.casefold())
                found.update(part.casefold() for part in ref.split("/"))
            found.update(r.casefold() for r in git(root, "remote").split())
            listed = git(root, "ls-files", "-z")
            for name in listed.split("\0"):
                parts = name.split("/")
                if not name or parts[-1] in ("MEMORY.md", "MEMORY.archive.md"):
                    continue
                for part in parts:
                    found.add(part.casefold())
                    found.add(part.split(".", 1)[0].casefold())
                low = parts[-1].casefold()
                if low in _TARGET_FILES or low.endswith(".mk") or low in _SCRIPT_FILES:
                    defining.append(os.path.join(root, name))
        for path in defining[:MAX_DEFINING_FILES]:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read(1_000_000)
            except OSError:
                continue
            found.update(w.casefold() for w in _defined(os.path.basename(path).casefold(), text))
        found.discard("")
        return found


_REQUIREMENT = functools.cache(lambda: re.compile(r"^\s*([A-Za-z0-9][\w.-]*)"))


def _requirements(listed: object) -> Iterator[str]:
    """The package names of a list of requirement strings ("ruff>=0.6", "httpx[http2]")."""
    for item in listed if isinstance(listed, list) else []:
        hit = _REQUIREMENT().match(item) if isinstance(item, str) else None
        if hit:
            yield hit.group(1)


def _defined(name: str, text: str) -> Iterator[str]:
    """The targets, scripts or packages a Makefile, justfile, package.json or pyproject.toml
    defines or depends on."""
    if name == "package.json":
        import json

        try:
            scripts = json.loads(text).get("scripts")
        except (ValueError, AttributeError):
            return
        if isinstance(scripts, dict):
            yield from (str(k) for k in scripts)
        for key in ("dependencies", "devDependencies", "peerDependencies", "bin"):
            table = json.loads(text).get(key)
            if isinstance(table, dict):  # ``npx next``: a package the repository depends on
                yield from (str(k) for k in table)
        return
    if name == "pyproject.toml":
        import importlib

        try:
            tomllib = importlib.import_module("tomllib")
        except ModuleNotFoundError:  # Python 3.10: pyproject scripts are not read
            return
        try:
            data = tomllib.loads(text)
        except ValueError:
            return
        project, tool = data.get("project", {}), data.get("tool", {})
        poetry = tool.get("poetry", {}) if isinstance(tool, dict) else {}
        for table in (project.get("scripts"), poetry.get("scripts")):
            if isinstance(table, dict):
                yield from (str(k) for k in table)
        # ``uv run ruff``: a package the project depends on, as package.json's dependencies
        # are. Not a ``[tool.X]`` table's name: any word could be one (red team 9).
        yield from _requirements(project.get("dependencies"))
        for table in (project.get("optional-dependencies"), data.get("dependency-groups")):
            if isinstance(table, dict):
                for group in table.values():
                    yield from _requirements(group)
        groups = poetry.get("group", {}) if isinstance(poetry, dict) else {}
        for table in (
            poetry.get("dependencies"),
            poetry.get("dev-dependencies"),
            *(g.get("dependencies") for g in groups.values() if isinstance(g, dict)),
        ):
            if isinstance(table, dict):
                yield from (str(k) for k in table)
        return
    for hit in _TARGET().finditer(text):
        for target in hit.group(1).split():
            if not target.startswith(".") and "%" not in target:
                yield target


def repo_checker(roots: list[str]) -> Repo:
    """The repository's own names (``Repo``): paths inside it, the words it defines."""
    return Repo(roots)
