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

from .scripts import has_cyrillic

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

    A dictionary of one script's words (``scripts``: Serbian's Cyrillic and Latin halves, 35 MB each
    in memory) is loaded at the first token in its script and asked only about such tokens: a process
    that meets no Cyrillic (a placement job reading URLs, a web written in Latin) never holds the
    Cyrillic half. A dictionary with no script is loaded at the first token and asked about every one.
    """

    CACHE_MAX = 50_000  # about 6 MB of tokens and answers: the frequent ones; 200,000 grew a process by 25 MB

    def __init__(self, code: str, dictionary_paths: list[tuple[str, str]], scripts: list[str | None] | None = None):
        self.code = code
        self._paths = dictionary_paths
        self._scripts = scripts or [None] * len(dictionary_paths)
        self._spellers: dict[int, hunspell.HunSpell] = {}  # by index in _paths, once loaded
        self._lock = threading.Lock()  # the C library is not documented as thread-safe
        self._cache: dict[str, bool] = {}

    def known(self, token: str) -> bool:
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        word = unicodedata.normalize("NFC", token)
        script = token_script(word)
        with self._lock:
            result = any(self._speller(i).spell(word)
                         for i, of in enumerate(self._scripts) if of is None or of == script)
        if len(self._cache) >= self.CACHE_MAX:
            self._cache.clear()
        self._cache[token] = result
        return result

    def load(self, script: str | None = None) -> None:
        """Load now the dictionaries ``script``'s tokens are asked of (all, with None), so the first page
        does not wait for them."""
        with self._lock:
            for i, of in enumerate(self._scripts):
                if script is None or of is None or of == script:
                    self._speller(i)

    @property
    def loaded(self) -> list[str]:
        """The dictionaries in memory, by file name (no extension)."""
        return [Path(self._paths[i][0]).stem for i in sorted(self._spellers)]

    def _speller(self, index: int) -> hunspell.HunSpell:
        if index not in self._spellers:  # under self._lock
            dic, aff = self._paths[index]
            self._spellers[index] = hunspell.HunSpell(dic, aff)
        return self._spellers[index]


def token_script(word: str) -> str:
    """"Cyrl" for a token with a Cyrillic letter, else "Latn" (digits and other scripts included)."""
    return "Cyrl" if has_cyrillic(word) else "Latn"


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
    scripts = spec.get("scripts", {})
    return SpellChecker(code, paths, [scripts.get(name) for name in spec["dictionaries"]])


spell_checker.cache_clear = _load_spell_checker.cache_clear  # tests swap dictionaries
