"""Quality benchmark: hindsight's memory and report against hand-written labels (issue #10).

Every labelled source of the development set (../shared/fixtures/claude-code/real/) is laid out
as a user's machine has it (quality_layout.py) and run twice, through the real CLI in-process:

- batch: one ``hindsight run`` over all its sessions (rules judge);
- session: one run per session in the order the sessions ended, each transcript laid into the
  Claude home just before its run, the watermark making each run read just that session (what
  the SessionEnd hook does).

It prints, per source and overall: memory precision (entries matching a keep label's pattern /
all entries written to memory, block and archive), recall of the non-weak keep labels in memory
and of all keep labels in the report, every memory entry with its verdict, the labelled lessons
missed, and the digest's evidence recall (keep labels whose ``digest`` strings all appear in
``hindsight digest`` output at its default byte budget).

    python bench/quality.py [--source NAME ...] [--labels DIR] [--mode batch|session|both]
                            [--jobs N] [--json] [--keep]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "src"))

from quality_layout import Layout  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures" / "claude-code" / "real"
LABELS = ROOT / "bench" / "quality_labels"
MODES = ("batch", "session")


def cli(*args: str) -> str:
    """The real command line, in this process: its stdout, or an error with its stderr."""
    from hindsight import cli as hindsight_cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = hindsight_cli.main(list(args))
    if code != 0:
        raise RuntimeError(f"hindsight {' '.join(args[:1])} exited {code}: {err.getvalue()}")
    return out.getvalue()


def _where(layout: Layout) -> list[str]:
    return [
        "--repo",
        str(layout.repo),
        "--claude-home",
        str(layout.home),
        "--memory-dir",
        str(layout.memory),
    ]


def memory_entries(memory: Path) -> list[str]:
    """Every entry hindsight put into memory: the block's lines, then those pruned to the archive."""
    from hindsight.memory import ARCHIVE_FILE, END, MEMORY_FILE, START

    out: list[str] = []
    path = memory / MEMORY_FILE
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if START in text and END in text:
            block = text.split(START, 1)[1].split(END, 1)[0]
            out += [ln for ln in block.splitlines() if ln.startswith("- ")]
    archive = memory / ARCHIVE_FILE
    if archive.exists():
        out += [
            ln for ln in archive.read_text(encoding="utf-8").splitlines() if ln.startswith("- ")
        ]
    return out


_ITEM = re.compile(r"^(?:\d+\. \*\*|\d+\. Report only |- \*\*)")


def report_items(memory: Path) -> list[str]:
    """The report's lessons, recommendations and unfinished items, each as its own text: title and
    body, without evidence pointers or quoted tool output (what hindsight said, not what it quoted).
    A report-only lesson's own text stands fenced under its header: that fence is the item's."""
    items: list[str] = []
    folder = memory / "hindsight" / "reports"
    for path in sorted(folder.glob("*.md")) if folder.exists() else []:
        current: list[str] | None = None
        fenced = False
        own_fence = False  # the fence right under a "Report only" header holds the lesson
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("```"):
                if not fenced:
                    own_fence = (
                        current is not None and len(current) == 1 and "Report only" in current[0]
                    )
                fenced = not fenced
                continue
            if fenced:
                if own_fence and current is not None:
                    current.append(stripped)
                    items[-1] = "\n".join(current)
                continue
            if _ITEM.match(line):
                current = [line]
                items.append(line)
            elif current is not None and line.startswith("   ") and stripped:
                if stripped.startswith(("Evidence:", "Data quoted", "(excerpt withheld")):
                    continue
                current.append(stripped)
                items[-1] = "\n".join(current)
            else:
                current = None
    return items


