"""Tagged passages as displaCy HTML: spans coloured by label, each passage shaded by its layer.

A passage is one layer segment that holds at least one span. Its text is shown as written, with
the removed ranges (page furniture, spam) and line breaks left out; spans are rendered with
displaCy's entity style, which keeps Chinese text continuous. Where spans overlap, the longest is
shown (entity style cannot nest).
"""

from __future__ import annotations

from typing import Iterable, Optional

from pipeline.export.conllu import bio_spans
from pipeline.export.source import ExportDocument
from pipeline.export.views.html import LABEL_COLOURS, LAYER_COLOURS, LAYER_NAMES, esc, legend, page
from pipeline.labels import SPAN_LABELS
from pipeline.text.view import TextView

DEFAULT_LAYERS = ("JING", "ZHU", "SHU")


def passage_html(doc: ExportDocument, seg_index: int, labels: Optional[Iterable[str]] = None) -> str:
    """One segment rendered with displaCy inside a block shaded by its layer."""
    from spacy import displacy

    seg = doc.segments[seg_index]
    wanted = set(labels) if labels else None
    view = TextView.of(doc.text, seg["start"], seg["end"], drop=[(r["start"], r["end"]) for r in doc.removed],
                       drop_chars=lambda ch: ch in "\r\n")
    raw_to_view = {raw: i for i, raw in enumerate(view.starts)}
    raw_end_to_view = {raw: i + 1 for i, raw in enumerate(view.ends)}
    ents = []
    inside = [sp for sp in doc.spans if seg["start"] <= sp["start"] and sp["end"] <= seg["end"]]
    for sp in bio_spans(inside):
        if wanted is not None and sp["label"] not in wanted:
            continue
        s, e = raw_to_view.get(sp["start"]), raw_end_to_view.get(sp["end"])
        if s is not None and e is not None and e > s:
            ents.append({"start": s, "end": e, "label": sp["label"]})
    rendered = displacy.render(
        {"text": view.text, "ents": ents, "title": None},
        style="ent", manual=True, page=False, jupyter=False,
        options={"colors": LABEL_COLOURS, "ents": list(SPAN_LABELS)},
    )
    layer = seg.get("layer", "OTHER")
    header = (f'<p class="meta">{esc(doc.name)} · chapter {esc(doc.chapter or "?")} · '
              f'<b>{esc(LAYER_NAMES.get(layer, layer))} {esc(layer)}</b> · chars {seg["start"]}–{seg["end"]} · '
              f'{len(ents)} spans</p>')
    return (f'<section class="passage layer-{esc(layer)}" data-layer="{esc(layer)}" '
            f'style="background:{LAYER_COLOURS.get(layer, "#fff")}; padding: 0.4em 0.9em; margin: 0.6em 0; '
            f'border-radius: 0.4em">{header}{rendered}</section>')


def select_passages(
    doc: ExportDocument, layers: Iterable[str] = DEFAULT_LAYERS, find: Optional[str] = None, limit: Optional[int] = 50
) -> list[int]:
    """Indices of the segments to show: tagged, of the layers asked for, holding ``find`` if given."""
    wanted = set(layers)
    starts = sorted(sp["start"] for sp in doc.spans)
    import bisect

    out = []
    for k, seg in enumerate(doc.segments):
        if seg.get("layer") not in wanted:
            continue
        i = bisect.bisect_left(starts, seg["start"])
        if i >= len(starts) or starts[i] >= seg["end"]:
            continue
        if find and doc.find(find, seg["start"], seg["end"]) < 0:
            continue
        out.append(k)
        if limit is not None and len(out) >= limit:
            break
    return out


def passages_html(
    documents: Iterable[ExportDocument],
    layers: Iterable[str] = DEFAULT_LAYERS,
    find: Optional[str] = None,
    limit: Optional[int] = 50,
    title: str = "yili — tagged passages",
) -> str:
    """A self-contained page of tagged passages (at most ``limit`` per document)."""
    layers = tuple(layers)
    parts = [
        legend([(f"{LAYER_NAMES[name]} {name}", LAYER_COLOURS[name]) for name in LAYER_COLOURS]),
        legend([(label, LABEL_COLOURS[label]) for label in SPAN_LABELS]),
    ]
    shown = 0
    for doc in documents:
        chosen = select_passages(doc, layers, find, limit)
        if not chosen:
            continue
        parts.append(f'<h2>{esc(doc.name)} <span class="meta">chapter {esc(doc.chapter or "?")} · '
                     f'{len(chosen)} passage(s)</span></h2>')
        parts.extend(passage_html(doc, k) for k in chosen)
        shown += len(chosen)
    if not shown:
        parts.append("<p>No tagged passage matches.</p>")
    return page(title, "\n".join(parts))
