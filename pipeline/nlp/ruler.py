"""``yili_lexicon_ruler``: spaCy's SpanRuler fed with the ritual lexicon, one label per place.

Patterns are the lexicon terms (``configs/lexicon``) in their normalised form (the tagger reads the
normalised view), one phrase pattern per term and label. The ruler's spans filter is
:func:`lexicon_spans_filter`: the spans it keeps never overlap, cover the most characters, and a
term listed under several labels gets one (policy in :mod:`pipeline.nlp.matcher`). The words of
``nonterms.txt`` (鄉射, 特牲 …) take part in that choice and are then dropped. They are stored
in ``doc.spans[spans_key]`` (``"sc"`` by default).
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

from spacy.language import Language
from spacy.pipeline import SpanRuler
from spacy.tokens import Span
from spacy.util import registry

from pipeline.nlp.base import doc_text
from pipeline.nlp.lexicon import Lexicon
from pipeline.nlp.matcher import LABEL_PRIORITY, NON_TERM, best_cover, drop_acts, load_nonterms, resolve_label
from pipeline.text.normalise import normalise_str

SPANS_KEY = "sc"


def lexicon_patterns(lexicon_dir: Optional[str] = None) -> list[dict[str, str]]:
    """One phrase pattern per (normalised term, label) of the lexicon, and one per non-term."""
    from pathlib import Path

    folder = Path(lexicon_dir) if lexicon_dir else None
    lexicon = Lexicon.load(folder)
    patterns: list[dict[str, str]] = []
    for label, terms in lexicon.normalised(normalise_str).items():
        patterns.extend({"label": label, "pattern": term} for term in terms)
    nonterms = dict.fromkeys(normalise_str(w) for w in load_nonterms(folder))
    patterns.extend({"label": NON_TERM, "pattern": word} for word in nonterms)
    return patterns


def choose_spans(existing: Iterable[Span], spans: Iterable[Span]) -> list[Span]:
    """The new ``spans`` to keep: none overlapping ``existing`` or each other, most characters covered."""
    taken = set()
    for span in existing:
        taken.update(range(span.start_char, span.end_char))
    labels: dict[tuple[int, int], list[str]] = {}
    tokens: dict[tuple[int, int], tuple[int, int]] = {}  # char range -> token range (no char_span: slow)
    doc = None
    for span in spans:
        doc = span.doc
        s, e = span.start_char, span.end_char
        if taken and any(i in taken for i in range(s, e)):
            continue
        labels.setdefault((s, e), []).append(span.label_)
        tokens[(s, e)] = (span.start, span.end)
    if doc is None:
        return []
    rank = {label: i for i, label in enumerate(LABEL_PRIORITY)}
    text = doc_text(doc)  # doc.text is rebuilt from the tokens on every access
    chosen: list[tuple[int, int, str]] = []
    for s, e in best_cover(len(text), labels):
        if NON_TERM in labels[(s, e)]:  # it hides the terms inside it and is no span itself
            continue
        ordered = sorted(set(labels[(s, e)]), key=lambda l: rank.get(l, len(rank)))
        chosen.append((s, e, resolve_label(text, s, ordered)))
    return [Span(doc, *tokens[(s, e)], label=label) for s, e, label in drop_acts(text, chosen)]


@registry.misc("yili.lexicon_spans_filter.v1")
def lexicon_spans_filter() -> Callable[[Iterable[Span], Iterable[Span]], list[Span]]:
    return choose_spans


@Language.factory(
    "yili_lexicon_ruler",
    default_config={"lexicon_dir": None, "spans_key": SPANS_KEY},
)
def make_lexicon_ruler(nlp: Language, name: str, lexicon_dir: Optional[str], spans_key: str) -> SpanRuler:
    ruler = SpanRuler(nlp, name, spans_key=spans_key, spans_filter=choose_spans, overwrite=True)
    ruler.add_patterns(lexicon_patterns(lexicon_dir))
    return ruler
