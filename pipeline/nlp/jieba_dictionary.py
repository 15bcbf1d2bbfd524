"""A Classical Chinese dictionary for the ``jieba`` backend, from the UD Kyoto treebank's training file.

jieba's own dictionary is of modern Chinese (350,000 words): it joins classical words into modern
compounds, and loading it is most of ``yili process``'s start-up. The words of UD Kyoto's
training sentences (論語, 孟子, 禮記 …; the test file is never read, though short sayings recur
across the classics: 9% of its sentences, mostly of one to three characters, are also written in the
training file) with their counts, in the
pipeline's normalised form (the view the tokenizer reads), make a dictionary of about 2,000 words
that loads at once; the ritual lexicon is added on top as before. ``yili train jieba`` rebuilds it.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import Counter
from pathlib import Path
from typing import Optional

#: The folder of the shipped dictionary (``[nlp] jieba_dictionary``).
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "models" / "jieba-lzh"  # where `yili train jieba` writes
DICT_FILE = "dict.txt"
REBUILD_COMMAND = "yili train jieba"


class DictionaryError(RuntimeError):
    """The jieba dictionary cannot be read: the message names the path and the command that rebuilds it."""


def dictionary_file(value: Optional[str | Path]) -> Optional[Path]:
    """``[nlp] jieba_dictionary`` as a file: None/""/false → jieba's own dictionary; a folder → its
    ``dict.txt``; a relative path as :func:`pipeline.config.model_path` reads it. A path that names
    no file raises :class:`DictionaryError`."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "null", "none", "false")):
        return None
    from pipeline.config import model_path

    path = Path(model_path(value))
    if path.is_dir():
        path = path / DICT_FILE
    if not path.is_file():
        raise DictionaryError(f"jieba dictionary not found: {path} (set [nlp] jieba_dictionary = null for jieba's own, "
                              f"or rebuild it with `{REBUILD_COMMAND}`)")
    return path


def word_counts(conllu: Path) -> Counter:
    """Words of a CoNLL-U file (punctuation left out) with their counts, in the normalised view's form."""
    from pipeline.text.normalise import normalise_str
    from pipeline.text.segmentation_eval import read_conllu

    counts: Counter = Counter()
    for sentence in read_conllu(conllu):
        for start, end, _upos in sentence.tokens:
            word = normalise_str(sentence.text[start:end]).strip()
            if word and not any(ch.isspace() for ch in word):
                counts[word] += 1
    return counts


def build_dictionary(out: Optional[Path] = None, conllu: Optional[Path] = None) -> dict:
    """Write ``dict.txt`` (jieba's format: ``word count`` per line) and a model card to ``out``."""
    from pipeline.nlp.stanza_training import kyoto_train_file

    out = Path(out) if out is not None else DEFAULT_DIR
    conllu = Path(conllu) if conllu is not None else kyoto_train_file()
    if not conllu.is_file():
        raise FileNotFoundError(f"UD Kyoto training file not found: {conllu} (put ../shared/ud-kyoto beside the repository)")
    counts = word_counts(conllu)
    out.mkdir(parents=True, exist_ok=True)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    (out / DICT_FILE).write_text("".join(f"{word} {n}\n" for word, n in ranked), encoding="utf-8")
    info = {"source": conllu.name, "words": len(counts), "multi_character_words": sum(1 for w in counts if len(w) > 1),
            "tokens": sum(counts.values()), "date": _dt.date.today().isoformat(), "command": REBUILD_COMMAND}
    (out / "info.json").write_text(json.dumps(info, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "MODEL_CARD.md").write_text(
        "# jieba dictionary for Classical Chinese (`models/jieba-lzh`)\n\n"
        f"Built by `{REBUILD_COMMAND}` on {info['date']} from `{conllu.name}` (UD Classical Chinese Kyoto, "
        "CC BY-SA 4.0; this word list is shared under the same licence): every word of its sentences, punctuation "
        f"left out, with its count, in the pipeline's normalised (simplified) form: {info['words']:,} words, "
        f"{info['multi_character_words']:,} of more than one character, {info['tokens']:,} tokens. The test file is "
        "never read.\n\n"
        "Used by the `jieba` tokenizer (`[nlp] jieba_dictionary`) instead of jieba's modern-Chinese dictionary; "
        "the ritual lexicon is added on top. Token F1 on the UD Kyoto test file is in "
        "`bench/results/segmentation.md`.\n", encoding="utf-8")
    return info
