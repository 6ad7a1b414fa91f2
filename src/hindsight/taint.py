"""Taint: which of a session's trusted pieces carry a token that first came from untrusted text.

The user's prompts are trusted; so are the agent's own actions (its commands, tool inputs, todos,
stated decisions), but only while they carry nothing they took from untrusted text (tool output,
file contents, web pages) earlier in the same session: a mirror host, a flag, a variable, a path,
a sentence the agent copied. A tainted piece cannot support a memory lesson. Being in the
repository clears a path, never a host or a sentence: a README can carry an injection too.
"""

from __future__ import annotations

import bisect
import functools
import os
import re
from collections.abc import Callable, Iterator

from hindsight import hosts
from hindsight import session as s

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
_NON_WORD = functools.cache(lambda: re.compile(r"[\W_]+"))
SHORT_COPY = 4  # this many words in a row, said first by untrusted text, make a copied sentence
# Tool inputs that are the agent's own choice and may be quoted by a lesson.
_INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "glob")


def words(text: str) -> str:
    """The words of ``text``, casefolded and joined by single spaces (for copy checks)."""
    folded = text.casefold()
    if folded.isascii():  # one substitution is several times faster than collecting the words
        return _NON_WORD().sub(" ", folded).strip()
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


def _untrusted_text(call: s.ToolCall) -> str:
    return call.output or ""


def _agent_pieces(event: s.Event) -> list[tuple[str, bool, str]]:
    """The agent's own words and choices at this event, trusted places if untainted: (piece,
    whether it is prose, where a copied sentence counts; a command repeats paths and names; the
    tool's name, as search lessons cite a query: ``Grep: deploy``)."""
    out: list[tuple[str, bool, str]] = []
    if event.kind == s.ASSISTANT and event.text:
        out.append((event.text, True, ""))
    if event.todos:
        out += [(str(t.get("content") or ""), True, "") for t in event.todos]
    call = event.tool
    if call is not None:
        for key in _INPUT_KEYS:
            value = call.input.get(key)
            if isinstance(value, str) and value:
                out.append((value, False, call.name))
        todos = call.input.get("todos")
        if isinstance(todos, list):
            out += [(str(t.get("content") or ""), True, "") for t in todos if isinstance(t, dict)]
    return [p for p in out if p[0].strip()]


