"""A candidate pair's stored fields → a fixed, named feature vector for the pair classifier.

Input is a plain mapping (or any object with the same attributes) holding what
evaluation.models.CandidatePair stores: Def. 9 similarity and its two parts, the filter's
``scores`` JSON (length ratio, STRAND dp when structure was checked, transliteration similarity),
the proposing pattern's credibility (``score``), the method(s), whether a pattern proposed it,
whether both languages were confirmed, the two pages' language tags; and the site credibility
(Def. 5 C(w)) when known. A missing value becomes 0 with a "missing" flag beside it, so the
classifier can tell "no evidence" from "evidence of zero".

From the two pages' stored texts (``source_page.text`` / ``target_page.text``, or ``source_text`` /
``target_text`` in a mapping), what the filter does not look at: the share of words the two texts
have in common (a translation shares only names and loanwords with its original; a page whose
"translation" kept the body in one language shares most of it: Pupsniffer's "partial" and
boilerplate-only pairs), how many words that is, the share of numbers in common (a translation
keeps its numbers), and the shorter text's length (menus-only pages are short); and what the two
pages say beyond their site's template (evaluation.bodies.page_body, with the site's line counts when
the caller has them).

A flag from scoring: whether the one-to-one choice dropped the pair for a better-scored rival
(``scores["one_to_one_dropped"]``; such a pair stays removed, training.services.promoted.PairDecider).
What a bilingual dictionary says of the two bodies (evaluation.bodies.lexicon, when the caller has
one): the share of each body's dictionary words translated in the other, which tells a translated
body from a body of its own under a translated frame; and how much of the two bodies aligns line by
line in order (evaluation.bodies.alignment), which tells a translation from a text of its own on the
same topic. What the evaluators' thin-page rule reads (training.learn.translated_content): whether
the two bodies have a translated sentence, and how many translated words. How much of the two bodies
aligns sentence by sentence, sections allowed to move (evaluation.bodies.sentence_alignment: its score,
the share of body lines at least half aligned), which tells an adapted translation from a page of its
own.

The filter's own verdict is not a feature: it is the baseline a classifier is compared with.
The pair classifier reads a named part of these (training.learn.pair_classifier.CLASSIFIER_FEATURES);
the rest stay for analysis and for a classifier that has more judged pairs to learn them from.
"""
from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping

from evaluation.bodies.alignment import ALIGNMENT_FEATURE_NAMES, alignment_features
from evaluation.bodies.lexicon import LEXICON_FEATURE_NAMES, Lexicon, lexicon_features
from evaluation.bodies.page_body import BODY_FEATURE_NAMES, SiteLines, bodies, body_features
from evaluation.bodies.sentence_alignment import ALIGNMENT_SCORE_FEATURE_NAMES, alignment_score_features
from training.learn.translated_content import TRANSLATED_CONTENT_FEATURE_NAMES, translated_content_features

METHODS = ("hreflang", "switch", "local", "rescue_global", "rescue_domain", "deep", "content")

TEXT_FEATURE_NAMES = ("shared_word_share", "shared_words_log", "shared_number_share", "shorter_text_log", "texts_missing")
FEATURE_NAMES: tuple[str, ...] = (
    "similarity", "similarity_missing", "sim_same", "sim_pattern", "sim_undefined",
    "length_log_ratio", "length_ratio_missing",
    "strand_dp", "strand_missing",
    "transliteration_similarity",
    "pattern_credibility", "has_pattern", "methods_count",
    *(f"method_{m}" for m in METHODS),
    "languages_confirmed", "same_base_language", "source_cyrillic", "target_cyrillic",
    "site_credibility", "site_credibility_missing",
    *TEXT_FEATURE_NAMES, *BODY_FEATURE_NAMES, "one_to_one_dropped", *LEXICON_FEATURE_NAMES, *ALIGNMENT_FEATURE_NAMES,
    *TRANSLATED_CONTENT_FEATURE_NAMES, *ALIGNMENT_SCORE_FEATURE_NAMES,
)
TEXT_CHARS = 20_000  # a page's first characters compared: enough for its words, bounded cost
WORD = re.compile(r"[^\W\d_]{3,}")
NUMBER = re.compile(r"\d+")


def _get(pair, name: str, default=None):
    if isinstance(pair, Mapping):
        return pair.get(name, default)
    return getattr(pair, name, default)


def _number(value) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def _base(tag: str) -> str:
    return (tag or "").replace("_", "-").split("-")[0].casefold()


def _cyrillic(tag: str) -> float:
    return 1.0 if "cyrl" in (tag or "").casefold() else 0.0


def _text(pair, side: str) -> str:
    if isinstance(pair, Mapping):
        text = pair.get(f"{side}_text")
    else:
        text = getattr(getattr(pair, f"{side}_page", None), "text", None)
    return text[:TEXT_CHARS] if isinstance(text, str) else ""


def _share(a: set, b: set) -> float:
    """Jaccard: |a ∩ b| / |a ∪ b| (0 when both are empty)."""
    return len(a & b) / len(a | b) if a or b else 0.0


