"""Import thinc (spaCy's machine-learning layer) without torch, to cut the start-up of every run.

``thinc.compat`` imports torch when it is installed, only to learn whether it may wrap torch
models; that costs about a second per ``yili process`` (torch is installed here for the optional
stanza backend). yili's spaCy models (the tokenizers, the lexicon ruler, the span model under
``models/spans``) are numpy-only, so thinc is imported with torch hidden from it. torch itself
stays importable: the stanza backend imports it later as usual. Set ``YILI_THINC_TORCH=1`` to let
thinc see torch (for a spaCy model of your own that wraps a torch network).
"""

from __future__ import annotations

import importlib.abc
import os
import sys


class _HideTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):  # noqa: D401 - importlib protocol
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is hidden from thinc by pipeline.nlp.thinc_import")
        return None


def import_thinc_without_torch() -> bool:
    """Import ``thinc.compat`` with torch hidden, unless thinc or torch is loaded already or the
    user asked for torch. Returns True when thinc was imported without torch by this call."""
    if os.environ.get("YILI_THINC_TORCH") or "thinc.compat" in sys.modules or "torch" in sys.modules:
        return False
    finder = _HideTorch()
    sys.meta_path.insert(0, finder)
    try:
        import thinc.compat  # noqa: F401 - decides has_torch once, now without torch
    finally:
        sys.meta_path.remove(finder)
    return True
