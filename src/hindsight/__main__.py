from __future__ import annotations

from hindsight.cli import entry

entry()
