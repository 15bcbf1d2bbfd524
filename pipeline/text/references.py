"""HTML character references (``&#x9109;``, ``&#37129;``, ``&amp;``): how a page saved from a
browser writes a rare character or a mark. The views fold each into the character it names
(:func:`pipeline.text.normalise.fold_entities`) and the strings a tuple or token quotes give that
character (:meth:`pipeline.text.view.TextView.written`); offsets still cover the whole reference.
"""

from __future__ import annotations

import html.entities
import re

#: an HTML character reference, as a page saved from a browser writes a rare character or a mark:
#: ``&#x9109;``, ``&#37129;``, ``&amp;`` (a name HTML5 knows; ``&KR0925;`` is no HTML reference)
REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def reference_text(reference: str) -> str | None:
    """What the HTML character reference ``reference`` stands for, or None when it is none."""
    if not REFERENCE.fullmatch(reference):
        return None
    if reference.startswith("&#"):
        body = reference[2:-1]
        code = int(body[1:], 16) if body[:1] in "xX" else int(body)
        return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else None
    return html.entities.html5.get(reference[1:])


def written_unit(unit: str) -> str:
    """How a tuple or token quotes one folded unit of the raw text: an HTML reference as its
    character, a Kanripo entity a page escaped (``&amp;KR0925;``) as the entity."""
    if unit.startswith("&amp;KR"):
        return "&" + unit[5:]
    return reference_text(unit) or unit
