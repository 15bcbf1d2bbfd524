"""Tokenizer backends, the lexicon span ruler and the ritual lexicon.

``build_nlp(config)`` assembles the spaCy pipeline the ``[nlp]`` config section names;
``tag_spans(nlp, view_text)`` gives the lexicon spans of a normalised view.
"""

from pipeline.nlp.thinc_import import import_thinc_without_torch

import_thinc_without_torch()  # before anything imports spaCy: start-up without torch

from pipeline.nlp.base import BackendUnavailable
from pipeline.nlp.build import build_nlp, spacy_config, tag_spans

__all__ = ["BackendUnavailable", "build_nlp", "spacy_config", "tag_spans"]
