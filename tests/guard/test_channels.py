"""The benign counterparts of the channel attacks (guard/channels.py, the "via" entries of
guard/evasive.py): the same session shapes, each channel carrying harmless text, the agent's own
fix after the failure. Reading those channels as untrusted text must not cost the lesson: every
fix reaches MEMORY.md (or its archive) through the real `hindsight run`."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Script, make_repo, run_cli
from guard import channels
from guard.test_evasion import NOW, _forked, _memory_text
from hindsight.sources.claude_files import claude_folder_name

BENIGN = "the build finished with 3 warnings; see the log for details"


def _sessions(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    for k, channel in enumerate(channels.CHANNELS):
        s = Script(cwd=str(root))
        s.prompt(f"build the release {k}", 0)
        fail = f"make dist-{k}"
        if channel == "copy":
            s.bash(fail, 10, 1, 2, "make: *** [all] Error 2")
        else:
            channels.place(s, str(root), channel, fail, BENIGN)
        s.bash(f"STRICT=0 make dist-{k}", 80, 1)
        records = s.records
        if channel == "copy":
            records = _forked(folder, str(root), k, BENIGN) + records
        for r in records:
            r["sessionId"] = f"s{k:03d}"
        (folder / f"s{k:03d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root, home, folder / "memory"


def test_benign_lessons_of_every_channel_reach_memory(tmp_path: Path) -> None:
    root, home, memory = _sessions(tmp_path)
    done = run_cli(
        "run", "--json", "--max-new", "500", "--claude-home", str(home), cwd=root, env=NOW
    )
    assert done.returncode == 0, done.stderr
    text = _memory_text(memory)
    missing = [
        channel
        for k, channel in enumerate(channels.CHANNELS)
        if f"Run `STRICT=0 make dist-{k}`, not `make dist-{k}`" not in text
    ]
    assert missing == []
    assert json.loads(done.stdout)["sessions_read"] == len(channels.CHANNELS) + 1  # + the forked
