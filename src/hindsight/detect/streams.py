"""Views of a session the detectors share: per-agent event streams and their shell calls."""

from __future__ import annotations

from hindsight.session import Event, Session, ToolCall


def streams(session: Session) -> list[list[Event]]:
    """Events split by who acted (the main agent, each subagent), each in time order.

    Computed once per session: every detector asks for it.
    """
    if session.streams is None:
        by_agent: dict[str | None, list[Event]] = {}
        for event in session.events:
            by_agent.setdefault(event.subagent, []).append(event)
        session.streams = list(by_agent.values())
    return session.streams


def main_stream(session: Session) -> list[Event]:
    return next((s for s in streams(session) if s and s[0].subagent is None), [])


def shell_events(stream: list[Event]) -> list[Event]:
    return [e for e in stream if e.tool is not None and e.tool.command is not None]


def tool_of(event: Event) -> ToolCall:
    assert event.tool is not None
    return event.tool


def relative(path: str, cwd: str | None) -> str:
    """A path as the user would say it: relative to the session's folder when inside it."""
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path
