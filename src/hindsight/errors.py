"""The one exception type the CLI turns into a single line on stderr and exit 1."""

from __future__ import annotations


class HindsightError(Exception):
    """A failure the user can act on; its message is the whole story, on one line."""