def text_features(source_text: str, target_text: str) -> dict[str, float]:
    if not source_text or not target_text:
        return {"shared_word_share": 0.0, "shared_words_log": 0.0, "shared_number_share": 0.0,
                "shorter_text_log": 0.0, "texts_missing": 1.0}
    words = [{w.casefold() for w in WORD.findall(t)} for t in (source_text, target_text)]
    numbers = [set(NUMBER.findall(t)) for t in (source_text, target_text)]
    return {"shared_word_share": _share(*words), "shared_words_log": math.log1p(len(words[0] & words[1])),
            "shared_number_share": _share(*numbers),
            "shorter_text_log": math.log1p(min(len(source_text), len(target_text))), "texts_missing": 0.0}


def filter_said_keep(pair) -> bool:
    """What the method's filter said, also when a promoted classifier has decided ``kept`` since."""
    said = (_get(pair, "scores") or {}).get("filter_kept")
    return bool(said) if isinstance(said, bool) else bool(_get(pair, "kept"))


def filter_kept_after_one_to_one(pair) -> bool:
    """The filter kept the pair and scoring's one-to-one choice did not drop it for a better-scored rival:
    the pairs a promoted classifier gives its second opinion on."""
    return filter_said_keep(pair) and not (_get(pair, "scores") or {}).get("one_to_one_dropped")


def pair_features(pair, site_credibility: float | None = None, site_lines: SiteLines | None = None,
                  lexicon: Lexicon | None = None, needed: Collection[str] | None = None) -> list[float]:
    """The feature vector of one pair, in FEATURE_NAMES order (``site_lines``: its site's line counts;
    without ``lexicon`` the lexicon features are 0 with their "missing" flag). With ``needed`` (a
    classifier's names), a group of text features none of which it names is not computed and reads 0:
    the line alignment costs as much as the rest together, and scoring asks after every crawl step."""
    scores = _get(pair, "scores") or {}
    if not isinstance(scores, Mapping):
        raise ValueError(f"a pair's scores must be a mapping, got {type(scores).__name__}")
    similarity = _number(_get(pair, "similarity"))
    ratio = _number(scores.get("length_ratio"))
    dp = _number(scores.get("dp")) if scores.get("structure_checked", "dp" in scores) else None
    methods = set(_get(pair, "methods") or ()) | {_get(pair, "method") or ""}
    source, target = _get(pair, "source_language") or "", _get(pair, "target_language") or ""
    credibility = _number(site_credibility)
    source_text, target_text = _text(pair, "source"), _text(pair, "target")
    body_lines = bodies(source_text, target_text, site_lines)  # read by the body and the lexicon features
    values = {
        "similarity": similarity or 0.0,
        "similarity_missing": 1.0 if similarity is None else 0.0,
        "sim_same": _number(_get(pair, "sim_same")) or 0.0,
        "sim_pattern": _number(_get(pair, "sim_pattern")) or 0.0,
        "sim_undefined": 1.0 if scores.get("sim_undefined") else 0.0,
        # |log ratio|: a translation is about as long as its original either way round
        "length_log_ratio": abs(math.log(ratio)) if ratio and ratio > 0 else 0.0,
        "length_ratio_missing": 0.0 if ratio and ratio > 0 else 1.0,
        "strand_dp": dp if dp is not None else 0.0,
        "strand_missing": 1.0 if dp is None else 0.0,
        "transliteration_similarity": _number(scores.get("transliteration_similarity")) or 0.0,
        "pattern_credibility": _number(_get(pair, "score")) or 0.0,
        "has_pattern": 1.0 if _get(pair, "has_pattern") else 0.0,
        "methods_count": float(len(methods - {""})),
        **{f"method_{m}": 1.0 if m in methods else 0.0 for m in METHODS},
        "languages_confirmed": 1.0 if _get(pair, "languages_confirmed") else 0.0,
        "same_base_language": 1.0 if _base(source) and _base(source) == _base(target) else 0.0,
        "source_cyrillic": _cyrillic(source),
        "target_cyrillic": _cyrillic(target),
        "site_credibility": credibility or 0.0,
        "site_credibility_missing": 1.0 if credibility is None else 0.0,
        "one_to_one_dropped": 1.0 if scores.get("one_to_one_dropped") else 0.0,
    }
    groups = ((TEXT_FEATURE_NAMES, lambda: text_features(source_text, target_text)),
              (BODY_FEATURE_NAMES, lambda: body_features(source_text, target_text, body_lines=body_lines)),
              (LEXICON_FEATURE_NAMES, lambda: lexicon_features(lexicon, *body_lines)),
              (ALIGNMENT_FEATURE_NAMES, lambda: alignment_features(lexicon, *body_lines)),
              (TRANSLATED_CONTENT_FEATURE_NAMES, lambda: translated_content_features(*body_lines)),
              (ALIGNMENT_SCORE_FEATURE_NAMES, lambda: alignment_score_features(lexicon, *body_lines)))
    wanted = None if needed is None else set(needed)
    for names, compute in groups:
        values.update(compute() if wanted is None or not wanted.isdisjoint(names) else dict.fromkeys(names, 0.0))
    return [values[name] for name in FEATURE_NAMES]
