"""The ritual lexicon: terms per span label, read from ``configs/lexicon/*.txt``.

Terms are written in traditional characters as in the editions; each is also kept in its
normalised form (see :mod:`pipeline.text.normalise`) because matching happens on the normalised view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

FILES = {
    "ACTOR": "actors.txt",
    "VERB": "verbs.txt",
    "OBJECT": "objects.txt",
    "LOCATION": "locations.txt",
    "FACING": "facings.txt",
}


def default_lexicon_dir() -> Path:
    """``configs/lexicon`` of a source checkout, else the copy shipped inside the package."""
    from pipeline.config import shipped

    folder = shipped("configs/lexicon")
    if folder.is_dir():
        return folder
    raise FileNotFoundError("lexicon folder not found: expected configs/lexicon beside the package")


def read_lexicon_file(path: Path) -> str:
    """The text of a lexicon file; one that is not UTF-8 (a scholar's list saved in Big5, a line
    pasted from elsewhere) is named with its line, as the JSONL readers name theirs
    (:func:`pipeline.read.decode.utf8_line`): decoding the whole file had said only "position 3853"."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from pipeline.read.decode import utf8_line

        opens = data.rfind(b"\n", 0, exc.start) + 1
        ends = data.find(b"\n", exc.start)
        number = data.count(b"\n", 0, exc.start) + 1
        _none, why = utf8_line(data[opens:ends if ends >= 0 else len(data)], first=number == 1)
        raise ValueError(f"{path}:{number}: {why}") from exc


@dataclass
class Lexicon:
    #: label -> terms as written in the files
    terms: dict[str, list[str]] = field(default_factory=dict)
    #: verb surface form -> lemma (e.g. 醋 -> 酢)
    verb_lemmas: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Optional[Path] = None) -> "Lexicon":
        folder = Path(folder) if folder else default_lexicon_dir()
        terms: dict[str, list[str]] = {}
        lemmas: dict[str, str] = {}
        for label, name in FILES.items():
            path = folder / name
            items: list[str] = []
            for lineno, line in enumerate(read_lexicon_file(path).splitlines(), 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                cols = line.split("\t")
                head = cols[0].strip()
                if not head:
                    raise ValueError(f"{path}:{lineno}: empty term")
                items.append(head)
                if label == "VERB":
                    lemmas[head] = head
                    for variant in cols[1:]:
                        for v in variant.split():
                            lemmas[v] = head
                            items.append(v)
            terms[label] = list(dict.fromkeys(items))
        return cls(terms=terms, verb_lemmas=lemmas)

    def normalised(self, normalise: Callable[[str], str]) -> dict[str, list[str]]:
        """label -> normalised terms, longest first (the order a greedy matcher wants)."""
        return {
            label: sorted(dict.fromkeys(normalise(t) for t in items), key=len, reverse=True)
            for label, items in self.terms.items()
        }
