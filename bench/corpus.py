"""Build a realistic Claude Code history for the benchmark: a test repo and a Claude home.

Sessions are copies of real transcripts (../shared/fixtures and our own recordings in
src/hindsight/example/recording), each with its own session id and a cwd inside the test repo,
weighted to current versions (Claude Code deletes transcripts after 30 days, so users mostly hold
recent ones). The bulk that real histories carry and the fixtures had cut is put back: whole-prompt
`api-request-blob` records, base64 screenshots, large tool outputs, long runs of `progress` records,
and (from 1 GB up) one session over 100 MB with a 30 MB line.

    python bench/corpus.py OUT [--size 100MB|1GB] [--seed 7]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "fixtures" / "claude-code"
OURS = ROOT / "src" / "hindsight" / "example" / "recording" / "projects"
sys.path.insert(0, str(ROOT / "src"))

from hindsight.locate import claude_folder_name  # noqa: E402

_UNITS = {"KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}


def parse_size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]B)\s*", text.upper())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: use a size such as 100MB or 1GB")
    return int(float(match.group(1)) * _UNITS[match.group(2)])


def templates() -> list[tuple[float, Path, list[Path]]]:
    """(weight, main transcript, its subagent files): current versions weigh most."""
    out: list[tuple[float, Path, list[Path]]] = []
    for path in sorted(OURS.glob("*/*.jsonl")):
        out.append((6.0, path, []))
    if SHARED.exists():
        out.append((6.0, SHARED / "v2.1.328" / "5e2a6bfc-9d40-4b7f-b9ba-1ded8eefd16c.jsonl", []))
        big = SHARED / "v2.1.39" / "258c7280-ae70-4798-800f-63464d01a85d.jsonl"
        out.append((3.0, big, sorted((big.parent / big.stem / "subagents").glob("*.jsonl"))))
        out.append((2.0, SHARED / "v2.1.39" / "short.jsonl", []))
        out.append((2.0, SHARED / "v2.1.39" / "tool_heavy.jsonl", []))
        out.append((1.0, SHARED / "v2.0.76" / "sample_main_transcript.jsonl", []))
        out.append((0.5, SHARED / "v2.1.241" / "lines.jsonl", []))
    return out


def _dumps(record: dict[str, Any]) -> str:
    """As Claude Code writes them: compact, UTF-8."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def _blob(rng: random.Random, size: int) -> str:
    words = [
        "the",
        "tool",
        "session",
        "file",
        "read",
        "bash",
        "result",
        "error",
        "agent",
        "context",
        "model",
    ]
    return " ".join(rng.choice(words) for _ in range(size // 5))[:size]


def _envelope(cwd: str, sid: str) -> dict[str, Any]:
    """The fields Claude Code writes before a conversation record's type."""
    return {
        "parentUuid": str(uuid.uuid4()),
        "isSidechain": False,
        "userType": "external",
        "cwd": cwd,
        "sessionId": sid,
        "version": "2.1.328",
        "gitBranch": "main",
    }


def _bulk(rng: random.Random, cwd: str, sid: str, when: str) -> list[str]:
    """Records that make real histories heavy and that detection does not need, with the key order
    Claude Code writes: metadata records type first, conversation records type after the envelope,
    attachments type last."""
    envelope = _envelope(cwd, sid)
    out = [
        _dumps(
            {
                "type": "api-request-blob",
                "uuid": str(uuid.uuid4()),
                "timestamp": when,
                "sessionId": sid,
                "blob": {"system": _blob(rng, rng.randint(60_000, 250_000)), "messages": []},
            }
        )
    ]
    for _ in range(rng.randint(5, 40)):
        out.append(
            _dumps(
                {
                    **envelope,
                    "type": "progress",
                    "data": {
                        "type": "bash_progress",
                        "output": _blob(rng, 400),
                        "elapsedTimeSeconds": 3,
                    },
                    "uuid": str(uuid.uuid4()),
                    "timestamp": when,
                }
            )
        )
    if rng.random() < 0.3:
        image = base64.b64encode(rng.randbytes(rng.randint(200_000, 900_000))).decode()
        out.append(
            _dumps(
                {
                    **envelope,
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": image,
                                },
                            }
                        ],
                    },
                    "uuid": str(uuid.uuid4()),
                    "timestamp": when,
                }
            )
        )
    out.append(
        _dumps(
            {
                "parentUuid": str(uuid.uuid4()),
                "isSidechain": False,
                "attachment": {"type": "file", "content": _blob(rng, rng.randint(5_000, 60_000))},
                "type": "attachment",
                "uuid": str(uuid.uuid4()),
                "timestamp": when,
                "cwd": cwd,
                "sessionId": sid,
            }
        )
    )
    return out


