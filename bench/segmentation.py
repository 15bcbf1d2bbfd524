"""Benchmark the 斷句 model and the tokenizers (the figures quoted in the README).

    .venv/bin/python bench/segmentation.py [--folds 4] [--workers 2] [--out bench/results/segmentation.json]
    .venv/bin/python bench/segmentation.py --model models/punctuate-lstm   # the CRF + BiLSTM option

Writes bench/results/segmentation.json and bench/results/segmentation.md:
- break P/R/F1 of the 斷句 model on chapters it never saw (chapter-level folds), per layer
  (經/注/疏) and per kind (any / clause / sentence), per chapter; the edition's self-agreement;
- token P/R/F1, UPOS (where tagged) and chars/s of each tokenizer backend on UD Kyoto test;
- the shipped model's chars/s and its breaks on UD Kyoto test (another genre).
Same as `yili evaluate segmentation`. `--folds 11` is leave-one-chapter-out (about 3x slower).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# not bench/ itself: bench/stanza.py would hide the stanza package from the stanza tokenizer
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(REPO))

from pipeline.text.segmentation_eval import evaluate_segmentation  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=4, help="chapter-level folds (11 = leave one chapter out)")
    parser.add_argument("--workers", type=int, default=2, help="processes training folds in parallel")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON results (default bench/results/segmentation.json, or segmentation-<model>.json with --model)")
    parser.add_argument("--model", type=Path, default=None,
                        help="model folder whose settings the folds train with (default models/punctuate)")
    args = parser.parse_args(argv)
    command = f"python bench/segmentation.py --folds {args.folds} --workers {args.workers}"
    if args.model is not None:
        command += f" --model {args.model}"
    if args.out is None:
        name = "segmentation.json" if args.model is None else f"segmentation-{args.model.resolve().name}.json"
        args.out = REPO / "bench" / "results" / name
    # the tokenizers do not depend on the 斷句 model: measured in the default run only
    backends = ("char", "jieba", "udkanbun", "stanza") if args.model is None else ()
    results = evaluate_segmentation(args.out, folds=args.folds, workers=args.workers, command=command,
                                    model_dir=args.model, backends=backends)
    print(args.out.with_suffix(".md").read_text(encoding="utf-8"))
    print(f"wrote {args.out} and {args.out.with_suffix('.md')} in {results['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
