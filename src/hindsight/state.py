"""state.json: the watermark and the evidence keys that keep a finding from being reported twice.

Only ids and hashes live here, never transcript text.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from hindsight import clock, fsutil, layout
from hindsight.clock import iso, parse_iso
from hindsight.errors import HindsightError
from hindsight.record import Record
from hindsight.redact import redact_json

STATE_VERSION = 1


class State(Record):
    _fields = (
        "last_scan",
        "scan_started",
        "reported",
        "last_run",
        "scan_since",
        "recovered",
        "horizon",
        "files",
        "scan_files",
    )
    last_scan: datetime | None
    scan_started: datetime | None
    reported: set[str]
    last_run: dict[str, Any]
    scan_since: datetime | None  # the window start of the scan waiting for commit
    recovered: bool  # loaded in place of a corrupt file (kept aside when saved)
    horizon: datetime | None  # files never read count when changed after it (discover.py)
    files: dict[str, tuple[int, float]]  # file key -> (size, mtime) when last read through
    scan_files: dict[str, tuple[int, float]]  # what the scan waiting for commit read

    def __init__(
        self,
        last_scan: datetime | None = None,
        scan_started: datetime | None = None,
        reported: set[str] | None = None,
        last_run: dict[str, Any] | None = None,
        scan_since: datetime | None = None,
        recovered: bool = False,
        horizon: datetime | None = None,
        files: dict[str, tuple[int, float]] | None = None,
        scan_files: dict[str, tuple[int, float]] | None = None,
    ) -> None:
        self.last_scan = last_scan
        self.scan_started = scan_started
        self.reported = set() if reported is None else reported
        self.last_run = {} if last_run is None else last_run
        self.scan_since = scan_since
        self.recovered = recovered
        self.horizon = horizon
        self.files = {} if files is None else files
        self.scan_files = {} if scan_files is None else scan_files

    def to_json(self) -> bytes:
        doc = {
            "version": STATE_VERSION,
            "last_scan": iso(self.last_scan) if self.last_scan else None,
            "scan_started": iso(self.scan_started) if self.scan_started else None,
            "scan_since": iso(self.scan_since) if self.scan_since else None,
            "horizon": iso(self.horizon) if self.horizon else None,
            "files": {k: list(v) for k, v in sorted(self.files.items())},
            "scan_files": {k: list(v) for k, v in sorted(self.scan_files.items())},
            "reported": sorted(self.reported),
            "last_run": redact_json(self.last_run),
        }
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def state_path(memory_dir: Path) -> Path:
    return layout.state(memory_dir)


def _corrupt(path: Path, why: str) -> HindsightError:
    return HindsightError(
        f"{path} is corrupt ({why}); fix or move it aside, or pass --since (e.g. --since 3d) "
        "to read without the watermark"
    )


def load(memory_dir: Path, *, tolerate_corrupt: bool = False) -> State:
    """The saved state; missing means a first run. A corrupt file is an error unless the caller
    was told a window explicitly (``--since``), never a silent reset."""
    path = state_path(memory_dir)
    data = fsutil.read_bytes(path)
    if data is None:
        return State()
    try:
        doc = orjson.loads(data)
        if not isinstance(doc, dict):
            raise ValueError("not a JSON object")
        version = doc.get("version", STATE_VERSION)
        if not isinstance(version, int) or version > STATE_VERSION:
            raise ValueError(f"unknown version {version!r}")
        reported = doc.get("reported") or []
        last_run = doc.get("last_run") or {}
        if not isinstance(reported, list) or not all(isinstance(k, str) for k in reported):
            raise ValueError("'reported' is not a list of strings")
        if not isinstance(last_run, dict):
            raise ValueError("'last_run' is not an object")
        return State(
            last_scan=_time(doc.get("last_scan")),
            scan_started=_time(doc.get("scan_started")),
            scan_since=_time(doc.get("scan_since")),
            reported=set(reported),
            last_run=last_run,
            horizon=_time(doc.get("horizon")),
            files=_files(doc.get("files")),
            scan_files=_files(doc.get("scan_files")),
        )
    except (orjson.JSONDecodeError, ValueError, TypeError) as exc:
        if tolerate_corrupt:
            return State(recovered=True)
        raise _corrupt(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc


def update(saved: State, fields: dict[str, Any]) -> None:
    """Set the fields a transaction carries (ISO times as text, as in the journal)."""
    if "scan_started" in fields:
        saved.scan_started = _time(fields["scan_started"])
    if "scan_since" in fields:
        saved.scan_since = _time(fields["scan_since"])
    if "scan_files" in fields:
        saved.scan_files = _files(fields["scan_files"])
    commit = _time(fields.get("commit"))
    if commit is not None:
        commit_files(saved, commit, _files(fields.get("files")), _time(fields.get("horizon")))


def commit_files(
    saved: State,
    start: datetime,
    files: dict[str, tuple[int, float]],
    horizon: datetime | None,
) -> None:
    """Record the files a scan read through, keep the first horizon, move the watermark (shown
    by `status`) forward to the scan's start, and leave no scan waiting."""
    saved.files.update(files)
    if saved.horizon is None:
        saved.horizon = horizon
    if saved.last_scan is None or start > saved.last_scan:
        saved.last_scan = start
    saved.scan_started = None
    saved.scan_files = {}


def _files(value: object) -> dict[str, tuple[int, float]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("'files' is not an object")
    out: dict[str, tuple[int, float]] = {}
    for key, pair in value.items():
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            raise ValueError(f"progress of {key!r} is not [size, mtime]")
        out[str(key)] = (int(pair[0]), float(pair[1]))
    return out


def _time(value: object) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"time {value!r} is not a string")
    return parse_iso(value)


def save(memory_dir: Path, state: State) -> Path:
    path = state_path(memory_dir)
    if state.recovered and path.exists():
        # The user chose --since over a corrupt file: keep the old bytes beside it, never lose them.
        old = fsutil.read_bytes(path) or b""
        aside = path.with_name(f"state.json.corrupt-{clock.now().strftime('%Y%m%d-%H%M%S')}")
        fsutil.atomic_write(aside, old, root=memory_dir)
        state.recovered = False
    fsutil.atomic_write(path, state.to_json(), root=memory_dir)

    return path
