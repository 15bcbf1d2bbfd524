"""spaCy DocBin: one Doc per layer segment, spans in ``doc.spans["sc"]``.

Each Doc's text is the segment's raw text exactly (furniture and line breaks included, as
one-character tokens), so a Doc character offset plus ``doc.user_data["offset"]`` is the raw
offset in the document. Sentence starts come from the processed sentences; token POS from the
tokenizer backend where it gives one. ``doc.user_data`` holds ``doc_id``, ``segment_id``,
``layer``, ``chapter``, ``source``, ``offset`` and ``actions`` (the tuples of the segment, with
raw offsets and their stable ids). Read back with ``DocBin().from_disk(path).get_docs(vocab)``.
"""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from pipeline.export.source import ExportDocument
from pipeline.export.tables import ACTION_FIELDS
from pipeline.export.tokens import CharTokenizer, Piece, Ranges, covering_tokens, raw_tokens

SPANS_KEY = "sc"


def segment_docs(
    doc: ExportDocument,
    vocab: Any,
    tokenizer: Optional[Callable[[str], list[Piece]]] = None,
    layers: Optional[Iterable[str]] = None,
) -> Iterator[Any]:
    """The spaCy Docs of ``doc``'s layer segments (those of ``layers`` only, if given)."""
    from spacy.tokens import Doc

    tokenizer = tokenizer or CharTokenizer()
    wanted = set(layers) if layers else None
    removed = Ranges((r["start"], r["end"]) for r in doc.removed)
    sent_starts = sorted({sent["start"] for sent in doc.sentences})
    spans = sorted(zip(doc.span_ids, doc.spans), key=lambda p: (p[1]["start"], p[1]["end"]))
    span_starts = [sp["start"] for _, sp in spans]
    acts = sorted(zip(doc.action_ids, doc.actions), key=lambda p: (p[1]["start"], p[1]["end"]))
    act_starts = [a["start"] for _, a in acts]
    for seg_id, seg in zip(doc.segment_ids, doc.segments):
        if wanted is not None and seg.get("layer") not in wanted:
            continue
        s, e = seg["start"], seg["end"]
        if e <= s:
            continue
        tokens = covering_tokens(doc.text, s, e, raw_tokens(doc.text, s, e, tokenizer, removed))
        sdoc = Doc(vocab, words=[t.form for t in tokens], spaces=[False] * len(tokens))
        starts = set(sent_starts[bisect.bisect_left(sent_starts, s):bisect.bisect_left(sent_starts, e)])
        if starts:
            for tok, raw in zip(sdoc, tokens):
                tok.is_sent_start = raw.start in starts or tok.i == 0
        for tok, raw in zip(sdoc, tokens):
            if raw.pos:
                try:
                    tok.pos_ = raw.pos
                except (KeyError, ValueError):  # a tag outside UD's UPOS set
                    tok.tag_ = raw.pos
        group = []
        for span_id, span in spans[bisect.bisect_left(span_starts, s):bisect.bisect_left(span_starts, e)]:
            if span["end"] <= e and span["end"] > span["start"]:
                made = sdoc.char_span(span["start"] - s, span["end"] - s, label=span["label"], alignment_mode="expand")
                if made is not None:
                    made.id_ = span_id
                    group.append(made)
        sdoc.spans[SPANS_KEY] = group
        actions = []
        for action_id, act in acts[bisect.bisect_left(act_starts, s):bisect.bisect_left(act_starts, e)]:
            row = {"id": action_id, "start": act["start"], "end": act["end"]}
            row.update({f: act.get(f) for f in ACTION_FIELDS})
            actions.append(row)
        sdoc.user_data.update({
            "doc_id": doc.doc_id, "segment_id": seg_id, "layer": seg.get("layer"), "chapter": doc.chapter,
            "source": doc.source, "offset": s, "actions": actions,
        })
        yield sdoc


def write_docbin(
    path: Path,
    documents: Iterable[ExportDocument],
    tokenizer: Optional[Callable[[str], list[Piece]]] = None,
    layers: Optional[Iterable[str]] = None,
    merge: bool = True,
) -> int:
    """Write the segment Docs of ``documents`` to ``path``; returns how many were written for them.

    With ``merge``, Docs already in ``path`` stay unless their document is being exported again.
    """
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from pipeline.export.files import _atomic_write

    documents = list(documents)
    path = Path(path)
    vocab = Vocab()
    docbin = DocBin(attrs=["ORTH", "POS", "TAG", "SENT_START"], store_user_data=True)
    if merge and path.exists():
        replace = {d.doc_id for d in documents}
        for old in DocBin().from_disk(path).get_docs(vocab):
            if old.user_data.get("doc_id") not in replace:
                docbin.add(old)
    count = 0
    for doc in documents:
        for sdoc in segment_docs(doc, vocab, tokenizer, layers):
            docbin.add(sdoc)
            count += 1
    _atomic_write(path, lambda tmp: docbin.to_disk(tmp))
    return count


def read_docbin(path: Path) -> list[Any]:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    return list(DocBin().from_disk(path).get_docs(Vocab()))
