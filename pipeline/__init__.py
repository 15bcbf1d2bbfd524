"""yili: structured data from editions of the 儀禮 and its commentaries.

The package folders follow the flow of one document:
read → layers → text (normalise, sentences) → nlp (tokens, tags) → actions → export.
"""

__version__ = "0.1.0"
