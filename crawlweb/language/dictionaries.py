"""Hunspell dictionaries by language code, with a per-token cache.

Pure module (no Django). Which files make up a language lives in data/languages.json,
so another language pair is configuration, not code.
"""
from __future__ import annotations

import json
import os
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

import hunspell

DATA_FILE = Path(__file__).with_name("data") / "languages.json"


class MissingDictionary(RuntimeError):
    """A configured Hunspell dictionary is not installed; the message names the package."""


def _config() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


class SpellChecker:
    """Answers "is this token a word of language X?" for one language.

    A token is NFC-normalized first (pyhunspell compares bytes). Look-ups are cached per
    unique token because URL tokens repeat heavily across a crawl; the cache is emptied when it
    holds CACHE_MAX tokens, since a national web's distinct tokens would grow a worker without end.
    """

    CACHE_MAX = 200_000  # about 25 MB of tokens and answers

    def __init__(self, code: str, dictionary_paths: list[tuple[str, str]]):
        self.code = code
        self._spellers = [hunspell.HunSpell(dic, aff) for dic, aff in dictionary_paths]
        self._lock = threading.Lock()  # the C library is not documented as thread-safe
        self._cache: dict[str, bool] = {}

    def known(self, token: str) -> bool:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        word = unicodedata.normalize("NFC", token)
        with self._lock:
            result = any(s.spell(word) for s in self._spellers)
        if len(self._cache) >= self.CACHE_MAX:
            self._cache.clear()
        self._cache[token] = result
        return result


_loading = threading.Lock()


def spell_checker(code: str) -> SpellChecker:
    """The shared SpellChecker for a language code; raises MissingDictionary naming the package.

    Fetch threads identify page languages at once: the lock makes the first of them load each
    dictionary (about half a second) while the others wait, instead of every thread loading it."""
    with _loading:
        return _load_spell_checker(code)



@lru_cache(maxsize=None)
def _load_spell_checker(code: str) -> SpellChecker:
    config = _config()
    spec = config["languages"].get(code)
    if spec is None:
        raise MissingDictionary(
            f"no Hunspell dictionary is configured for language {code!r} in {DATA_FILE}"
        )
    directory = os.environ.get("HUNSPELL_DIR", config["dictionary_dir"])
    paths = []
    for name in spec["dictionaries"]:
        dic, aff = Path(directory, name + ".dic"), Path(directory, name + ".aff")
        if not (dic.exists() and aff.exists()):
            raise MissingDictionary(
                f"Hunspell dictionary {name} for language {code!r} is missing from {directory}: "
                f"install the Debian package {spec['package']} (apt-get install {spec['package']})"
            )
        paths.append((str(dic), str(aff)))
    return SpellChecker(code, paths)


spell_checker.cache_clear = _load_spell_checker.cache_clear  # tests swap dictionaries
