"""``yili agreement``: how far annotators agree, on the questions they both answered.

For every pair of annotators, over the inputs (``_input_hash``) both answered — each annotator's
latest answer counts:

- span F1 per label: spans equal on (start, end, label), over the inputs both accepted;
- tuple F1: tuples equal on the evaluation key (actor, verb, negated) of SCHEMA section 4, after
  the same light normalisation on both sides (荅→答, 於→于, 衆→眾), as multisets per input;
- Cohen's kappa for layers: over the layer tasks both answered (accept or reject), the category
  being the label when accepted and ``REJECTED`` when rejected.

F1 is symmetric, so the order of a pair does not matter; precision and recall are given with the
first annotator as reference.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterable, Optional

from pipeline.annotate.store import Answer, AnswerStore
from pipeline.labels import LAYERS, SPAN_LABELS

FOLD = str.maketrans({"荅": "答", "於": "于", "衆": "眾"})


def norm(value: Optional[str]) -> Optional[str]:
    return None if value is None else value.translate(FOLD)


def tuple_key(action: dict[str, Any]) -> tuple:
    return norm(action.get("actor")), norm(action.get("verb")), bool(action.get("negated"))


@dataclass
class PRF:
    tp: int = 0
    reference: int = 0
    other: int = 0

    def add(self, a: Counter, b: Counter) -> None:
        self.tp += sum((a & b).values())
        self.reference += sum(a.values())
        self.other += sum(b.values())

    @property
    def precision(self) -> float:
        return self.tp / self.other if self.other else 1.0

    @property
    def recall(self) -> float:
        return self.tp / self.reference if self.reference else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"p": round(self.precision, 4), "r": round(self.recall, 4), "f1": round(self.f1, 4),
                "tp": self.tp, "n_a": self.reference, "n_b": self.other}


@dataclass
class PairAgreement:
    a: str
    b: str
    common: int = 0
    compared: int = 0
    spans: dict[str, PRF] = field(default_factory=lambda: {label: PRF() for label in SPAN_LABELS})
    spans_all: PRF = field(default_factory=PRF)
    tuples: PRF = field(default_factory=PRF)
    layer_pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def kappa(self) -> Optional[float]:
        if not self.layer_pairs:
            return None
        return cohen_kappa([x for x, _ in self.layer_pairs], [y for _, y in self.layer_pairs])

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "common_inputs": self.common, "compared": self.compared,
                "span_f1": {label: prf.as_dict() for label, prf in self.spans.items()},
                "span_f1_all": self.spans_all.as_dict(), "tuple_f1": self.tuples.as_dict(),
                "layer_kappa": None if self.kappa is None else round(self.kappa, 4), "layer_items": len(self.layer_pairs)}


def cohen_kappa(a: list[str], b: list[str]) -> float:
    """Cohen's kappa of two label sequences; 1.0 when both use one and the same label throughout."""
    n = len(a)
    if n == 0:
        raise ValueError("no items")
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    if expected == 1.0:
        return 1.0
    return (observed - expected) / (1 - expected)


def _layer_category(answer: Answer) -> Optional[str]:
    record = answer.record
    if record.get("label") not in LAYERS or answer.answer == "ignore":
        return None
    return record["label"] if answer.answer == "accept" else "REJECTED"


def compare(a: str, b: str, answers_a: dict[tuple, Answer], answers_b: dict[tuple, Answer]) -> PairAgreement:
    pair = PairAgreement(a, b)
    for key in sorted(set(answers_a) & set(answers_b)):
        pair.common += 1
        ra, rb = answers_a[key], answers_b[key]
        if ra.kind == "layers":
            ca, cb = _layer_category(ra), _layer_category(rb)
            if ca is not None and cb is not None:
                pair.layer_pairs.append((ca, cb))
            continue
        if ra.answer != "accept" or rb.answer != "accept":
            continue
        pair.compared += 1
        xa, xb = ra.record, rb.record
        sa = Counter((s["start"], s["end"], s["label"]) for s in xa.get("spans") or [])
        sb = Counter((s["start"], s["end"], s["label"]) for s in xb.get("spans") or [])
        pair.spans_all.add(sa, sb)
        for label, prf in pair.spans.items():
            prf.add(Counter({k: v for k, v in sa.items() if k[2] == label}), Counter({k: v for k, v in sb.items() if k[2] == label}))
        if "actions" in xa or "actions" in xb:
            pair.tuples.add(Counter(tuple_key(t) for t in xa.get("actions") or []),
                            Counter(tuple_key(t) for t in xb.get("actions") or []))
    return pair


def agreement(answers: Iterable[Answer], annotators: Optional[list[str]] = None) -> list[PairAgreement]:
    """Pairwise agreement between annotators (all pairs, or the pairs of ``annotators``)."""
    latest: dict[str, dict[tuple, Answer]] = defaultdict(dict)
    for row in answers:  # oldest first: later answers replace earlier ones
        latest[row.annotator][(row.kind, row.input_hash)] = row
    names = annotators or sorted(latest)
    return [compare(x, y, latest[x], latest[y]) for x, y in combinations(names, 2)]


def agreement_command(dataset: str = "yili", db: Optional[str] = None, annotators: Optional[list[str]] = None) -> list[PairAgreement]:
    """``yili agreement [--dataset NAME] [--db URL] [--annotator A --annotator B]``."""
    with AnswerStore(db, create=False) as store:
        store.require(dataset)
        return agreement(store.answers(dataset), annotators)


def format_agreement(pairs: list[PairAgreement]) -> str:
    """A plain-text table per pair (what the CLI prints)."""
    lines = []
    for pair in pairs:
        lines.append(f"{pair.a} vs {pair.b}: {pair.common} common inputs, {pair.compared} accepted by both")
        for label, prf in list(pair.spans.items()) + [("all spans", pair.spans_all), ("tuples", pair.tuples)]:
            lines.append(f"  {label:<10} P {prf.precision:.3f}  R {prf.recall:.3f}  F1 {prf.f1:.3f}  "
                         f"({prf.tp} equal; {prf.reference} / {prf.other})")
        kappa = pair.kappa
        lines.append(f"  layers     kappa {'-' if kappa is None else f'{kappa:.3f}'}  ({len(pair.layer_pairs)} items)")
    return "\n".join(lines)
