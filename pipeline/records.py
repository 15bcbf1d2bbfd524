"""Dataclasses for what flows between the stages, and their JSON form (SCHEMA sections 1-4).

Every offset is a Python ``str`` index (code points), end-exclusive, into the raw ``text``
of the document the record belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass(frozen=True)
class RunShape:
    """What a reader knows of an undecided run where layers run together without a marker.

    A 四庫 注 whose end is unmarked runs into the next 經 and nothing else (the next 注 has its
    marker): ``RunShape("ZHU", "JING", one_switch=True)``; a web edition's run-on line opens with
    its 經: ``RunShape(first="JING")``. The run-together splitter decodes within it.
    """

    first: Optional[str] = None
    last: Optional[str] = None
    #: the run holds ``first`` and then ``last``, one seam between them
    one_switch: bool = False
    #: Han characters at the run's start that repeat words of the 經 just before it: a 注 that
    #: opens on its lemma (再拜稽首，拜君命) goes on to gloss it, so its end lies past them
    quoted: int = 0


@dataclass
class Segment:
    """A run of one text layer: JING / ZHU / SHU / OTHER."""

    layer: str
    start: int
    end: int
    text: str
    evidence: str = "default"
    score: float = 1.0
    #: an undecided segment's known shape (not part of the output)
    shape: Optional[RunShape] = None

    def to_dict(self) -> dict[str, Any]:
        # written out (not dataclasses.asdict, which deep-copies field by field): documents hold
        # tens of thousands of segments and removals, and this was 5% of `yili process`
        return {"layer": self.layer, "start": self.start, "end": self.end, "text": self.text,
                "evidence": self.evidence, "score": self.score}


@dataclass
class Removal:
    """Raw text that is not content: page furniture, spam, duplicated paragraphs, markup.

    Removals are reported in the output (``removed``) so that nothing disappears silently.
    """

    start: int
    end: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "reason": self.reason}


@dataclass
class Sentence:
    start: int
    end: int
    layer: str
    #: "sentence" or "clause": clauses are parts of a sentence split at ， 、 etc.
    kind: str = "sentence"

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "layer": self.layer, "kind": self.kind}


@dataclass
class Span:
    start: int
    end: int
    label: str
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "label": self.label, "text": self.text}


@dataclass
class Action:
    """One ritual act (SCHEMA section 4)."""

    verb: str
    surface: str
    start: int
    end: int
    actor: Optional[str] = None
    actor_inferred: bool = False
    count: Optional[int] = None
    response: bool = False
    negated: bool = False
    purpose: Optional[str] = None
    object: Optional[str] = None
    target: Optional[str] = None
    location: Optional[str] = None
    facing: Optional[str] = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: raw offsets of the verb itself (not written out: SCHEMA's tuple has the clause's offsets);
    #: used to keep the VERB spans of the acts performed, as the gold marks them
    verb_at: Optional[tuple[int, int]] = field(default=None, compare=False, repr=False)
    #: raw offsets of the thing handled (``object``), likewise not written out: an unknown thing the
    #: extractor found after a verb of handling (受爵弁) gets its OBJECT span from it
    object_at: Optional[tuple[int, int]] = field(default=None, compare=False, repr=False)
    #: and of the place (``location``): a place phrase the lexicon only partly knows (西坫南)
    location_at: Optional[tuple[int, int]] = field(default=None, compare=False, repr=False)
    #: and of the actor where the clause writes it (not inferred): a name the extractor read that
    #: neither the lexicon nor the span model marked gets its ACTOR span from it
    actor_at: Optional[tuple[int, int]] = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "actor": self.actor,
            "actor_inferred": self.actor_inferred,
            "verb": self.verb,
            "surface": self.surface,
            "count": self.count,
            "response": self.response,
            "negated": self.negated,
            "purpose": self.purpose,
            "object": self.object,
            "target": self.target,
            "location": self.location,
            "facing": self.facing,
            "start": self.start,
            "end": self.end,
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Action":
        known = {f for f in cls.__dataclass_fields__ if f not in ("extra", "verb_at", "object_at", "location_at")}
        kwargs = {k: v for k, v in data.items() if k in known}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**kwargs, extra=extra)
