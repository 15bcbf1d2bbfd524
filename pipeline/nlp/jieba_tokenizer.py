"""``jieba`` backend (the default): a private ``jieba.Tokenizer`` with a ritual user dictionary.

* Private: the global jieba dictionary is never touched, so other code using jieba is unaffected.
* The ritual user dictionary holds every lexicon term in its normalised (simplified) form —
  jieba's own dictionary is simplified-only, and the view it gets is t2s-normalised — so jieba
  itself prefers to keep terms whole; the lexicon alignment then guarantees it.
* HMM is off: it glues unknown classical words together (階上, 爵于, 賓西階上).
* ``dictionary``: a Classical Chinese word list in jieba's format instead of jieba's modern one
  (the default config names ``models/jieba-lzh``, built from UD Kyoto's training file by
  :mod:`pipeline.nlp.jieba_dictionary`): classical words are not joined into modern compounds, and it
  loads at once where jieba's own takes most of a second.
* Function words (于 以 之 而 其 者 by default) are single tokens unless inside a term (眾賓之長).
"""

from __future__ import annotations

import logging
from typing import Callable, Optional, Sequence

from spacy.language import Language
from spacy.util import registry
from spacy.vocab import Vocab

from pipeline.nlp.base import LexiconAlignedTokenizer
from pipeline.nlp.jieba_dictionary import dictionary_file


class JiebaRitualTokenizer(LexiconAlignedTokenizer):
    name = "jieba"

    def __init__(
        self,
        vocab: Vocab,
        lexicon_dir: Optional[str] = None,
        function_words: str = "于以之而其者",
        hmm: bool = False,
        dictionary: Optional[str] = None,
    ):
        super().__init__(vocab, lexicon_dir, function_words)
        self.hmm = hmm
        #: a jieba dictionary file (None: jieba's own); checked here so that a wrong path fails at build time
        found = dictionary_file(dictionary)
        self.dictionary = str(found) if found else None
        self._jieba = None
        #: stretch → jieba's (start, end) cuts of it: about 30% of the stretches between lexicon
        #: terms and function words recur in the corpus, and jieba costs tens of µs a stretch
        self._cuts: dict[str, list[tuple[int, int]]] = {}

    @property
    def jieba(self):
        """The private jieba tokenizer, built on first use (jieba's own dictionary takes ~1 s to load)."""
        if self._jieba is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tk = jieba.Tokenizer(dictionary=self.dictionary) if self.dictionary else jieba.Tokenizer()
            tk.initialize()
            for term in sorted(self.matcher.terms, key=len, reverse=True):
                if len(term) > 1:
                    tk.add_word(term, freq=max(tk.suggest_freq(term, tune=False), 1000))
            self._jieba = tk
        return self._jieba

    def warm_up(self) -> None:
        _ = self.jieba

    def base_ranges(self, text: str) -> list[tuple[int, int]]:
        return [(s, e) for _, s, e in self.jieba.tokenize(text, HMM=self.hmm)]

    def aligned(self, text: str, cover: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
        """Lexicon terms and function words first; jieba only cuts the stretches between them
        (most of the 經 is lexicon terms, and jieba costs per call and per character)."""
        if not text:
            return []
        units = [(s, e) for s, e, _ in cover]
        out: list[tuple[int, int]] = []
        pos = 0
        for s, e in units + [(len(text), len(text))]:
            if s > pos:
                out.extend(self._cut_gap(text, pos, s))
            if e > s:
                out.append((s, e))
            pos = e
        return out

    def _cut_gap(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        run = start  # start of the current stretch without function words
        for i in range(start, end + 1):
            if i == end or text[i] in self.function_words:
                if i - run == 1:
                    out.append((run, i))
                elif i > run:
                    out.extend((run + s, run + e) for s, e in self._stretch_cuts(text[run:i]))
                if i < end:
                    out.append((i, i + 1))
                run = i + 1
        return out

    def _stretch_cuts(self, stretch: str) -> list[tuple[int, int]]:
        cuts = self._cuts.get(stretch)
        if cuts is None:
            if len(self._cuts) >= CACHE_SIZE:  # bounded: a long batch run must not grow without end
                self._cuts.clear()
            cuts = self._cuts[stretch] = [(s, e) for _, s, e in self.jieba.tokenize(stretch, HMM=self.hmm)]
        return cuts


#: How many distinct stretches :class:`JiebaRitualTokenizer` remembers (a few MB at most).
CACHE_SIZE = 100_000


@registry.tokenizers("yili.jieba_tokenizer.v1")
def create_jieba_tokenizer(
    lexicon_dir: Optional[str] = None, function_words: str = "于以之而其者", hmm: bool = False,
    dictionary: Optional[str] = None,
) -> Callable[[Language], JiebaRitualTokenizer]:
    def make(nlp: Language) -> JiebaRitualTokenizer:
        return JiebaRitualTokenizer(nlp.vocab, lexicon_dir, function_words, hmm, dictionary)

    return make
