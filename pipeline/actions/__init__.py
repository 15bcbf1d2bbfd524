"""Action tuples from 經 text: clause analysis, roles and actor carry-over (SCHEMA section 4).

``ActionExtractor().extract(passages)`` is the stage's entry point; the conventions it follows are
written in :mod:`pipeline.actions.extractor` (how a document is read) and
:mod:`pipeline.actions.walk` (who acts in each clause, and the roles).
"""

from pipeline.actions.extractor import ActionExtractor
from pipeline.actions.passage import Passage, make_view, split_marks

__all__ = ["ActionExtractor", "Passage", "make_view", "split_marks"]
