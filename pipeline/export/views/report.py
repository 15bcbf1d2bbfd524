"""A self-contained HTML report of the action tuples, with plots (matplotlib, inline SVG).

Names an edition writes in variant forms (賓 and 宾 in a simplified web copy) are counted as one,
labelled with every written form, commonest first (宾/賓).

Sections: acts per actor; verbs by chapter; actor → target for bows and for offerings; places
and facings. Each plot is followed by the table of its numbers, so the page can be read (and
searched) without the pictures. Plots are SVG with text kept as text, so the browser draws the
Chinese labels with its own fonts whatever fonts matplotlib has.
"""

from __future__ import annotations

import io
import warnings
from collections import Counter, defaultdict
from typing import Iterable, Optional, Sequence

from pipeline.export.source import ExportDocument
from pipeline.export.views.html import esc, page, table
from pipeline.labels import VERBS

#: the acts whose actor → target the report draws as matrices
BOW_VERBS: tuple[str, ...] = ("拜", "稽首", "揖")
OFFERING_VERBS: tuple[str, ...] = ("獻", "酢", "酬")
NO_ACTOR = "(none)"
NO_CHAPTER = "?"
#: rows of the longer tables (actors, places, pairs); the plots show fewer
TABLE_ROWS = 60


# -- the numbers ----------------------------------------------------------------------------------
class Names:
    """One name for the forms editions write differently (賓/宾/賔, 荅/答): the written forms, commonest first.

    Grouped by the pipeline's matching form (:func:`pipeline.text.normalise.normalise_str`).
    """

    def __init__(self, documents: Iterable[ExportDocument], fields: Sequence[str] = ("actor", "target", "location", "facing")):
        from pipeline.text.normalise import normalise_str

        self._key = normalise_str
        forms: dict[str, Counter] = defaultdict(Counter)
        for doc in documents:
            for act in doc.actions:
                for name in fields:
                    value = act.get(name)
                    if isinstance(value, str) and value:
                        forms[normalise_str(value)][value] += 1
        self._label = {key: "/".join(f for f, _ in counts.most_common()) for key, counts in forms.items()}

    def __call__(self, value: Optional[str]) -> Optional[str]:
        if not value:
            return value
        return self._label.get(self._key(value), value)


def acts_per_actor(documents: Iterable[ExportDocument]) -> dict[str, Counter]:
    """actor -> Counter({"named": n, "inferred": m}); variant forms of one actor counted together."""
    documents = list(documents)
    name = Names(documents)
    out: dict[str, Counter] = defaultdict(Counter)
    for doc in documents:
        for act in doc.actions:
            out[name(act.get("actor")) or NO_ACTOR]["inferred" if act.get("actor_inferred") else "named"] += 1
    return dict(sorted(out.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])))


def verbs_by_chapter(documents: Iterable[ExportDocument]) -> dict[str, Counter]:
    out: dict[str, Counter] = defaultdict(Counter)
    for doc in documents:
        for act in doc.actions:
            out[doc.chapter or NO_CHAPTER][act.get("verb")] += 1
    return dict(sorted(out.items()))


def actor_target(documents: Iterable[ExportDocument], verbs: Sequence[str]) -> Counter:
    """(actor, target) -> number of acts of ``verbs`` with both written or inferred."""
    documents = list(documents)
    name = Names(documents)
    wanted = set(verbs)
    out: Counter = Counter()
    for doc in documents:
        for act in doc.actions:
            if act.get("verb") in wanted and act.get("actor") and act.get("target"):
                out[(name(act["actor"]), name(act["target"]))] += 1
    return out


def places(documents: Iterable[ExportDocument]) -> Counter:
    documents = list(documents)
    name = Names(documents)
    return Counter(name(act["location"]) for doc in documents for act in doc.actions if act.get("location"))


def facings_by_actor(documents: Iterable[ExportDocument]) -> Counter:
    documents = list(documents)
    name = Names(documents)
    return Counter(
        (name(act.get("actor")) or NO_ACTOR, name(act["facing"]))
        for doc in documents for act in doc.actions if act.get("facing")
    )


# -- plotting -------------------------------------------------------------------------------------
def _cjk_fonts() -> list[str]:
    """Installed fonts that have CJK glyphs (for the layout of the SVG text; the browser draws it)."""
    from matplotlib import font_manager

    names = []
    for font in font_manager.fontManager.ttflist:
        if any(key in font.name for key in ("CJK", "WenQuanYi", "Han Sans", "Han Serif", "Hei", "Ming", "Song")):
            names.append(font.name)
    return list(dict.fromkeys(names))


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _svg(fig) -> str:
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": _cjk_fonts() + ["DejaVu Sans"]}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Glyph missing" when no CJK font is installed
            fig.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    svg = text[text.index("<svg"):]
    return svg.replace("<svg ", '<svg role="img" ', 1)


def _bar(labels: list[str], series: dict[str, list[int]], title: str) -> str:
    import matplotlib

    with matplotlib.rc_context({"font.family": _cjk_fonts() + ["DejaVu Sans"]}):
        fig = _figure(8, max(2.0, 0.32 * len(labels) + 1))
        ax = fig.add_subplot()
        left = [0] * len(labels)
        positions = list(range(len(labels)))[::-1]
        for name, values in series.items():
            ax.barh(positions, values, left=left, label=name)
            left = [a + b for a, b in zip(left, values)]
        ax.set_yticks(positions, labels)
        ax.set_title(title)
        if len(series) > 1:
            ax.legend(loc="lower right")
        return _svg(fig)


