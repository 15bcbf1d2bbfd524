"""Action tuples from 經 text: clause analysis, roles and actor carry-over (SCHEMA section 4).

``ActionExtractor().extract(passages)`` is the stage's entry point; the conventions it follows are
written in :mod:`pipeline.actions.extractor`.
"""

from pipeline.actions.extractor import ActionExtractor, Passage, make_view, split_marks

__all__ = ["ActionExtractor", "Passage", "make_view", "split_marks"]
