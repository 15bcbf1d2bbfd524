"""Tokenizer backends, spaCy factories and the ritual lexicon."""
