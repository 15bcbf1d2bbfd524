"""CoNLL-U: one block per sentence of the processed records, tokens with raw offsets.

Per sentence, comments carry ``sent_id`` (the sentence's stable id), ``doc_id``, ``chapter``,
``layer``, raw ``start`` / ``end``, ``text`` (the tokens as written, furniture and line breaks
left out) and one ``action aN = {json}`` line per tuple whose clause starts in the sentence.
Columns: FORM as written; UPOS from the tokenizer backend where it gives one (``PUNCT`` for
punctuation with the character tokenizer), else ``_``; LEMMA, XPOS, FEATS, HEAD, DEPREL, DEPS
``_`` (no parse). MISC: ``TokenRange=start:end`` (raw offsets, as UDPipe writes them),
``SpaceAfter=No``, ``Span=B-LABEL`` / ``I-LABEL`` (tagged spans as BIO; where spans overlap the
longest wins) and ``Role=a1.actor,a2.verb`` (the tuples' roles written by this token).
"""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from pipeline.export.roles import locate_roles
from pipeline.export.source import ExportDocument
from pipeline.export.tables import ACTION_FIELDS
from pipeline.export.tokens import CharTokenizer, Piece, Ranges, Token, raw_tokens


def bio_spans(spans: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A non-overlapping choice of spans: longest first, then earliest."""
    chosen: list[dict[str, Any]] = []
    taken: list[tuple[int, int]] = []
    for sp in sorted(spans, key=lambda sp: (-(sp["end"] - sp["start"]), sp["start"])):
        if sp["end"] <= sp["start"]:
            continue
        if any(sp["start"] < e and s < sp["end"] for s, e in taken):
            continue
        chosen.append(sp)
        taken.append((sp["start"], sp["end"]))
    return sorted(chosen, key=lambda sp: sp["start"])


def _bio_labels(tokens: list[Token], spans: list[dict[str, Any]]) -> list[Optional[str]]:
    labels: list[Optional[str]] = [None] * len(tokens)
    for sp in spans:
        first = True
        for i, tok in enumerate(tokens):
            if tok.start < sp["end"] and sp["start"] < tok.end and labels[i] is None:
                labels[i] = f"{'B' if first else 'I'}-{sp['label']}"
                first = False
    return labels


def _escape(value: str) -> str:
    """MISC values may not hold ``|``, tabs or line breaks."""
    return value.replace("|", "¦").replace("\t", " ").replace("\n", " ")


def sentence_blocks(
    doc: ExportDocument,
    tokenizer: Optional[Callable[[str], list[Piece]]] = None,
    layers: Optional[Iterable[str]] = None,
) -> Iterator[str]:
    """The CoNLL-U blocks (ending in a blank line) of ``doc``'s sentences, in textual order."""
    tokenizer = tokenizer or CharTokenizer()
    wanted = set(layers) if layers else None
    removed = Ranges((r["start"], r["end"]) for r in doc.removed)
    roles = locate_roles(doc)
    acts_by_sentence: dict[Optional[str], list[int]] = defaultdict(list)
    for k, act in enumerate(doc.actions):
        acts_by_sentence[doc.sentence_of(act["start"], act["end"])].append(k)
    spans_sorted = sorted(doc.spans, key=lambda sp: sp["start"])
    span_starts = [sp["start"] for sp in spans_sorted]
    first = True
    order = sorted(range(len(doc.sentences)), key=lambda i: (doc.sentences[i]["start"], doc.sentences[i]["end"]))
    for i in order:
        sent, sent_id = doc.sentences[i], doc.sentence_ids[i]
        s, e = sent["start"], sent["end"]
        layer = sent.get("layer") or doc.layer_of(s, e)
        if wanted is not None and layer not in wanted:
            continue
        tokens = raw_tokens(doc.text, s, e, tokenizer, removed)
        if not tokens:
            continue
        lines = []
        if first:
            lines.append(f"# newdoc id = {doc.doc_id}")
            first = False
        lines += [
            f"# sent_id = {sent_id}",
            f"# doc_id = {doc.doc_id}",
            f"# chapter = {doc.chapter or '_'}",
            f"# layer = {layer}",
            f"# start = {s}",
            f"# end = {e}",
            f"# text = {''.join(t.form for t in tokens)}",
        ]
        token_roles: list[list[str]] = [[] for _ in tokens]
        for n, k in enumerate(acts_by_sentence.get(sent_id, []), 1):
            act = doc.actions[k]
            record = {"id": doc.action_ids[k], "start": act["start"], "end": act["end"]}
            record.update({f: act.get(f) for f in ACTION_FIELDS})
            lines.append(f"# action a{n} = {json.dumps(record, ensure_ascii=False)}")
            for role, (rs, re_) in roles[k].items():
                for j, tok in enumerate(tokens):
                    if tok.start < re_ and rs < tok.end:
                        token_roles[j].append(f"a{n}.{role}")
        # spans that start inside the sentence (a span never crosses a sentence boundary)
        in_sentence = spans_sorted[bisect.bisect_left(span_starts, s):bisect.bisect_left(span_starts, e)]
        bio = _bio_labels(tokens, bio_spans(in_sentence))
        for j, tok in enumerate(tokens):
            misc = [f"TokenRange={tok.start}:{tok.end}", "SpaceAfter=No"]
            if bio[j]:
                misc.append(f"Span={bio[j]}")
            if token_roles[j]:
                misc.append("Role=" + ",".join(token_roles[j]))
            lines.append("\t".join([str(j + 1), _escape(tok.form), "_", tok.pos or "_", "_", "_", "_", "_", "_", "|".join(misc)]))
        yield "\n".join(lines) + "\n\n"


def _kept_blocks(path: Path, replace: set[str]) -> Iterator[str]:
    """Blocks of an existing file whose ``doc_id`` is not being exported again."""
    block: list[str] = []
    with open(path, encoding="utf-8") as handle:
        for line in list(handle) + ["\n"]:
            if line.strip():
                block.append(line)
                continue
            if block:
                doc_id = next((b.split("=", 1)[1].strip() for b in block if b.startswith("# doc_id =")), None)
                if doc_id not in replace:
                    yield "".join(block) + "\n"
                block = []


def write_conllu(
    path: Path,
    documents: Iterable[ExportDocument],
    tokenizer: Optional[Callable[[str], list[Piece]]] = None,
    layers: Optional[Iterable[str]] = None,
    merge: bool = True,
) -> int:
    """Write every sentence of ``documents``; returns the number of sentences written for them.

    With ``merge``, sentences already in ``path`` stay unless their document is being exported again.
    """
    from pipeline.export.files import _atomic_write

    documents = list(documents)
    path = Path(path)
    old = _kept_blocks(path, {d.doc_id for d in documents}) if merge and path.exists() else iter(())
    count = 0

    def write(tmp: Path) -> None:
        nonlocal count
        with open(tmp, "w", encoding="utf-8") as handle:
            for block in old:
                handle.write(block)
            for doc in documents:
                for block in sentence_blocks(doc, tokenizer, layers):
                    handle.write(block)
                    count += 1

    _atomic_write(path, write)
    return count
