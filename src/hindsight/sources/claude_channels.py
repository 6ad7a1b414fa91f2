"""What a Claude Code record shows the agent, and whose words it is: the user's typed prompt, or
text to index as untrusted for taint (issue #11): an attachment, a skill's body or another meta
record, a system reminder, harness text in the user's turn (hook feedback, a task notification,
a continuation summary), a prompt an SDK program sent, a document beside a tool result."""

from __future__ import annotations

import re
from typing import Any

NOT_TYPED = re.compile(r"^\s*(<[a-z][a-z0-9_-]*>|Caveat: )")
# The user's own text in a tag: a slash command he typed, with its arguments.
USERS_OWN = re.compile(r"^\s*<(command-name|command-message|command-args)>")
# Harness text written in the user's turn: a hook's feedback or error, a continuation summary.
HARNESS = re.compile(
    r"^\s*(?:(?:\w+(?::\S+)? hook (?:error|feedback|blocking error|additional context|success)"
    r"|\w+ operation blocked by hook)\b"
    r"|This session is being continued from a previous conversation)",
    re.IGNORECASE,
)
CONTINUED = "This session is being continued from a previous conversation"
REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.S)
# Attachments whose text is the harness's own (a date, a mode, tool names, its system prompt,
# its rules for the environment) or the session's own words (the agent's todo list): every
# other kind is text the agent saw.
_OWN_ATTACHMENTS = frozenset(
    {
        "date",
        "model",
        "auto_mode",
        "auto_mode_exit",
        "plan_mode",
        "plan_mode_exit",
        "command_permissions",
        "task_reminder",
        "todo_reminder",
        "companion_intro",
        "deferred_tools_delta",
        "prompt_snapshot",
        "environment",  # the harness's rules and the platform
        "silent_turn_reminder",
        "remote_session_change",  # the commit trailer the harness adds
    }
)
_ATTACHMENT_IDS = frozenset({"type", "uuid", "toolUseID", "source_uuid", "hookEvent", "base64"})


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", ""))
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        )
    return ""


def seen_of(content: Any) -> str:
    """All the text a tool result or message shows the agent: its text blocks and the text of a
    document block (a text file or a PDF's extracted text), beside any image."""
    text = text_of(content)
    if isinstance(content, list):
        docs = [
            str(source.get("data"))
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "document"
            and isinstance(source := block.get("source"), dict)
            and source.get("type") == "text"
        ]
        # Any other block (an MCP server's embedded resource, a search result): its strings.
        others: list[str] = []
        for block in content:
            if isinstance(block, dict) and block.get("type") not in _PLAIN_BLOCKS:
                _strings(block, others)
        if docs or others:
            text = "\n".join([text, *docs, *others])
    return text


_PLAIN_BLOCKS = frozenset({"text", "image", "document", "tool_result", "tool_use"})


def _strings(value: Any, out: list[str]) -> None:
    """Every string inside an attachment, ids and image data left out."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        if value.get("type") == "image":
            return
        for key, item in value.items():
            if key not in _ATTACHMENT_IDS:
                _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


def attachment_text(record: dict[str, Any]) -> str:
    """The text an attachment shows the agent, or "" for the harness's own kinds."""
    attachment = record.get("attachment")
    if not isinstance(attachment, dict):
        return ""
    kind = attachment.get("type")
    if kind in _OWN_ATTACHMENTS:
        return ""
    origin = attachment.get("origin")
    human = not isinstance(origin, dict) or origin.get("kind") in (None, "human")
    if kind == "queued_command" and human:
        return ""  # a prompt the user typed while the agent worked: it comes again as a prompt
    out: list[str] = []
    _strings(attachment, out)
    _strings(record.get("rendered"), out)
    return "\n".join(out)


def typed(record: dict[str, Any]) -> bool:
    """Whether a prompt is the user's typed words: not one an SDK program built (from an issue's
    body, say), nor one the harness sent (a task notification)."""
    source = record.get("promptSource")
    if source in ("sdk", "system"):
        return False
    origin = record.get("origin")
    if isinstance(origin, dict) and origin.get("kind") not in (None, "human"):
        return False
    entry = record.get("entrypoint")
    return not (isinstance(entry, str) and entry.startswith("sdk") and source != "typed")


def is_prompt(record: dict[str, Any]) -> bool:
    """Whether a user record is (or holds) the user's typed words: no tool result, not meta, not
    harness text, and typed."""
    if record.get("isMeta") or record.get("isCompactSummary") or not typed(record):
        return False
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    ):
        return False
    text = REMINDER.sub("", text_of(content))
    return bool(text.strip()) and not (
        (NOT_TYPED.match(text) and not USERS_OWN.match(text)) or HARNESS.match(text)
    )
