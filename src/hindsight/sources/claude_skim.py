"""Claude Code records recognised from their raw bytes, before (or instead of) parsing them.

JSON escapes every quote inside a string, so a raw ``"type":"progress"`` can only be structure:
finding it near a line's start (or, for attachments, its end) names the record without parsing.
A skimmed line (too long to hold) is rebuilt from its head and tail as a small record with only
what detection needs: ids, time, error flag and the first part of a tool result.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import orjson

from hindsight import fmt
from hindsight.sources.lines import HEAD_SCAN as _HEAD_SCAN
from hindsight.sources.lines import TAIL_SCAN as _TAIL_SCAN
from hindsight.sources.lines import Skim, SkipRules, search_from

# Records that carry metadata or nothing detection needs: used, not counted as skipped.
META_TYPES = frozenset(
    {
        "summary",
        "attachment",
        "progress",
        "queue-operation",
        "file-history-snapshot",
        "last-prompt",
        "custom-title",
        "ai-title",
        "agent-name",
        "permission-mode",
        "worktree-state",
        "pr-link",
        "mode",
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "tools-used",
        "cost-state",
        "atis-latch",
        "tag",
        # 2.1.18x and later: file backups, the agent setting, remote-control bridging.
        "file-history-delta",
        "agent-setting",
        "bridge-session",
    }
)
# Metadata read for what it names (Session.title, Session.agent_name): small, so parsed.
NAMED_TYPES = frozenset({"ai-title", "custom-title", "agent-name"})

# Records nothing reads. Most versions write the metadata records' type first; progress records
# name it within their first few hundred bytes. Attachments are read: detection never uses them,
# but the agent sees their text (a file the user @-mentioned, a hook's feedback), which taint
# must search (issue #11).
SKIP = SkipRules(
    leading=frozenset(t.encode() for t in META_TYPES - NAMED_TYPES - {"attachment"}),
    early=b'"type":"progress"',
)
_OUTPUT_BYTES = 8000
_ENVELOPE = 4096


def _string_end(data: bytes, begin: int, limit: int) -> int:
    """Where the JSON string starting at ``begin`` closes (its unescaped quote), or ``limit``."""
    at = begin
    while True:
        quote = data.find(b'"', at, limit)
        if quote < 0:
            return limit
        slashes = 0
        while quote - slashes > begin and data[quote - slashes - 1] == 0x5C:  # backslash
            slashes += 1
        if slashes % 2 == 0:
            return quote
        at = quote + 1


_LEADING_TYPE = re.compile(rb'^\s*\{\s*"type"\s*:\s*"([^"]+)"')
_TYPE_VALUE = re.compile(
    rb'"type"\s*:\s*"(user|assistant|system|attachment|progress|file-history-snapshot)"'
)


def skim_type(skim: Skim) -> str | None:
    """The type of a line too long to parse, from its head or tail (spaces after colons allowed)."""
    leading = _LEADING_TYPE.match(skim.head)
    if leading:
        return leading.group(1).decode("ascii", "replace")
    # Nested blocks are typed text, tool_result, image...: a record type is the record's own.
    in_tail = [m.group(1) for m in _TYPE_VALUE.finditer(skim.tail[-_TAIL_SCAN:])]
    if in_tail:
        return in_tail[-1].decode()
    in_head = _TYPE_VALUE.search(skim.head[:_HEAD_SCAN])
    return in_head.group(1).decode() if in_head else None


@functools.cache
def _field_re(key: bytes) -> re.Pattern[bytes]:
    return re.compile(b'"' + key + b'"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,200})"')


def _field(pattern: bytes, *parts: bytes) -> str | None:
    regex, needle = _field_re(pattern), b'"' + pattern + b'"'
    for part in parts:
        match = search_from(regex, needle, part)
        if match:
            value = _json_string(match.group(1))
            if value is not None:
                return value
    return None


@functools.cache
def _flag_re(key: bytes) -> re.Pattern[bytes]:
    return re.compile(b'"' + key + b'"\\s*:\\s*true')


def _flag(key: bytes, *parts: bytes) -> bool:
    regex, needle = _flag_re(key), b'"' + key + b'"'
    return any(search_from(regex, needle, part) for part in parts)


def _json_string(raw: bytes) -> str | None:
    """Decode the inside of a JSON string, possibly cut anywhere (a partial escape or character)."""
    for cut in range(0, 8):
        try:
            value = orjson.loads(b'"' + (raw[: len(raw) - cut] if cut else raw) + b'"')
        except orjson.JSONDecodeError:
            continue
        return value if isinstance(value, str) else None
    return None


def _string_after(data: bytes, key: bytes, start: int) -> tuple[str, int] | None:
    """The (possibly cut) string value of ``key`` at or after ``start``, and where it ended."""
    needle = b'"' + key + b'"'
    match = search_from(re.compile(re.escape(needle) + b'\\s*:\\s*"'), needle, data, start)
    if match is None:
        return None
    begin = match.end()
    end = _string_end(data, begin, min(len(data), begin + _OUTPUT_BYTES))
    text = _json_string(data[begin:end])
    if text is not None and data[end : end + 1] != b'"':
        text = fmt.whole_words(text)  # cut: its last word may be half a secret
    return (text or "", end) if text is not None else None


def raw_text(skim: Skim) -> str:
    """What a line too long to hold shows of its text: its head and tail as they are written
    (taint searches JSON escapes decoded too, so a token after a ``\\n`` is still found)."""
    parts = (_without_data(skim.head), _without_data(skim.tail))
    return "\n".join(p.decode("utf-8", "replace") for p in parts)


def _without_data(raw: bytes) -> bytes:
    """``raw`` without the long unbroken ``"data"`` strings an image or a PDF carries (base64:
    nothing to read, and costly to search)."""
    out, at = [], 0
    while (i := raw.find(b'"data":"', at)) >= 0:
        begin = i + 8
        end = _string_end(raw, begin, len(raw))
        if end - begin > 1024 and b" " not in raw[begin : begin + 256]:
            out.append(raw[at:begin])
            at = end
        else:
            out.append(raw[at:end])
            at = end
    out.append(raw[at:])
    return b"".join(out)


def skim_field(skim: Skim, key: bytes) -> str | None:
    """A short string field of a line too long to hold, from its tail or envelope."""
    return _field(key, skim.tail, skim.head[:_ENVELOPE])


def rebuild_user(skim: Skim) -> dict[str, Any] | None:
    """A small user record from a huge line: tool result head and flags, or a prompt's text."""
    head, tail = skim.head, skim.tail
    envelope = head[:_ENVELOPE]  # the envelope sits before the message or after it, never inside
    record: dict[str, Any] = {"type": "user"}
    for key in ("timestamp", "uuid", "cwd", "sessionId", "version", "gitBranch"):
        value = _field(key.encode(), tail, envelope)
        if value is not None:
            record[key] = value
    if _flag(b"isSidechain", envelope, tail):
        record["isSidechain"] = True
        # Which subagent (1.0.x inline sidechains): its chain, or its id.
        for key in ("parentUuid", "agentId"):
            value = _field(key.encode(), tail, envelope)
            if value is not None:
                record[key] = value
    if _flag(b"isMeta", head[:_HEAD_SCAN]):
        record["isMeta"] = True
    tool_use_id = _field(b"tool_use_id", envelope)
    if tool_use_id is None:
        text = _string_after(head, b"text", 0)
        if text is None:
            return None  # an image or other payload with nothing for detection
        record["message"] = {"role": "user", "content": [{"type": "text", "text": text[0]}]}
        return record
    start = head.find(b'"tool_use_id"')
    content = (
        _string_after(head, b"content", start) or _string_after(head, b"text", start) or ("", 0)
    )
    # is_error follows the content, so a huge result may hide it: its text tells the same.
    is_error = _flag(b"is_error", envelope, tail) or content[0].startswith(
        ("Exit code ", "<tool_use_error>")
    )
    note = f"\n[... {skim.size:,} byte record, only its start was read ...]"
    record["message"] = {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": tool_use_id,
                "content": content[0] + note,
                "is_error": is_error,
            }
        ],
    }
    result: dict[str, Any] = {}
    interpretation = _field(b"returnCodeInterpretation", tail, head)
    if interpretation:
        result["returnCodeInterpretation"] = interpretation
    if _flag(b"interrupted", tail):
        result["interrupted"] = True
    record["toolUseResult"] = result or None
    return record
