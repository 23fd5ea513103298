"""M01 -- the Language module of the layered frontier (seed 000).

Rules, in order (each tests the Target Semantic Terms, TST):
  1. a needle of the pair's first language (Serbian) is in TST   -> Primary    (passive)
  2. a needle of the pair's second language (English) is in TST  -> Secondary  (passive)
  3.-9. a needle of another covered language is in TST           -> Reserve    (passive)
  10. language estimation of the first language positive (TLW>0) -> Primary    (active)
  11. language estimation of the second language positive        -> Secondary  (active)
  otherwise "unassigned"                                          -> Reserve
Needles, layers and dictionary codes come from data/language_module.json.
"""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from crawlweb.language.dictionaries import spell_checker

from .base import LAYER_BY_NAME, ConfigError, FrontierLayerModule, Rule, TargetInfo, require_keys
from .diacritics import restored_variants
from .language_weight import TermIndex, target_language_weights
from .tokens import text_tokens, tst

DATA_FILE = Path(__file__).with_name("data") / "language_module.json"
DEFAULT_MAX_VARIANTS = 32


class Lexicon:
    """"Is this token a word of language X?" -- Hunspell, plus bounded diacritic restoration.

    Cached per unique token: URL tokens repeat heavily, and restoration tries up to
    ``max_variants`` dictionary look-ups for an unknown token.
    """

    def __init__(self, language: str, dictionary: str, restorations: dict | None, max_variants: int):
        self.language = language
        self._checker = spell_checker(dictionary)  # raises MissingDictionary naming the package
        self._restorations = restorations or {}
        self._max_variants = max_variants
        self._cache: dict[str, bool] = {}

    def known(self, token: str) -> bool:
        cached = self._cache.get(token)
        if cached is None:
            cached = self._checker.known(token) or any(
                self._checker.known(variant)
                for variant in restored_variants(token, self._restorations, self._max_variants)
            )
            self._cache[token] = cached
        return cached


@dataclass
class LanguageBatch:
    tokens: list[list[str]]
    needle_hits: list[dict[str, str]]  # per Target: language -> first needle found in TST order
    tlw: dict[str, np.ndarray]  # language -> TLW of every Target


class NeedleRule(Rule):
    """Passive: a needle of ``language`` is in the TST."""

    def __init__(self, language: str, layer: int):
        self.language, self.layer = language, layer
        self.name = f"needle_{language}"

    def fire(self, batch: LanguageBatch, pending: Sequence[int]) -> dict[int, dict]:
        hits = batch.needle_hits
        return {
            i: {"language": self.language, "needle": hits[i][self.language]}
            for i in pending
            if self.language in hits[i]
        }


class EstimationRule(Rule):
    """Active: the TF-IDF model over the whole batch gives TLW > 0 for ``language``."""

    active = True

    def __init__(self, language: str, layer: int):
        self.language, self.layer = language, layer
        self.name = f"estimate_{language}"

    def fire(self, batch: LanguageBatch, pending: Sequence[int]) -> dict[int, dict]:
        tlw = batch.tlw[self.language]
        return {
            i: {"language": self.language, "tlw": round(float(tlw[i]), 6), "n_tokens": len(batch.tokens[i])}
            for i in pending
            if tlw[i] > 0
        }


def load_language_data(path: Path = DATA_FILE) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


@lru_cache(maxsize=16)
def _pair_needle_rules(data_file: str, pair_name: str | None) -> tuple[str, ...]:
    """Needle rule names of the languages a pair places in Primary or Secondary (read once per file and pair)."""
    data = load_language_data(Path(data_file))
    pair = data["pairs"].get(pair_name or data.get("default_pair", "sr-en"), [])
    return tuple(f"needle_{entry['language']}" for entry in pair
                 if str(entry.get("layer", "")).lower() in ("primary", "secondary"))


