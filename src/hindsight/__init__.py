"""hindsight: gives coding agents a memory of their mistakes."""

from __future__ import annotations

__version__ = "0.1.0"
