"""The annotation loop: Prodigy-compatible tasks, import, the answer store, the review page,
converters, agreement, selection and training data from accepted answers.

One workflow per module (Prodigy-recipe style):

- :mod:`.tasks`     ``yili tasks``: processed records → span / relation / layer tasks
- :mod:`.importer`  ``yili import``: answers (Prodigy, review page, Label Studio, Doccano, brat)
  → validated → the store; and ``export_answers`` (the store → JSONL, like Prodigy's ``db-out``)
- :mod:`.store`     the append-only answer store (SQLite file or PostgreSQL URL)
- :mod:`.review`    ``yili review``: a local web page to accept, reject or correct tasks
- :mod:`.agreement` ``yili agreement``: span F1, tuple F1, Cohen's kappa between annotators
- :mod:`.select`    ``yili tasks --select uncertain``: active-learning order
- :mod:`.training`  the store → training data for the layer classifier and the span model
- :mod:`.labelstudio`, :mod:`.doccano`, :mod:`.brat`: converters both ways
"""
