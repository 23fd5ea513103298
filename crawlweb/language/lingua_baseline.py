"""Lingua (lingua-language-detector) as an off-the-shelf baseline for the bench.

Pure module. Lingua knows Serbian, Croatian, Bosnian, Macedonian and Slovene but not Montenegrin;
its Serbian model is trained on Cyrillic text, so Latin Serbian lands on Croatian or Bosnian.
It is restricted to the languages of the development data (the full set is slower and only adds
wrong answers). Script comes from the letter counts, as for the fastText baseline.
"""
from __future__ import annotations

from functools import lru_cache

from .scripts import script_profile

LANGUAGES = ("ENGLISH", "SERBIAN", "CROATIAN", "BOSNIAN", "MACEDONIAN", "SLOVENE", "GERMAN", "SPANISH",
             "ITALIAN", "PORTUGUESE", "FRENCH", "RUSSIAN", "TURKISH", "HUNGARIAN", "LATIN")
FORCED = ("sr", "hr", "bs")


class LinguaMissing(RuntimeError):
    """lingua-language-detector is not installed (it is in the [test] extra)."""


@lru_cache(maxsize=1)
def _detector():
    try:
        from lingua import Language, LanguageDetectorBuilder
    except ImportError as error:
        raise LinguaMissing("lingua-language-detector is not installed: pip install -e '.[test]'") from error
    return LanguageDetectorBuilder.from_languages(*(getattr(Language, name) for name in LANGUAGES)).build()


def lingua_available() -> bool:
    try:
        _detector()
    except LinguaMissing:
        return False
    return True


def lingua_label(text: str) -> str:
    """Evaluation label (sr-Latn/sr-Cyrl for Serbian, a bare code otherwise, und if unsure)."""
    found = _detector().detect_language_of(text)
    if found is None:
        return "und"
    code = found.iso_code_639_1.name.lower()
    if code == "sr":
        return f"sr-{script_profile(text).script or 'Latn'}"
    return code


def predict_lingua(text: str) -> tuple[str, str]:
    """(label, forced sr/hr/bs choice), the shape evaluate.score expects."""
    label = lingua_label(text)
    values = {v.language.iso_code_639_1.name.lower(): v.value
              for v in _detector().compute_language_confidence_values(text)}
    return label, max(FORCED, key=lambda v: values.get(v, 0.0))
