"""經–注 paragraphs before a 疏: who is who, from their order and from the 疏's head.

In the 注疏 layout a 疏 closes a group of paragraphs: one or more 經, each followed by its 注.
Where nothing marks the paragraphs (web copies), they alternate 經, 注, 經, 注 from the group's
start (evidence ``layout``). The 疏 head then fixes what it cites (evidence ``anchor``): the
paragraph that opens with the head's 注 citation is 注 and the one before it 經; the paragraph
that opens with its 經 citation is 經. A 注 citation found after a sentence end inside a 經
paragraph splits it (a short 注 printed in the 經's paragraph); so does the head's 經 end Y
when the 經 paragraph goes on after it and no 注 paragraph follows. Where the edition's own tags
print a 注 as a second 經 paragraph right before its 疏 (:func:`zhu_tagged_jing`), it is 注.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from pipeline.layers.anchors import Head, Letters, locate
from pipeline.read.reading import trimmed


@dataclass
class Para:
    start: int
    end: int
    layer: str
    evidence: str = "layout"
    score: float = 0.8
    note: str = ""


def alternate(paras: list[Para], first: int = 0, layer: str = "JING", evidence: str = "layout", score: float = 0.8) -> None:
    """Set paras[first:] to 經, 注, 經, … (or starting with ``layer``)."""
    other = {"JING": "ZHU", "ZHU": "JING"}
    current = layer
    for p in paras[first:]:
        p.layer, p.evidence, p.score = current, evidence, score
        current = other[current]


def _backwards(paras: list[Para], k: int) -> None:
    """paras[:k] alternate so that paras[k-1] is the other layer of paras[k]."""
    other = {"JING": "ZHU", "ZHU": "JING"}
    current = other[paras[k].layer]
    for i in range(k - 1, -1, -1):
        paras[i].layer = current
        current = other[current]


def resolve_group(raw: str, paras: list[Para], head: Optional[Head], drop: Sequence[tuple[int, int]] = (),
                  relayout: bool = True) -> list[Para]:
    """The group's paragraphs with layers checked against ``head`` (paragraphs may be split in two).

    ``relayout``: the layers came from alternation and may be re-derived around an anchor
    (web copies); False when they came from the edition's own tags (XHTML), which an anchor
    overrides only where it speaks.
    """
    if not paras or head is None or head.empty:
        return paras
    letters = Letters(raw, [(p.start, p.end) for p in paras], drop)
    if not len(letters):
        return paras
    para_of = letters.range_of
    loc = locate(head, letters)

    def at_para_start(i: Optional[int]) -> Optional[int]:
        if i is None or i >= len(letters):
            return None
        k = para_of[i]
        return k if letters.range_first[k] == i else None

    out = list(paras)
    k_zhu = at_para_start(loc.zhu_start)
    k_jing = at_para_start(loc.jing_start)

    def confirm(p: Para, layer: str, score: float) -> None:
        if p.layer == layer and p.evidence == "marker":
            return
        if p.layer != layer and not relayout:
            p.note = p.note or f"{layer.lower()}-by-anchor"
        p.layer, p.evidence, p.score = layer, "anchor", score

    if k_zhu is not None:
        confirm(out[k_zhu], "ZHU", 1.0)
        if relayout and k_zhu > 0:
            _backwards(out, k_zhu)
            alternate(out, k_zhu + 1, "JING")
        if k_zhu > 0 and out[k_zhu - 1].layer == "JING" and (k_jing is None or k_jing <= k_zhu - 1):
            confirm(out[k_zhu - 1], "JING", 0.95)
    elif k_jing is not None:
        if relayout:
            out[k_jing].layer = "JING"
            if k_jing > 0:
                _backwards(out, k_jing)
            alternate(out, k_jing, "JING")
        if out[k_jing].layer == "JING":
            confirm(out[k_jing], "JING", 0.95)
    # a 注 inside a 經 paragraph: split it
    split_at: Optional[int] = None
    if loc.zhu_start is not None and k_zhu is None:
        k = para_of[loc.zhu_start]
        if out[k].layer == "JING" and loc.zhu_start in letters.sentence_start:
            split_at = loc.zhu_start
    elif (loc.jing_end is not None and loc.jing_end < len(letters) and k_zhu is None
          and loc.jing_end in letters.sentence_start):
        k = para_of[loc.jing_end]
        if (para_of[loc.jing_end - 1] == k and out[k].layer == "JING"
                and all(q.layer != "ZHU" for q in out[k + 1:])):
            split_at = loc.jing_end
    if split_at is not None and letters.text.startswith("傳曰", split_at):
        split_at = None  # 喪服's 子夏傳 follows its 經 unmarked: it is not a 注
    if split_at is not None:
        k = para_of[split_at]
        p = out[k]
        jing_end = trimmed(raw, p.start, letters.raw_end(split_at))[1]
        zhu_start = letters.raw_start(split_at)
        evidence = p.evidence if p.evidence == "marker" else "anchor"
        first = Para(p.start, jing_end, "JING", evidence, 0.9 if evidence == "anchor" else p.score, p.note or "zhu-merged")
        second = Para(zhu_start, p.end, "ZHU", "anchor", 0.9, "zhu-merged")
        out[k:k + 1] = [first, second]
    return out


#: how a 疏 with no head opens: on the 經 (釋曰) or on the 注 (注釋曰), after its ○ marks
_HEADLESS = ("釋曰", "注釋曰")


def zhu_tagged_jing(raw: str, paras: list[Para], head: Optional[Head], shu_opening: str,
                    drop: Sequence[tuple[int, int]] = ()) -> list[Para]:
    """A 注 the edition tagged as 經: the second of two 經 paragraphs right before a 疏 that opens
    with no head (○釋曰, ○注釋曰), or whose head's 經 ends before it. A 注疏 edition prints 經, 注,
    疏; a 經 with no 注 is not followed by a headless 疏. In the XHTML edition of the corpus all 15
    paragraphs so placed are 注 in the 四部叢刊 鄭注 (將覲，質明時也。裨冕者…, 異姓，婦也…), and
    no 經 paragraph is. 喪服's 子夏傳 (傳曰…) and a 記 are 經 wherever they stand."""
    if len(paras) < 2 or head is not None and not head.empty and head.jing is None:
        return paras
    last, before = paras[-1], paras[-2]
    if last.layer != "JING" or before.layer != "JING" or last.evidence != "marker":
        return paras
    letters = Letters(raw, [(p.start, p.end) for p in paras], drop)
    first = letters.range_first[-1]
    if first is None or letters.text.startswith(("傳曰", "記"), first):
        return paras
    if head is None or head.empty:
        if not shu_opening.lstrip("○ 　").startswith(_HEADLESS):
            return paras
        evidence, score = "layout", 0.8
    else:
        end = locate(head, letters).jing_end
        if end is None or end > first:
            return paras
        evidence, score = "anchor", 0.9
    return [*paras[:-1], Para(last.start, last.end, "ZHU", evidence, score, "zhu-in-strong")]
