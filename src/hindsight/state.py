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
        "triggers",
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
    triggers: dict[str, dict[str, Any]]  # trigger key -> sessions met in (detect/triggers.py)

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
        triggers: dict[str, dict[str, Any]] | None = None,
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
        self.triggers = {} if triggers is None else triggers

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
            "triggers": {k: self.triggers[k] for k in sorted(self.triggers)},
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
            triggers=_triggers(doc.get("triggers")),
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
    if "triggers" in fields:
        saved.triggers = merge_triggers(saved.triggers, _triggers(fields["triggers"]))
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


# Bounds of the triggers kept for later runs: a hook runs once a session, for months.
MAX_TRIGGERS = 1000
MAX_TRIGGER_SESSIONS = 8
TRIGGER_DAYS = 90


def merge_triggers(
    saved: dict[str, dict[str, Any]], met: dict[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The triggers met before and in this run: sessions united (a session read again counts
    once, its latest times), a refusal's shared word hashes intersected; then those no run met
    for TRIGGER_DAYS before the newest dropped, and at most MAX_TRIGGERS (the most recent)."""
    out = {k: dict(v) for k, v in saved.items()}
    for key, new in met.items():
        old = out.get(key)
        if old is None:
            out[key] = dict(new)
            continue
        earlier = {k: n for k, n in old["sessions"].items() if k not in new["sessions"]}
        sessions = {**earlier, **new["sessions"]}  # in the order last met
        merged: dict[str, Any] = {"sessions": sessions, "seen": max(old["seen"], new["seen"])}
        for field in ("programs", "words"):
            if field in new:
                both = set(new[field]) & set(old[field]) if field in old else set(new[field])
                merged[field] = sorted(both)
        out[key] = merged
    for trigger in out.values():
        ids = list(trigger["sessions"])[-MAX_TRIGGER_SESSIONS:]  # the latest met
        trigger["sessions"] = {i: trigger["sessions"][i] for i in ids}
    if not out:
        return out
    newest = max(parse_iso(v["seen"]) for v in out.values())
    kept = [
        (v["seen"], k)
        for k, v in out.items()
        if (newest - parse_iso(v["seen"])).days < TRIGGER_DAYS
    ]
    kept.sort(reverse=True)
    return {k: out[k] for _, k in sorted(kept[:MAX_TRIGGERS], key=lambda p: p[1])}


def _triggers(value: object) -> dict[str, dict[str, Any]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("'triggers' is not an object")
    out: dict[str, dict[str, Any]] = {}
    for key, trigger in value.items():
        if not isinstance(trigger, dict) or not isinstance(trigger.get("sessions"), dict):
            raise ValueError(f"trigger {key!r} has no sessions")
        seen = trigger.get("seen")
        if not isinstance(seen, str):
            raise ValueError(f"trigger {key!r} has no time")
        parse_iso(seen)
        item: dict[str, Any] = {
            "sessions": {str(i): int(n) for i, n in trigger["sessions"].items()},
            "seen": seen,
        }
        for field in ("programs", "words"):
            if field in trigger:
                if not isinstance(trigger[field], list):
                    raise ValueError(f"trigger {key!r}: {field!r} is not a list")
                item[field] = [str(w) for w in trigger[field]]
        out[str(key)] = item
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
