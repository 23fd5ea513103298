"""Stop-word removal and stemming for the link classifiers (Barbosa et al. 2011, Sec. 2.2:
"we remove stop-words and stem the remaining words").

Stop words live in data/stopwords/<code>.txt (Serbian: Latin and Cyrillic). Stemming uses the
snowballstemmer package, which has both "english" and "serbian" (the Serbian stemmer also maps
Cyrillic to Latin, so both scripts share features). A two-word anchor does not tell us its
language, so each token picks its stemmer: when the pair includes English, a token the English
Hunspell dictionary knows gets the English stemmer and every other token the stemmer of the other
language ("hotels" -> "hotel", "hoteli" -> "hotel", "смештај" -> "smešta"). Without English in the
pair, or without the dictionary installed, tokens go through the stemmers as a chain in pair order.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from crawlweb.language.dictionaries import MissingDictionary, spell_checker

log = logging.getLogger(__name__)

WORD_CACHE_SIZE = 100_000  # stems a Normalizer remembers (words repeat across a site's links)
STOPWORD_DIR = Path(__file__).with_name("data") / "stopwords"
SNOWBALL_NAMES = {
    "en": "english", "sr": "serbian", "hr": "serbian", "bs": "serbian", "es": "spanish",
    "de": "german", "fr": "french", "it": "italian", "ru": "russian", "pt": "portuguese",
}


@lru_cache(maxsize=None)
def stopwords(code: str) -> frozenset[str]:
    path = STOPWORD_DIR / f"{code}.txt"
    if not path.is_file():
        raise FileNotFoundError(f"no stop-word list for language {code!r}: add {path}")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


@lru_cache(maxsize=None)
def _stemmer(code: str):
    name = SNOWBALL_NAMES.get(code)
    if name is None or name not in snowballstemmer.algorithms():
        raise ValueError(f"no Snowball stemmer for language {code!r}; known: {sorted(SNOWBALL_NAMES)}")
    return snowballstemmer.stemmer(name)


class Normalizer:
    """Drops stop words of any pair language, then stems through the pair's stemmer chain."""

    def __init__(self, pair: tuple[str, ...] = ("sr", "en")):
        self.pair = tuple(pair)
        self._stop = frozenset().union(*(stopwords(c) for c in self.pair))
        self._stemmers = [_stemmer(c) for c in self.pair]
        self._cache: dict[str, str] = {}
        self._english = None
        others = [c for c in self.pair if c != "en"]
        if "en" in self.pair and len(others) == 1:
            try:
                self._english = spell_checker("en")
                self._en_stemmer, self._other_stemmer = _stemmer("en"), _stemmer(others[0])
            except MissingDictionary as exc:
                log.warning("stemming as a chain: %s", exc)

    def stem(self, token: str) -> str:
        if self._english is not None:
            stemmer = self._en_stemmer if self._english.known(token) else self._other_stemmer
            return stemmer.stemWord(token)
        for stemmer in self._stemmers:
            token = stemmer.stemWord(token)
        return token

    def __call__(self, tokens: list[str]) -> list[str]:
        out = []
        for token in tokens:
            if token in self._stop or len(token) < 2:
                continue
            stem = self._cache.get(token)
            if stem is None:
                if len(self._cache) >= WORD_CACHE_SIZE:  # a national web's vocabulary has no end
                    self._cache.clear()
                stem = self._cache[token] = self.stem(token)
            if stem not in self._stop:
                out.append(stem)
        return out
