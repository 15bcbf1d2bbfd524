"""Benchmark `yili process` over ../shared/corpus: throughput, peak memory, stages, scaling, a peer.

    .venv/bin/python bench/process_bench.py [--quick]

Writes bench/results/process.json and bench/results/process.md (quoted in the README).
- throughput (chars/s) and peak RSS of the whole process tree, with 1 and 2 workers;
- seconds per stage (layers, normalise, sentences, tagging, actions) in one process;
- cost growth with input size: the corpus 1x, 4x, 16x (copies, 2 workers);
- UD-Kanbun (PyPI `udkanbun`, offline) on a slice of the same text, as the reference peer.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("YILI_SHARED", REPO.parent / "shared")) / "corpus"
RESULTS = REPO / "bench" / "results"
sys.path.insert(0, str(REPO))


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md")


def tree_rss_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of a process and all its descendants, from /proc. RSS counts the pages
    that forked workers share with their parent once per process; PSS splits them fairly, so the
    PSS sum is the memory the run really holds."""
    total = 0
    pss = 0
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            pass
        stack.extend(children.get(p, []))
    return total, pss


def run_process(inputs: list[str], jobs: int, out: Path) -> dict:
    cmd = [str(REPO / ".venv" / "bin" / "yili"), "process", *inputs, "-o", str(out), "-q", "--no-resume", "-j", str(jobs)]
    if not Path(cmd[0]).exists():
        cmd = [sys.executable, "-m", "pipeline.cli", *cmd[1:]]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = peak_pss = 0
    while proc.poll() is None:
        rss, pss = tree_rss_kb(proc.pid)
        peak, peak_pss = max(peak, rss), max(peak_pss, pss)
        time.sleep(0.1)
    seconds = time.perf_counter() - started
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    chars = 0
    failed = 0
    with open(out, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            chars += len(rec.get("text", ""))
            failed += "error" in rec
    return {"jobs": jobs, "chars": chars, "seconds": round(seconds, 2), "chars_per_second": round(chars / seconds),
            "peak_rss_mb": round(peak / 1024, 1), "peak_pss_mb": round(peak_pss / 1024, 1), "failed": failed, "exit": proc.returncode, "stderr_tail": stderr[-300:]}


def stage_times(files: list[Path]) -> dict:
    from pipeline.process import DocumentProcessor
    from pipeline.read.inputs import read_file

    proc = DocumentProcessor()
    proc.preload()
    chars = 0
    started = time.perf_counter()
    for path in files:
        out = proc.process_item(read_file(path))
        chars += len(out.get("text", ""))
    total = time.perf_counter() - started
    stages = {k: round(v, 2) for k, v in sorted(proc.timings.items())}
    return {"chars": chars, "seconds": round(total, 2), "chars_per_second": round(chars / total), "stages": stages}


def udkanbun_peer(text: str) -> dict:
    try:
        import udkanbun
    except ImportError:
        return {"error": "udkanbun not installed: pip install 'yili[udkanbun]'"}
    lzh = udkanbun.load()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    started = time.perf_counter()
    chars = 0
    for ln in lines:
        lzh(ln.replace(",", "，"))
        chars += len(ln)
    seconds = time.perf_counter() - started
    return {"chars": chars, "seconds": round(seconds, 2), "chars_per_second": round(chars / seconds)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="1x and 4x only, a smaller peer slice")
    args = ap.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    files = corpus_files()
    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                    "corpus_files": len(files)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        result["workers"] = [run_process([str(CORPUS)], j, tmp / f"w{j}.jsonl") for j in (1, 2)]
        result["speedup_2_workers"] = round(result["workers"][1]["chars_per_second"] / result["workers"][0]["chars_per_second"], 2)
        result["stages"] = stage_times(files)
        scaling = []
        for factor in ((1, 4) if args.quick else (1, 4, 16)):
            folder = tmp / f"x{factor}"
            for k in range(factor):
                shutil.copytree(CORPUS, folder / f"copy{k}", ignore=shutil.ignore_patterns("README.md"))
            run = run_process([str(folder)], 2, tmp / f"x{factor}.jsonl")
            run["factor"] = factor
            scaling.append(run)
            shutil.rmtree(folder)
        result["scaling"] = scaling
        base = scaling[0]["seconds"] / scaling[0]["chars"]
        for run in scaling:
            run["seconds_per_char_vs_1x"] = round((run["seconds"] / run["chars"]) / base, 2)
        sample = "".join(p.read_text(encoding="utf-8") for p in sorted((CORPUS / "zhengzhu-sbck").glob("*.txt")))
        sample = sample[: 20_000 if args.quick else 60_000]
        peer = udkanbun_peer(sample)
        from pipeline.process import DocumentProcessor

        proc = DocumentProcessor()
        proc.preload()
        started = time.perf_counter()
        proc.process({"text": sample})
        ours = time.perf_counter() - started
        result["peer"] = {"text": f"first {len(sample):,} chars of zhengzhu-sbck", "udkanbun": peer,
                          "yili": {"chars": len(sample), "seconds": round(ours, 2), "chars_per_second": round(len(sample) / ours)}}
    (RESULTS / "process.json").write_text(json.dumps(result, ensure_ascii=False, indent=2), encoding="utf-8")
    (RESULTS / "process.md").write_text(render(result), encoding="utf-8")
    print(render(result))


def render(r: dict) -> str:
    lines = [f"# `yili process` benchmark ({r['date']}, {r['machine']})", "",
             "Memory: peak of the whole process tree, sampled every 0.1 s. RSS counts the model pages that",
             "forked workers share with the parent once per process; PSS divides shared pages among the",
             "processes sharing them, so the PSS sum is what the run really holds.", "",
             "| workers | chars | seconds | chars/s | chars/s per core | peak RSS sum (MB) | peak PSS (MB) | failed |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for w in r["workers"]:
        lines.append(f"| {w['jobs']} | {w['chars']:,} | {w['seconds']} | {w['chars_per_second']:,} | "
                     f"{w['chars_per_second'] // w['jobs']:,} | {w['peak_rss_mb']} | {w['peak_pss_mb']} | {w['failed']} |")
    lines += ["", f"Speed-up with 2 workers: {r['speedup_2_workers']}x", "",
              f"Stages in one process ({r['stages']['chars_per_second']:,} chars/s overall): "
              + ", ".join(f"{k} {v}s" for k, v in r["stages"]["stages"].items()), "",
              "| corpus copies | chars | seconds (2 workers) | chars/s | peak RSS sum (MB) | peak PSS (MB) | cost per char vs 1x |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for s in r["scaling"]:
        lines.append(f"| {s['factor']}x | {s['chars']:,} | {s['seconds']} | {s['chars_per_second']:,} | {s['peak_rss_mb']} | "
                     f"{s['peak_pss_mb']} | {s['seconds_per_char_vs_1x']} |")
    p = r["peer"]
    lines += ["", f"Peer on the {p['text']}: UD-Kanbun {p['udkanbun'].get('chars_per_second', p['udkanbun'])} chars/s; "
              f"yili {p['yili']['chars_per_second']:,} chars/s.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
