from __future__ import annotations

from hindsight.cli import main

raise SystemExit(main())
