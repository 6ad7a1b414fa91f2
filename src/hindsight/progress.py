"""A one-line progress display on stderr for long runs on a terminal; silent otherwise."""

from __future__ import annotations

import os
import sys
import time

from hindsight import fmt


class Progress:
    def __init__(self, total_sessions: int, total_bytes: int, enabled: bool) -> None:
        self.total_sessions = total_sessions
        self.total_bytes = max(total_bytes, 1)
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.shown = False
        self.after = float(os.environ.get("HINDSIGHT_PROGRESS_AFTER", "1.0"))

    def update(self, sessions: int, done_bytes: int) -> None:
        # Only runs that last over a second get a bar: hooks and quick reruns stay quiet.
        if not self.enabled or time.monotonic() - self.start < self.after:
            return
        width = 24
        filled = int(width * done_bytes / self.total_bytes)
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(
            f"\rreading [{bar}] {sessions}/{self.total_sessions} sessions, "
            f"{fmt.size(done_bytes)} of {fmt.size(self.total_bytes)}   "
        )
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()
