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
    parser.add_argument("--pretrain", type=int, default=0, metavar="EPOCHS",
                        help="compare the folds with and without pre-training the BiLSTM as a char LM for EPOCHS"
                             " (pipeline/text/pretrain_lstm.py; needs a --model with lstm_weight > 0)")
    parser.add_argument("--fold", type=int, action="append", default=None,
                        help="with --pretrain: only this fold (index into the folds; repeatable)")
    parser.add_argument("--seed", type=int, action="append", default=None,
                        help="with --pretrain: the BiLSTM's seed (repeatable; default 0)")
    parser.add_argument("--arm", choices=("both", "pretrained", "plain"), default="both",
                        help="with --pretrain: run both arms or one")
    parser.add_argument("--lm-cache", type=Path, default=None,
                        help="with --pretrain: folder keeping each fold's pre-trained LM for the next run")
    args = parser.parse_args(argv)
    if args.pretrain:
        return pretrain_comparison(args)
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


def pretrain_comparison(args) -> int:
    """``--pretrain EPOCHS``: the chosen folds without and with pre-training, same settings otherwise."""
    from pipeline.text.pretrain_lstm import evaluate_pretraining, pretrain_report
    from pipeline.text.punctuate import Punctuator

    model = args.model or REPO / "models" / "punctuate-lstm"
    params = {k: v for k, v in Punctuator.load(model).get_params().items() if k != "lexicon_dir"}
    if not params.get("lstm_weight"):
        raise SystemExit(f"{model} has no BiLSTM (lstm_weight 0): nothing to pre-train")
    command = f"python bench/segmentation.py --folds {args.folds} --workers {args.workers} --model {model} --pretrain {args.pretrain}"
    command += "".join(f" --fold {i}" for i in args.fold or []) + "".join(f" --seed {i}" for i in args.seed or [])
    command += f" --arm {args.arm}" if args.arm != "both" else ""
    command += f" --lm-cache {args.lm_cache}" if args.lm_cache else ""
    arms = {"both": (True, False), "pretrained": (True,), "plain": (False,)}[args.arm]
    out = args.out or REPO / "bench" / "results" / "segmentation-pretrain.json"
    results = evaluate_pretraining(out, folds=args.folds, only=args.fold, params=params,
                                   pretrain_epochs=args.pretrain, workers=args.workers, command=command,
                                   seeds=args.seed or [0], arms=arms, cache=args.lm_cache)
    out.with_suffix(".md").write_text(pretrain_report(results), encoding="utf-8")
    print(out.with_suffix(".md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
