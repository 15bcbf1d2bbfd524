"""Ritual flow: each actor's acts in textual order, with places, as one column per actor.

Rows follow the text, one per action tuple. In the acting actor's column the row shows the act
(surface, object, target, purpose) and where it happens and facing which way; in every other
column it repeats, greyed, the last place that actor was said to be, so a reader can follow who
moves where. The target's column marks that it receives the act. Places are only those the text
gives (the tuples' ``location``): nothing is inferred from the verb (升 does not put anyone on the
堂 unless the text says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from pipeline.export.source import ExportDocument
from pipeline.export.views.html import LAYER_COLOURS, esc, page

NO_ACTOR = "(unknown)"

FLOW_CSS = """
.flow td.act { background: #fff3c4; font-weight: bold; }
.flow td.carried { color: #999; font-size: 0.85em; }
.flow td.target { background: #eaf4ff; }
.flow td.clause { white-space: nowrap; }
.flow th { position: sticky; top: 0; }
.flow .place { display: block; font-weight: normal; color: #2a6f2a; }
"""


@dataclass
class FlowRow:
    action_id: str
    start: int
    end: int
    clause: str
    actor: str
    inferred: bool
    act: str
    place: Optional[str]
    facing: Optional[str]
    target: Optional[str]
    #: actor -> (place, facing) last known before and at this row
    known: dict[str, tuple[Optional[str], Optional[str]]] = field(default_factory=dict)


@dataclass
class Flow:
    doc: ExportDocument
    actors: list[str]
    rows: list[FlowRow]
    start: int
    end: int
    layers: Optional[tuple[str, ...]] = None

    def passage(self) -> list[str]:
        """The text of the passage in the flow's layers (the 經 without its 注 and 疏), piece by piece."""
        if not self.layers:
            return [self.doc.text[self.start:self.end]]
        pieces = []
        for seg in sorted(self.doc.segments, key=lambda g: g["start"]):
            if seg.get("layer") in self.layers and seg["end"] > self.start and seg["start"] < self.end:
                pieces.append(self.doc.text[max(seg["start"], self.start):min(seg["end"], self.end)].strip())
        return [p for p in pieces if p]


def describe(act: dict[str, Any]) -> str:
    """The act in a few characters: 不 for negation, the surface, then object, purpose, target."""
    words = [act.get("surface") or act.get("verb") or "?"]
    if act.get("negated") and not words[0].startswith("不"):
        words[0] = "不" + words[0]
    if act.get("object"):
        words.append(f"[{act['object']}]")
    if act.get("purpose"):
        words.append(f"({act['purpose']})")
    if act.get("target"):
        words.append(f"→ {act['target']}")
    return " ".join(words)


def flow_rows(
    doc: ExportDocument,
    start: Optional[int] = None,
    end: Optional[int] = None,
    find: Optional[str] = None,
    max_acts: Optional[int] = 40,
    layers: Optional[Iterable[str]] = ("JING",),
) -> Flow:
    """The acts of ``doc`` in ``[start, end)`` (from the first occurrence of ``find``), in textual order."""
    if find:
        pos = doc.find(find)
        if pos < 0:
            raise ValueError(f"{find!r} does not occur in {doc.name}")
        start = pos if start is None else max(start, pos)
    lo = 0 if start is None else start
    hi = len(doc.text) if end is None else end
    wanted = set(layers) if layers else None
    picked = []
    for action_id, act in sorted(zip(doc.action_ids, doc.actions), key=lambda p: (p[1]["start"], p[1]["end"])):
        if act["start"] < lo or act["start"] >= hi:
            continue
        if wanted is not None and doc.layer_of(act["start"], act["end"]) not in wanted:
            continue
        picked.append((action_id, act))
        if max_acts is not None and len(picked) >= max_acts:
            break
    actors: list[str] = []
    known: dict[str, tuple[Optional[str], Optional[str]]] = {}
    rows = []
    for action_id, act in picked:
        actor = act.get("actor") or NO_ACTOR
        if actor not in actors:
            actors.append(actor)
        target = act.get("target")
        if target and target not in actors:
            actors.append(target)
        place, facing = act.get("location"), act.get("facing")
        if place or facing:
            old_place, old_facing = known.get(actor, (None, None))
            known[actor] = (place or old_place, facing or old_facing)
        rows.append(FlowRow(
            action_id=action_id, start=act["start"], end=act["end"], clause=doc.text[act["start"]:act["end"]],
            actor=actor, inferred=bool(act.get("actor_inferred")), act=describe(act),
            place=place, facing=facing, target=target, known=dict(known),
        ))
    span_end = picked[-1][1]["end"] if picked else lo
    return Flow(doc=doc, actors=actors, rows=rows, start=lo, end=span_end, layers=tuple(layers) if layers else None)


def _place_text(place: Optional[str], facing: Optional[str]) -> str:
    return "，".join(p for p in (place, facing) if p)


def flow_table(flow: Flow) -> str:
    head = "<tr><th>#</th><th>text</th>" + "".join(f'<th class="actor">{esc(a)}</th>' for a in flow.actors) + "</tr>"
    body = []
    for n, row in enumerate(flow.rows, 1):
        cells = [f'<td class="num">{n}</td>',
                 f'<td class="clause" title="chars {row.start}–{row.end}">{esc(row.clause)}</td>']
        for actor in flow.actors:
            if actor == row.actor:
                who = "（" + esc(actor) + "）" if row.inferred else ""
                where = _place_text(row.place, row.facing)
                place = f'<span class="place">{esc(where)}</span>' if where else ""
                cells.append(f'<td class="act" data-actor="{esc(actor)}">{who}{esc(row.act)}{place}</td>')
            elif actor == row.target:
                cells.append(f'<td class="target">← {esc(row.act.split()[0])}</td>')
            else:
                where = _place_text(*row.known.get(actor, (None, None)))
                cells.append(f'<td class="carried">{esc(where)}</td>' if where else "<td></td>")
        body.append(f'<tr data-action="{esc(row.action_id)}">' + "".join(cells) + "</tr>")
    return f'<table class="flow"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def flow_section(flow: Flow) -> str:
    doc = flow.doc
    if not flow.rows:
        return f"<h2>{esc(doc.name)}</h2><p>No action tuples in this passage.</p>"
    passage = "<br>".join(esc(p) for p in flow.passage())
    return (
        f'<h2>{esc(doc.name)} <span class="meta">chapter {esc(doc.chapter or "?")} · chars {flow.start}–{flow.end} · '
        f"{len(flow.rows)} act(s)</span></h2>"
        f'<blockquote style="background:{LAYER_COLOURS["JING"]}; padding: 0.5em">{passage}</blockquote>'
        "<p class=\"meta\">Bold: the act, with the place and facing the text gives. Grey: the last place "
        "the text gave that actor. Blue: the actor receives the act. （Actor） in brackets: not written, "
        "carried over from the text before.</p>"
        + flow_table(flow)
    )


def flow_html(
    documents: Iterable[ExportDocument],
    find: Optional[str] = None,
    start: Optional[int] = None,
    end: Optional[int] = None,
    max_acts: Optional[int] = 40,
    title: str = "yili — ritual flow",
) -> str:
    """A self-contained page with the flow of each document's passage (documents without ``find`` are left out)."""
    sections = []
    for doc in documents:
        if find and doc.find(find) < 0:
            continue
        sections.append(flow_section(flow_rows(doc, start=start, end=end, find=find, max_acts=max_acts)))
    if not sections:
        sections.append("<p>No passage matches.</p>")
    return page(title, "\n".join(sections), FLOW_CSS)
