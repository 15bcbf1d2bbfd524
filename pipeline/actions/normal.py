"""The normalisation the action stage matches on, and the folding evaluations compare with.

The pipeline's own normaliser (``pipeline.text.normalise.normalise_str``) is used when it is
installed; the fallback here does the same job (opencc t2s, which keeps the length, plus the
variant table of the editions) so that this stage also runs on its own, e.g. in unit tests.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

#: Variant forms the editions write for one word (SCHEMA: 荅→答, 於→于, 眾/衆→众 …), one char each.
VARIANTS = str.maketrans({
    "荅": "答", "於": "于", "衆": "众", "眾": "众", "鄕": "乡", "卽": "即", "旣": "既",
    "爲": "为", "䖍": "虔", "庿": "庙", "𤣥": "玄", "酧": "酬",
})


@lru_cache(maxsize=1)
def _opencc():
    try:
        import opencc

        return opencc.OpenCC("t2s")
    except Exception:  # opencc missing: variants only
        return None


def fallback_normalise(text: str) -> str:
    """t2s (length-preserving) then the variant table; one output char per input char."""
    conv = _opencc()
    out = conv.convert(text) if conv is not None else text
    if len(out) != len(text):  # never shift offsets: convert char by char instead
        out = "".join(c if len(c) == 1 else ch for ch, c in ((ch, conv.convert(ch)) for ch in text))
    return out.translate(VARIANTS)


def default_normalise() -> Callable[[str], str]:
    """The project's ``normalise_str`` when present, else :func:`fallback_normalise`."""
    try:
        from pipeline.text.normalise import normalise_str  # type: ignore

        return normalise_str
    except ImportError:
        return fallback_normalise


def fold(value: str | None, normalise: Callable[[str], str] | None = None) -> str | None:
    """The comparison form of a role or key string (None stays None)."""
    if value is None:
        return None
    norm = normalise or default_normalise()
    return norm(str(value)).translate(VARIANTS)