class LanguageModule(FrontierLayerModule):
    code = "M01"

    def __init__(self, pair: list[dict], languages: dict, restore_diacritics: bool = True,
                 max_variants: int = DEFAULT_MAX_VARIANTS):
        self.restore_diacritics = restore_diacritics
        self.needle_language: dict[str, str] = {}
        self.rules: list[Rule] = []
        self.lexicons: dict[str, Lexicon] = {}
        estimation_rules: list[Rule] = []
        for position, entry in enumerate(pair):
            where = f"pair[{position}]"
            require_keys(entry, {"language", "layer", "estimate"}, where)
            language = entry.get("language")
            spec = languages.get(language)
            if spec is None:
                raise ConfigError(f"{where}.language: unknown language {language!r}")
            layer = LAYER_BY_NAME.get(str(entry.get("layer", "")).lower())
            if layer is None:
                raise ConfigError(f"{where}.layer: must be one of {sorted(LAYER_BY_NAME)}, got {entry.get('layer')!r}")
            for needle in spec.get("needles", []):
                normalized = text_tokens(needle)
                if normalized != [unicodedata.normalize("NFC", needle).lower()]:
                    raise ConfigError(f"languages.{language}.needles: {needle!r} is not a single letter-only token")
                # Rule order decides conflicts; the first language listed keeps a shared needle.
                self.needle_language.setdefault(normalized[0], language)
            self.rules.append(NeedleRule(language, layer))
            if entry.get("estimate"):
                if "dictionary" not in spec:
                    raise ConfigError(f"languages.{language}.dictionary: needed because {where}.estimate is true")
                restorations = spec.get("diacritic_restoration") if restore_diacritics else None
                self.lexicons[language] = Lexicon(language, spec["dictionary"], restorations, max_variants)
                estimation_rules.append(EstimationRule(language, layer))
        self.rules.extend(estimation_rules)

    @classmethod
    def from_config(cls, config: dict) -> "LanguageModule":
        """Keys: pair ("sr-en"), restore_diacritics (true), max_variants (32), data_file (path)."""
        config = config or {}
        require_keys(config, {"pair", "restore_diacritics", "max_variants", "data_file"}, "M01")
        data = load_language_data(Path(config.get("data_file", DATA_FILE)))
        pair_name = config.get("pair", data.get("default_pair", "sr-en"))
        if pair_name not in data["pairs"]:
            raise ConfigError(f"M01.pair: unknown language pair {pair_name!r} (known: {sorted(data['pairs'])})")
        restore = config.get("restore_diacritics", True)
        if not isinstance(restore, bool):
            raise ConfigError(f"M01.restore_diacritics: must be true or false, got {restore!r}")
        max_variants = config.get("max_variants", DEFAULT_MAX_VARIANTS)
        if not isinstance(max_variants, int) or isinstance(max_variants, bool) or not 0 <= max_variants <= 4096:
            raise ConfigError(f"M01.max_variants: must be an integer in 0..4096, got {max_variants!r}")
        return cls(data["pairs"][pair_name], data["languages"], restore, max_variants)

    @classmethod
    def default_rule_points(cls, config: dict) -> dict[str, float]:
        """One point for the needle rules of the pair's own languages (those not placing in Reserve):
        an explicit language marker is stronger evidence than the estimation rules (frontier.priority)."""
        config = config or {}
        return {rule: 1.0 for rule in _pair_needle_rules(str(config.get("data_file", DATA_FILE)), config.get("pair"))}

    def prepare(self, targets: list[TargetInfo]) -> LanguageBatch:
        tokens = [tst(t.url, t.anchor_text) for t in targets]
        needles = self.needle_language
        needle_hits = []
        for doc in tokens:
            hits: dict[str, str] = {}
            for token in doc:
                language = needles.get(token)
                if language is not None and language not in hits:
                    hits[language] = token
            needle_hits.append(hits)
        index = TermIndex(tokens)
        tlw = {language: target_language_weights(index, lexicon.known) for language, lexicon in self.lexicons.items()}
        return LanguageBatch(tokens, needle_hits, tlw)

    def unassigned_evidence(self, batch: LanguageBatch):
        return lambda i: {"tlw": {lang: round(float(v[i]), 6) for lang, v in batch.tlw.items()}}