def _search(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


def verdict(entry: str, labels: dict[str, Any]) -> tuple[str, str | None]:
    """("keep", id), ("never", id) or ("unlabelled", None): a never match is false even when a
    keep pattern matches too (precision first)."""
    never = next((n["id"] for n in labels.get("never", []) if _search(n["pattern"], entry)), None)
    if never:
        return "never", never
    keep = next((k["id"] for k in labels["keep"] if _search(k["pattern"], entry)), None)
    return ("keep", keep) if keep else ("unlabelled", None)


def score(
    entries: list[str], items: list[str], digest: str, labels: dict[str, Any]
) -> dict[str, Any]:
    """The numbers for one source in one mode (texts already mapped back to the recorded root)."""
    verdicts = []
    for entry in entries:
        kind, label = verdict(entry, labels)
        verdicts.append({"entry": entry, "verdict": kind, "label": label})
    keep = labels["keep"]
    strong = [k for k in keep if k.get("strength") != "weak"]
    in_memory = {
        k["id"]
        for k in keep
        if any(v["verdict"] == "keep" and _search(k["pattern"], v["entry"]) for v in verdicts)
    }
    in_report = {k["id"] for k in keep if any(_search(k["pattern"], item) for item in items)}
    # Whitespace runs as one space: the digest writes a prompt on one line, as a model reads it.
    lowered = " ".join(digest.lower().split())
    # A label with no digest strings says nothing about the digest: it is left out of that ratio.
    with_digest = [k for k in keep if k.get("digest")]

    def seen(text: str) -> bool:
        return " ".join(text.lower().split()) in lowered

    in_digest = {k["id"] for k in with_digest if all(seen(s) for s in k["digest"])}
    return {
        "entries": len(entries),
        "keep_entries": sum(v["verdict"] == "keep" for v in verdicts),
        "never_entries": sum(v["verdict"] == "never" for v in verdicts),
        "verdicts": verdicts,
        "strong_labels": len(strong),
        "labels": len(keep),
        "digest_labels": len(with_digest),
        "memory_hits": sorted(k["id"] for k in strong if k["id"] in in_memory),
        "report_hits": sorted(k["id"] for k in keep if k["id"] in in_report),
        "digest_hits": sorted(k["id"] for k in keep if k["id"] in in_digest),
        "report_items": len(items),
        "digest_missing": {
            k["id"]: [x for x in k["digest"] if not seen(x)]
            for k in with_digest
            if k["id"] not in in_digest
        },
        "missed": [
            {
                "id": k["id"],
                "strength": k.get("strength"),
                "in_report": k["id"] in in_report,
                "in_digest": k["id"] in in_digest,
                "lesson": k["lesson"],
            }
            for k in keep
            if k["id"] not in in_memory
        ],
    }


def run_batch(layout: Layout) -> tuple[list[str], list[str], str]:
    for t in layout.transcripts:
        layout.lay(t.name)
    digest = cli("digest", *_where(layout))
    cli("run", *_where(layout), "--quiet")
    return memory_entries(layout.memory), report_items(layout.memory), digest


def run_sessions(layout: Layout) -> tuple[list[str], list[str], str]:
    digests = []
    for t in layout.transcripts:
        layout.lay(t.name)
        digests.append(cli("digest", *_where(layout)))
        cli("run", *_where(layout), "--quiet")
    return memory_entries(layout.memory), report_items(layout.memory), "\n".join(digests)


def run_skill(layout: Layout, lessons: Path) -> tuple[list[str], list[str], str]:
    """The skill's path (SKILL.md): `digest`, a model's lessons JSON, `apply`, `commit`. The
    digest is written beside the lessons the first time (``--prepare``): the model reads that
    file, blind to the labels; with its answer there, the answer is applied and scored."""
    for t in layout.transcripts:
        layout.lay(t.name)
    digest = cli("digest", *_where(layout))
    seen = lessons.parent / "digest.md"
    if not seen.exists():
        seen.write_text(digest, encoding="utf-8")
    if lessons.exists():
        cli("apply", str(lessons), *_where(layout))
        cli("commit", *_where(layout))
    return memory_entries(layout.memory), report_items(layout.memory), digest


def _base(mode: str, source: str, skill_dir: str | None) -> Path:
    """A fresh temp folder; the skill mode's is fixed (its digest's paths are the answer's)."""
    if mode != "skill" or skill_dir is None:
        return Path(tempfile.mkdtemp(prefix="hq-"))
    base = Path(skill_dir).resolve() / source / "machine"
    shutil.rmtree(base, ignore_errors=True)
    return base


def evaluate(
    source: str,
    fixtures: str,
    labels: dict[str, Any],
    modes: list[str],
    keep: bool,
    skill_dir: str | None = None,
) -> dict[str, Any]:
    """One source in every mode: a fresh layout each, scored against its labels."""
    started = time.perf_counter()
    out: dict[str, Any] = {"source": source, "modes": {}}
    for mode in modes:
        base = _base(mode, source, skill_dir)
        home = os.environ.get("HOME")
        try:
            layout = Layout(Path(fixtures) / source, base)
            os.environ["HOME"] = str(layout.user_home)  # `~` as on the user's machine
            if mode == "skill":
                answer = Path(str(skill_dir)).resolve() / source / "lessons.json"
                entries, items, digest = run_skill(layout, answer)
            else:
                entries, items, digest = (run_batch if mode == "batch" else run_sessions)(layout)
            unmap = layout.unmap
            result = score(
                [unmap(e) for e in entries], [unmap(i) for i in items], unmap(digest), labels
            )
            result["sessions"] = len(layout.transcripts)
            result["recorded_root"] = layout.recorded_root
            result["digest_bytes"] = len(digest.encode())
            if keep:
                result["folder"] = str(base)
            out["modes"][mode] = result
        finally:
            if home is not None:
                os.environ["HOME"] = home
            if not keep and mode != "skill":
                shutil.rmtree(base, ignore_errors=True)
    out["seconds"] = round(time.perf_counter() - started, 2)
    return out


def _ratio(n: int, d: int) -> float | None:
    return round(n / d, 3) if d else None


def overall(results: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    rows = [r["modes"][mode] for r in results if mode in r["modes"]]
    entries = sum(r["entries"] for r in rows)
    strong = sum(r["strong_labels"] for r in rows)
    labels = sum(r["labels"] for r in rows)
    return {
        "entries": entries,
        "keep_entries": sum(r["keep_entries"] for r in rows),
        "never_entries": sum(r["never_entries"] for r in rows),
        "precision": _ratio(sum(r["keep_entries"] for r in rows), entries),
        "memory_recall": _ratio(sum(len(r["memory_hits"]) for r in rows), strong),
        "report_recall": _ratio(sum(len(r["report_hits"]) for r in rows), labels),
        "digest_recall": _ratio(
            sum(len(r["digest_hits"]) for r in rows), sum(r["digest_labels"] for r in rows)
        ),
        "strong_labels": strong,
        "labels": labels,
    }


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def print_text(results: list[dict[str, Any]], modes: list[str], seconds: float) -> None:
    head = f"{'source':<40} {'mode':<8} {'entries':>7} {'keep':>4} {'never':>5} {'prec':>5} {'memory':>7} {'report':>7} {'digest':>7}"
    print(head)
    print("-" * len(head))
    for r in results:
        for mode in modes:
            m = r["modes"][mode]
            prec = _pct(_ratio(m["keep_entries"], m["entries"]))
            print(
                f"{r['source'][:40]:<40} {mode:<8} {m['entries']:>7} {m['keep_entries']:>4} {m['never_entries']:>5} {prec:>5} "
                f"{len(m['memory_hits']):>3}/{m['strong_labels']:<3} {len(m['report_hits']):>3}/{m['labels']:<3} "
                f"{len(m['digest_hits']):>3}/{m['digest_labels']:<3}"
            )
    print("-" * len(head))
    for mode in modes:
        o = overall(results, mode)
        print(
            f"{'OVERALL':<40} {mode:<8} {o['entries']:>7} {o['keep_entries']:>4} {o['never_entries']:>5} "
            f"{_pct(o['precision']):>5} {_pct(o['memory_recall']):>7} {_pct(o['report_recall']):>7} {_pct(o['digest_recall']):>7}"
        )
    print(f"\n{len(results)} sources in {seconds:.1f} s")
    for r in results:
        for mode in modes:
            m = r["modes"][mode]
            print(
                f"\n## {r['source']} ({mode}, {m['sessions']} sessions, root {m['recorded_root']})"
            )
            for v in m["verdicts"]:
                tag = v["verdict"] if v["label"] is None else f"{v['verdict']}:{v['label']}"
                print(f"  [{tag}] {v['entry'][:220]}")
            for miss in m["missed"]:
                where = "report" if miss["in_report"] else "nowhere"
                digest = "digest ok" if miss["in_digest"] else "digest MISSING"
                print(
                    f"  missed {miss['id']} ({miss['strength']}; {where}; {digest}): {miss['lesson'][:150]}"
                )


def load_labels(folder: Path, wanted: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        name = doc.get("source") or path.stem
        if not wanted or any(w in name for w in wanted):
            out[name] = doc
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--source", action="append", default=[], help="only sources whose name contains this"
    )
    parser.add_argument(
        "--labels", type=Path, default=LABELS, help="folder of <source>.json labels"
    )
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="the development set")
    parser.add_argument(
        "--mode",
        choices=(*MODES, "both", "skill"),
        default="both",
        help="skill: score a model's answers to the digests under --skill-dir (SKILL.md's path)",
    )
    parser.add_argument(
        "--skill-dir",
        type=Path,
        help="with --mode skill: <source>/digest.md is written here, <source>/lessons.json read",
    )
    parser.add_argument("--jobs", type=int, default=2, help="sources evaluated in parallel")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--keep", action="store_true", help="keep the laid-out folders (printed)")
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(
            f"quality: {args.fixtures} not found (needs ../shared/fixtures beside the repo)",
            file=sys.stderr,
        )
        return 1
    labels = load_labels(args.labels, args.source)
    labels = {name: doc for name, doc in labels.items() if (args.fixtures / name).is_dir()}
    if not labels:
        print(
            f"quality: no label file in {args.labels} names a source of {args.fixtures}",
            file=sys.stderr,
        )
        return 1
    modes = list(MODES) if args.mode == "both" else [args.mode]
    if args.mode == "skill" and args.skill_dir is None:
        print("quality: --mode skill needs --skill-dir", file=sys.stderr)
        return 1
    started = time.perf_counter()
    names = sorted(labels)
    skill = str(args.skill_dir) if args.skill_dir else None
    jobs = [(n, str(args.fixtures), labels[n], modes, args.keep, skill) for n in names]
    if args.jobs > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(evaluate, *zip(*jobs, strict=True)))
    else:
        results = [evaluate(*job) for job in jobs]
    seconds = time.perf_counter() - started
    if args.json:
        doc = {
            "seconds": round(seconds, 2),
            "overall": {mode: overall(results, mode) for mode in modes},
            "sources": results,
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print_text(results, modes, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
