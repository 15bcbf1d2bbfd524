"""Benchmark: train the layer model (classifier + run-together splitter) on all of ../shared/corpus.

The issue's budget is under 60 s on this machine. The model is written to a temporary folder
(the shipped model in models/layers/ is left alone unless --out names it), and the timings go to
bench/results/train_layers.json.

    .venv/bin/python bench/train_layers.py [--out DIR] [--no-splitter]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="model folder (default: a temporary one)")
    parser.add_argument("--no-splitter", action="store_true", help="time the classifier alone")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds the issue allows")
    args = parser.parse_args()

    from pipeline.layers.training import RESULTS, train_layers

    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "layers"
        started = time.perf_counter()
        info = train_layers(out, with_splitter=not args.no_splitter, log=lambda m: print(m, flush=True))
        wall = time.perf_counter() - started
    result = {
        "benchmark": "train layers on all of ../shared/corpus",
        "wall_seconds": round(wall, 1),
        "budget_seconds": args.budget,
        "within_budget": wall < args.budget,
        "seconds": info["seconds"],
        "units": info["units"],
        "examples": info["examples"],
        "model_bytes": info["model_bytes"],
        "splitter": info["splitter"],
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "date": info["trained"],
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "train_layers.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0 if result["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