class SessionTrust:
    """One session's trusted pieces, split into the user's, the agent's clean ones and the
    tainted ones (each with its reason), plus the words of its untrusted text.

    Tokens are looked for in the untrusted text, not taken from it: only the agent's pieces are
    tokenized (short), the tool outputs are searched as one string (fast, whatever their size).
    """

    def __init__(self, sess: s.Session, in_repo: Callable[[str, str | None], bool]) -> None:
        self.user: list[str] = []
        self.clean: list[str] = []
        self.tainted: list[tuple[str, str]] = []
        self.tool_names: set[str] = set()
        chunks: list[str] = []  # untrusted text, casefolded, in order
        word_chunks: list[str] = []
        self._starts: list[int] = []  # offset of each chunk, and where it came from
        self._wheres: list[str] = []
        size = wsize = 0
        # (token, position in the untrusted stream when a trusted place first used it)
        trusted_at: dict[tuple[str, str], int] = {}
        # agent piece, prose, tool name, stream offset, word offset
        pending: list[tuple[str, bool, str, int, int]] = []
        user_words: list[tuple[int, str]] = []
        for event in sess.events:
            if event.kind == s.PROMPT:
                self.user.append(event.text)
                user_words.append((wsize, words(event.text)))
                for tok in tokens(event.text):
                    trusted_at.setdefault(tok, size)
                continue
            pending += [(p, prose, name, size, wsize) for p, prose, name in _agent_pieces(event)]
            call = event.tool
            if call is not None:
                self.tool_names.add(call.name)
                text = _untrusted_text(call)
                if text:
                    src = call.result_at or event.at
                    self._starts.append(size)
                    self._wheres.append(f"{src.path.name}:{src.line}")
                    chunks.append(" " + text.casefold())
                    size += len(chunks[-1])
                    word_chunks.append(" " + words(text))
                    wsize += word_chunks[-1].count(" ")  # offsets count words
        self._stream = "".join(chunks)
        self._firsts: dict[str, int] = {}
        self._grams: dict[str, int] | None = None
        self.untrusted_words = "".join(word_chunks)
        self.user_words = " ".join(w for _, w in user_words)
        for piece, prose, name, at, wat in pending:
            said = " ".join(w for pos, w in user_words if pos <= wat)
            reason = self._taint(piece, prose, at, wat, said, trusted_at, sess.cwd, in_repo)
            if reason is None:
                self.clean.append(piece)
                if name:
                    self.clean.append(f"{name}: {piece}")
                for tok in tokens(piece):
                    trusted_at.setdefault(tok, at)
            else:
                self.tainted.append((piece, reason))
        self.user_norm = "\x00".join(norm(p) for p in self.user)
        self.clean_norm = "\x00".join(norm(p) for p in self.clean)

    def _first(self, token: str, end: int) -> int:
        """Where ``token`` first stands, as a whole token, in the untrusted text before ``end``
        (the first place in the whole text, found once: the same tokens recur in many pieces)."""
        if token not in self._firsts:
            self._firsts[token] = self._find_whole(token)
        found = self._firsts[token]
        return found if 0 <= found < end else -1

    def _find_whole(self, token: str) -> int:
        stream, start = self._stream, 0
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
            said = self.untrusted_words.split()
            runs = map(" ".join, zip(*(said[i:] for i in range(SHORT_COPY)), strict=False))
            # the first place each run stands (a later one overwrites nothing: reversed)
            self._grams = {gram: i for i, gram in reversed(list(enumerate(runs)))}
        seq = words(text).split()
        padded = f" {trusted_words} "
        for i in range(len(seq) - SHORT_COPY + 1):
            part = seq[i : i + SHORT_COPY]
            if common and all(w in common or w.isdigit() for w in part):
                continue
            gram = " ".join(part)
            pos = self._grams.get(gram)
            if pos is not None and (end is None or pos < end) and f" {gram} " not in padded:
                return True
        return False

    def _taint(
        self,
        piece: str,
        prose: bool,
        at: int,
        word_at: int,
        said: str,
        trusted_at: dict[tuple[str, str], int],
        cwd: str | None,
        in_repo: Callable[[str, str | None], bool],
    ) -> str | None:
        for tok in tokens(piece):
            found = self._first(tok[1].casefold(), min(at, trusted_at.get(tok, at)))
            if found < 0:
                continue
            if tok[0] in ("path", "name") and any(
                in_repo(path, cwd) for k, path in tokens(piece) if k == "path" and tok[1] in path
            ):
                continue  # the repository's own file: the agent may have found it anywhere
            where = self._wheres[bisect.bisect_right(self._starts, found) - 1]
            return (
                f"tainted: a {tok[0]} in the agent's own text first came from tool output ({where})"
            )
        # The agent's own prose is held to a shorter run: it has no reason to repeat tool output.
        if prose and self.copies(piece, said, word_at):
            return "tainted: the agent repeated a sentence from tool output"
        return None


def repo_checker(roots: list[str]) -> Callable[[str, str | None], bool]:
    """Whether a path names a file or folder inside the repository or one of its worktrees
    (never outside them, never under .git)."""
    real = [os.path.realpath(r) for r in roots]

    @functools.cache
    def in_repo(path: str, cwd: str | None) -> bool:
        expanded = os.path.expanduser(path)
        for root in real:
            base = cwd if cwd and not os.path.isabs(expanded) else root
            full = os.path.realpath(os.path.join(base, expanded))
            if not (full == root or full.startswith(root + os.sep)):
                continue
            if "/.git" not in full[len(root) :] and os.path.exists(full):
                return True
        return False

    return in_repo