def _heatmap(rows: list[str], cols: list[str], values: list[list[int]], title: str, xlabel: str, ylabel: str) -> str:
    import matplotlib

    with matplotlib.rc_context({"font.family": _cjk_fonts() + ["DejaVu Sans"]}):
        fig = _figure(max(4.0, 0.45 * len(cols) + 2), max(2.0, 0.4 * len(rows) + 1.5))
        ax = fig.add_subplot()
        ax.imshow(values, cmap="YlOrRd", aspect="auto", vmin=0)
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        top = max((v for row in values for v in row), default=0)
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                if v:
                    ax.text(j, i, str(v), ha="center", va="center", fontsize=8, color="white" if v > top / 2 else "black")
        return _svg(fig)


def _pair_matrix(pairs: Counter, limit: int = 20) -> tuple[list[str], list[str], list[list[int]]]:
    row_tot: Counter = Counter()
    col_tot: Counter = Counter()
    for (a, b), n in pairs.items():
        row_tot[a] += n
        col_tot[b] += n
    rows = [a for a, _ in row_tot.most_common(limit)]
    cols = [b for b, _ in col_tot.most_common(limit)]
    return rows, cols, [[pairs.get((a, b), 0) for b in cols] for a in rows]


# -- sections -------------------------------------------------------------------------------------
def _section(anchor: str, heading: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{esc(heading)}</h2>{body}</section>'


def _empty(what: str) -> str:
    return f"<p>No {esc(what)} in these records.</p>"


def actors_section(documents: list[ExportDocument], limit: int = 30) -> str:
    counts = acts_per_actor(documents)
    if not counts:
        return _section("actors", "Acts per actor", _empty("action tuples"))
    top = list(counts.items())[:limit]
    labels = [a for a, _ in top]
    plot = _bar(labels, {"named": [c["named"] for _, c in top], "inferred": [c["inferred"] for _, c in top]},
                "Acts per actor")
    rows = [(a, sum(c.values()), c["named"], c["inferred"]) for a, c in list(counts.items())[:TABLE_ROWS]]
    more = f'<p class="meta">{len(counts) - TABLE_ROWS} more actors not listed.</p>' if len(counts) > TABLE_ROWS else ""
    return _section("actors", "Acts per actor",
                    plot + table(["actor", "acts", "named", "inferred"], rows, "actors") + more)


def verbs_section(documents: list[ExportDocument]) -> str:
    by_chapter = verbs_by_chapter(documents)
    if not by_chapter:
        return _section("verbs", "Verbs by chapter", _empty("action tuples"))
    seen = {v for c in by_chapter.values() for v in c}
    verbs = [v for v in VERBS if v in seen] + sorted(v for v in seen if v not in VERBS and v)
    chapters = list(by_chapter)
    values = [[by_chapter[c].get(v, 0) for v in verbs] for c in chapters]
    plot = _heatmap(chapters, verbs, values, "Verbs by chapter", "verb", "chapter")
    rows = [[c] + values[i] for i, c in enumerate(chapters)]
    return _section("verbs", "Verbs by chapter", plot + table(["chapter"] + verbs, rows, "verbs"))


def pairs_section(documents: list[ExportDocument], verbs: Sequence[str], anchor: str, heading: str) -> str:
    pairs = actor_target(documents, verbs)
    if not pairs:
        return _section(anchor, heading, _empty(f"acts of {' '.join(verbs)} with an actor and a target"))
    rows, cols, values = _pair_matrix(pairs)
    plot = _heatmap(rows, cols, values, f"{heading} ({' '.join(verbs)})", "target", "actor")
    listing = [(a, b, n) for (a, b), n in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))][:TABLE_ROWS]
    return _section(anchor, heading, plot + table(["actor", "target", "acts"], listing, anchor))


def places_section(documents: list[ExportDocument], limit: int = 30) -> str:
    where = places(documents)
    facing = facings_by_actor(documents)
    if not where and not facing:
        return _section("places", "Places and facings", _empty("places or facings"))
    body = ""
    if where:
        top = where.most_common(limit)
        body += _bar([p for p, _ in top], {"acts": [n for _, n in top]}, "Places named in acts")
        body += table(["place", "acts"], where.most_common(TABLE_ROWS), "places")
    if facing:
        rows, cols, values = _pair_matrix(facing)
        body += _heatmap(rows, cols, values, "Facings by actor", "facing", "actor")
        body += table(["actor", "facing", "acts"],
                      [(a, f, n) for (a, f), n in sorted(facing.items(), key=lambda kv: (-kv[1], kv[0]))][:TABLE_ROWS],
                      "facings")
    return _section("places", "Places and facings", body)


def report_html(documents: Iterable[ExportDocument], title: str = "yili — ritual acts report",
                errors: Optional[int] = None) -> str:
    """The whole report page for ``documents``."""
    documents = list(documents)
    n_acts = sum(len(d.actions) for d in documents)
    summary = table(
        ["document", "chapter", "chars", "segments", "sentences", "spans", "acts"],
        [(d.name, d.chapter or NO_CHAPTER, len(d.text), len(d.segments), len(d.sentences), len(d.spans), len(d.actions))
         for d in documents],
        "documents",
    )
    intro = f"<p>{len(documents)} document(s), {n_acts} action tuple(s)"
    intro += f"; {errors} error record(s) skipped</p>" if errors else "</p>"
    body = "\n".join([
        intro, summary,
        actors_section(documents),
        verbs_section(documents),
        pairs_section(documents, BOW_VERBS, "bows", "Who bows to whom"),
        pairs_section(documents, OFFERING_VERBS, "offerings", "Who offers to whom"),
        places_section(documents),
    ])
    return page(title, body)
