"""Where a suggestion reaches the agent through a channel hindsight's reader once dropped (issue
#11, classes b-e), written in Claude Code's record shapes (FORMATS.md, the real fixtures):

- ``long output``: the middle of a tool output past the reader's 6,000 + 2,000 character cap;
- attachments: a hook's added context or blocking error, an @-mentioned file, an edited file's
  snippet, a nested CLAUDE.md;
- a skill's body (``isMeta``), a ``<system-reminder>`` block in the user's turn, the output of a
  local command, a document block, text beside a tool result, a continuation summary written
  without ``isCompactSummary``, a background task's notification;
- harness text in the user's turn: a Stop hook's feedback, a PreToolUse hook's error, a prompt an
  SDK program built (from an issue's body);
- a hook's output in a ``system`` record, a slash command's body written after it without
  ``isMeta`` (older versions), an MCP server's embedded resource beside its text;
- ``copy``: a record an earlier session holds, copied into this one by a fork or a resume.

``place`` writes the channel's record(s) into a Script after the failing command; the agent then
runs the fix. ``earlier`` gives the records of the session a copy comes from.
"""

from __future__ import annotations

from typing import Any

from conftest import Script

CHANNELS = (
    "long output",
    "hook context",
    "hook error",
    "file mention",
    "edited file",
    "nested memory",
    "skill body",
    "reminder",
    "local stdout",
    "document",
    "beside result",
    "summary",
    "notification",
    "stop hook",
    "pretool hook",
    "sdk prompt",
    "system message",
    "command body",
    "mcp resource",
    "copy",
)
FILLER = "".join(f"  compiling module_{n:04d} ... ok ({n % 7} warnings)\n" for n in range(320))


def _attachment(s: Script, at: float, body: dict[str, Any]) -> None:
    s.records.append({**s._base("attachment", at), "attachment": body, "version": "2.1.191"})


def _user(s: Script, at: float, content: Any, **extra: Any) -> None:
    s.records.append(
        {**s._base("user", at), "message": {"role": "user", "content": content}, **extra}
    )


def place(s: Script, root: str, channel: str, fail: str, text: str) -> None:
    """The failing command, then ``text`` where ``channel`` shows it to the agent."""
    error = "make: *** [all] Error 2" if fail.startswith("make") else "error: the step failed"
    code = 2 if fail.startswith("make") else 1
    if channel == "long output":
        s.bash(fail, 10, 1, code, f"{FILLER}{text}\n{FILLER}{error}")
        return
    if channel == "beside result":
        s.bash(fail, 10, 1, code, error)
        s.records[-1]["message"]["content"].append({"type": "text", "text": text})
        return
    if channel == "pretool hook":
        s.bash(fail, 10, 1, code, error)
        _user(s, 12, f"PreToolUse:Bash hook error: [./hooks/guard.sh]: {text}")
        return
    if channel == "sdk prompt":  # the program's next turn, built from an issue's body
        s.bash(fail, 10, 1, code, error)
        _user(s, 12, f"Issue #7 says: {text}", promptSource="sdk", entrypoint="sdk-cli")
        return
    s.bash(fail, 10, 1, code, error)
    tid = s.records[-2]["message"]["content"][0]["id"]
    if channel == "hook context":
        _attachment(
            s,
            11,
            {
                "type": "hook_additional_context",
                "content": [text],
                "hookName": "PostToolUse:Bash",
                "toolUseID": tid,
                "hookEvent": "PostToolUse",
            },
        )
    elif channel == "hook error":
        _attachment(
            s,
            11,
            {
                "type": "hook_blocking_error",
                "hookName": "PostToolUse:Bash",
                "toolUseID": tid,
                "hookEvent": "PostToolUse",
                "blockingError": {"blockingError": text, "command": "./hooks/check.sh"},
            },
        )
    elif channel == "file mention":
        path = f"{root}/docs/BUILD.md"
        _attachment(
            s,
            11,
            {
                "type": "file",
                "filename": path,
                "content": {
                    "type": "text",
                    "file": {
                        "filePath": path,
                        "content": f"# Build\n\n{text}\n",
                        "numLines": 3,
                        "startLine": 1,
                        "totalLines": 3,
                    },
                },
                "displayPath": "docs/BUILD.md",
            },
        )
    elif channel == "edited file":
        _attachment(
            s,
            11,
            {"type": "edited_text_file", "filename": f"{root}/Makefile", "snippet": f"1\t# {text}"},
        )
    elif channel == "nested memory":
        path = f"{root}/vendor/CLAUDE.md"
        _attachment(
            s,
            11,
            {
                "type": "nested_memory",
                "path": path,
                "content": {"path": path, "type": "Project", "content": text},
                "displayPath": "vendor/CLAUDE.md",
            },
        )
    elif channel == "skill body":
        s.tool("Skill", {"skill": "build-helper"}, 11, 0.1, "Launching skill: build-helper")
        body = f"Base directory for this skill: {root}/.claude/skills/build-helper\n\n{text}"
        _user(s, 11.2, [{"type": "text", "text": body}], isMeta=True)
    elif channel == "reminder":
        _user(
            s,
            11,
            [
                {"type": "text", "text": "please go on"},
                {"type": "text", "text": f"<system-reminder>\n{text}\n</system-reminder>"},
            ],
        )
    elif channel == "local stdout":
        _user(s, 11, f"<local-command-stdout>{text}</local-command-stdout>")
    elif channel == "document":
        s.tool(
            "Read",
            {"file_path": f"{root}/docs/build.txt"},
            11,
            0.1,
            [
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": text},
                }
            ],
        )
    elif channel == "summary":
        _user(
            s,
            11,
            "This session is being continued from a previous conversation that ran out of "
            f"context. The conversation is summarized below:\n{text}",
        )
    elif channel == "notification":
        _user(
            s,
            11,
            "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n"
            f"<summary>Background build finished</summary>\n<event>{text}</event>\n"
            "</task-notification>",
            promptSource="system",
            origin={"kind": "task-notification"},
        )
    elif channel == "stop hook":
        _user(
            s, 11, [{"type": "text", "text": f"Stop hook feedback:\n- [./hooks/check.sh]: {text}"}]
        )
    elif channel == "system message":  # a hook's output shown as a system line
        s.records.append(
            {
                **s._base("system", 11),
                "subtype": "informational",
                "level": "info",
                "content": f"SessionStart:resume [./hooks/policy.sh] {text}",
            }
        )
    elif channel == "command body":  # a slash command, then its body from its file, unmarked
        command = {
            **s._base("user", 10.5),
            "message": {
                "role": "user",
                "content": "<command-message>build is running…</command-message>\n"
                "<command-name>/build</command-name>",
            },
        }
        s.records.append(command)
        body = {**s._base("user", 10.6), "message": {"role": "user", "content": text}}
        body["parentUuid"] = command["uuid"]
        s.records.append(body)
    elif channel == "mcp resource":  # an MCP server's embedded resource beside its text
        s.tool(
            "mcp__tracker__get_issue",
            {"id": 12},
            11,
            0.1,
            [
                {"type": "text", "text": "Issue #12: the build is broken"},
                {
                    "type": "resource",
                    "resource": {
                        "uri": "issue://12/body",
                        "mimeType": "text/markdown",
                        "text": text,
                    },
                },
            ],
        )
    else:
        raise ValueError(channel)


def earlier(root: str, text: str) -> Script:
    """The session a fork or resume copies from: the agent read ``text`` in a log there."""
    s = Script(cwd=root)
    s.prompt("look at the last build log", 0)
    s.bash("cat build.log", 2, 1, 0, text)
    s.say("The log is read.", 4)
    return s
