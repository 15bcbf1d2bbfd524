"""Assemble the spaCy pipeline from the yili config's ``[nlp]`` section, and tag a view with it.

``[nlp] tokenizer`` picks a registered tokenizer (``jieba`` default, ``char``, ``udkanbun``,
``stanza``); the pipeline then holds one component, ``lexicon_ruler`` (:mod:`pipeline.nlp.ruler`),
followed by ``span_model`` (:mod:`pipeline.nlp.span_model`) when ``[nlp] span_model`` names a model
folder (``span_model_mode`` says how its spans join the lexicon's).
The spaCy config is written as a confection ``Config`` and loaded with spaCy's own loader, so
``nlp.config`` / ``nlp.to_disk`` describe the pipeline exactly (import :mod:`pipeline.nlp` before
``spacy.load`` so the registered names resolve).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from confection import Config
from spacy.language import Language

# registering modules: importing them puts their names in spaCy's registries
from pipeline.nlp import char_tokenizer, jieba_tokenizer, ruler, sentencizer, span_model, stanza_tokenizer, udkanbun_tokenizer  # noqa: F401
from pipeline.nlp.ruler import SPANS_KEY

TOKENIZERS = {
    "jieba": "yili.jieba_tokenizer.v1",
    "char": "yili.char_tokenizer.v1",
    "udkanbun": "yili.udkanbun_tokenizer.v1",
    "stanza": "yili.stanza_tokenizer.v1",
}
RULER = "lexicon_ruler"
SPAN_MODEL = "span_model"
SENTENCES = "yili_sentences"
DEFAULT_FUNCTION_WORDS = "于以之而其者"


def nlp_section(config: Optional[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(whole yili config, its [nlp] section); ``None`` → the default config."""
    if config is None:
        from pipeline.config import load_config

        config = load_config()
    if isinstance(config.get("nlp"), dict):
        return config, dict(config["nlp"])
    return {"nlp": dict(config)}, dict(config)  # given the [nlp] section alone


def lexicon_dir(config: dict[str, Any]) -> Optional[str]:
    """``[paths] lexicon`` resolved against the configs folder; None → the default lexicon (also
    when it names the default folder, so that a saved pipeline holds no machine's path)."""
    from pipeline.nlp.lexicon import default_lexicon_dir

    value = (config.get("paths") or {}).get("lexicon")
    if not value:
        return None
    path = Path(str(value)).expanduser()
    if not path.is_absolute():
        from pipeline.config import default_config_path

        path = default_config_path().parent / path
    if not path.is_dir():
        raise FileNotFoundError(f"[paths] lexicon: no such folder: {path}")
    return None if path.resolve() == default_lexicon_dir().resolve() else str(path)


def spacy_config(config: Optional[dict[str, Any]] = None) -> Config:
    """The spaCy config (confection) the yili ``[nlp]`` section stands for."""
    whole, section = nlp_section(config)
    name = str(section.get("tokenizer") or "jieba")
    if name not in TOKENIZERS:
        raise ValueError(f"unknown [nlp] tokenizer {name!r}: choose one of {', '.join(TOKENIZERS)}")
    lex = lexicon_dir(whole)
    words = str(section.get("function_words", DEFAULT_FUNCTION_WORDS) or "")
    tokenizer: dict[str, Any] = {"@tokenizers": TOKENIZERS[name]}
    if name != "char":
        tokenizer.update(lexicon_dir=lex, function_words=words)
    if name == "jieba":
        tokenizer["hmm"] = bool(section.get("jieba_hmm", False))
        dictionary = section.get("jieba_dictionary")
        tokenizer["dictionary"] = str(dictionary) if dictionary else None
    if name == "stanza":
        model_dir = section.get("stanza_model_dir")
        tokenizer["model_dir"] = str(model_dir) if model_dir else None
    components: dict[str, Any] = {
        RULER: {
            "factory": "yili_lexicon_ruler",
            "lexicon_dir": lex,
            "spans_key": str(section.get("spans_key") or SPANS_KEY),
        }
    }
    pipeline = [RULER]
    model_dir = span_model.resolve_model_dir(section.get("span_model"))
    if model_dir is not None:
        value = section.get("span_model")  # as written (a relative path stays relative to the checkout)
        named = str(value) if isinstance(value, str) and value.strip().lower() not in ("true", "default") else "models/spans"
        components[SPAN_MODEL] = {
            "factory": "yili_span_model",
            "model_dir": named,
            "spans_key": str(section.get("spans_key") or SPANS_KEY),
            "mode": str(section.get("span_model_mode") or "fill"),
            "labels": list(section["span_model_labels"]) if section.get("span_model_labels") else None,
        }
        pipeline = [RULER, SPAN_MODEL]
    sentences = section.get("sentences")
    if sentences:  # doc.sents for spaCy users; `yili process` cuts sentences itself, before tagging
        model = (whole.get("sentences") or {}).get("model")
        layer = section.get("sentences_layer")
        components[SENTENCES] = {"factory": "yili_sentences", "splitter": str(sentences), "model": model,
                                 "layer": str(layer) if layer else None}
        pipeline = [SENTENCES, *pipeline]
    return Config(
        {
            "nlp": {"lang": str(section.get("lang") or "zh"), "pipeline": pipeline, "tokenizer": tokenizer},
            "components": components,
        }
    )


def lexicon_only(config: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """The yili config with the span model switched off (the lexicon spans alone)."""
    whole, section = nlp_section(config)
    return {**whole, "nlp": {**section, "span_model": None}}


def build_nlp(config: Optional[dict[str, Any]] = None) -> Language:
    """The tagging pipeline for a yili config (default: ``configs/default.cfg``).

    Raises :class:`pipeline.nlp.base.BackendUnavailable` with the way out when the chosen
    tokenizer's package or model is missing.
    """
    from spacy.util import load_model_from_config

    return load_model_from_config(spacy_config(config), auto_fill=True, validate=True)


def spans_key(nlp: Language) -> str:
    for _, pipe in nlp.pipeline:
        key = getattr(pipe, "key", None)
        if isinstance(key, str) and key:
            return key
    return SPANS_KEY


def tag_spans(nlp: Language, view_text: str) -> list[tuple[int, int, str]]:
    """(start, end, label) of the lexicon spans in ``view_text`` (view coordinates), in text order,
    never overlapping (most characters covered; see :mod:`pipeline.nlp.matcher`)."""
    if not view_text:
        return []
    doc = nlp(view_text)
    key = spans_key(nlp)
    spans = doc.spans[key] if key in doc.spans else []
    return sorted((s.start_char, s.end_char, s.label_) for s in spans)