def _big_tool_pair(rng: random.Random, cwd: str, sid: str, when: str, size: int) -> list[str]:
    tid = f"toolu_{uuid.uuid4().hex[:20]}"
    envelope = _envelope(cwd, sid)
    use = {
        **envelope,
        "message": {
            "id": f"msg_{uuid.uuid4().hex[:20]}",
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": tid,
                    "name": "Bash",
                    "input": {"command": "cat build.log"},
                }
            ],
        },
        "type": "assistant",
        "uuid": str(uuid.uuid4()),
        "timestamp": when,
    }
    out = _blob(rng, size)
    result = {
        **envelope,
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {"tool_use_id": tid, "type": "tool_result", "content": out, "is_error": False}
            ],
        },
        "uuid": str(uuid.uuid4()),
        "timestamp": when,
        "toolUseResult": {"stdout": out, "stderr": "", "interrupted": False, "isImage": False},
    }
    return [_dumps(use), _dumps(result)]


_UUID_FIELD = re.compile(r'"(uuid|parentUuid|leafUuid|logicalParentUuid)":"([0-9a-f-]{36})"')


def session_lines(rng: random.Random, template: Path, cwd: str, sid: str) -> tuple[list[str], str]:
    text = template.read_text(encoding="utf-8")
    old_cwds = set(re.findall(r'"cwd":"((?:[^"\\]|\\.)*)"', text))
    old_sids = set(re.findall(r'"sessionId":"([^"]+)"', text))
    for old in sorted(old_cwds, key=len, reverse=True):
        text = text.replace(f'"cwd":"{old}"', f'"cwd":"{cwd}"')
    for old in old_sids:
        text = text.replace(old, sid)
    # Fresh record uuids per copy, chains kept: the same uuid in two sessions is a resume's copy,
    # which the reader counts once (discover.read), and a user's history has no such twins.
    fresh: dict[str, str] = {}
    text = _UUID_FIELD.sub(
        lambda m: f'"{m.group(1)}":"{fresh.setdefault(m.group(2), str(uuid.uuid4()))}"', text
    )
    lines = text.splitlines()
    when = next(
        (m.group(1) for m in re.finditer(r'"timestamp":"([^"]+)"', text)),
        "2026-11-30T10:00:00.000Z",
    )
    return lines, when


def build(out: Path, size: int, seed: int) -> tuple[Path, Path]:
    rng = random.Random(seed)
    repo = out / "repo.app_v2"
    home = out / "claude-home"
    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    projects = home / "projects"
    subdirs = [str(repo), str(repo / "src"), str(repo / "docs")]
    pool = templates()
    weights = [w for w, _, _ in pool]
    written = 0
    n = 0
    huge_left = size >= (1 << 30)
    while written < size:
        _, template, subs = rng.choices(pool, weights)[0]
        cwd = rng.choice(subdirs)
        sid = str(uuid.uuid4())
        folder = projects / claude_folder_name(cwd)
        folder.mkdir(parents=True, exist_ok=True)
        lines, when = session_lines(rng, template, cwd, sid)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(lines))
            lines[at:at] = _bulk(rng, cwd, sid, when)
        if rng.random() < 0.2:
            lines += _big_tool_pair(rng, cwd, sid, when, rng.randint(100_000, 2_000_000))
        if huge_left:
            # One session over 100 MB, one of its lines 30 MB: what a single heavy day can leave.
            lines += _big_tool_pair(rng, cwd, sid, when, 30 << 20)
            while sum(len(x) for x in lines) < (110 << 20):
                lines += _bulk(rng, cwd, sid, when)
            huge_left = False
        path = folder / f"{sid}.jsonl"
        data = ("\n".join(lines) + "\n").encode()
        path.write_bytes(data)
        written += len(data)
        for sub in subs:
            sub_lines, _ = session_lines(rng, sub, cwd, sid)
            dest = folder / sid / "subagents" / sub.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            sub_data = ("\n".join(sub_lines) + "\n").encode()
            dest.write_bytes(sub_data)
            written += len(sub_data)
        n += 1
    print(f"{n} sessions, {written / (1 << 20):.0f} MB in {home}", file=sys.stderr)
    return repo, home


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=parse_size, default=parse_size("100MB"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    build(args.out, args.size, args.seed)


if __name__ == "__main__":
    main()
