"""Page-language accuracy against a real web's per-page truth (truth.json `page_languages`).

Pure module, shared by bench/language_id.py and bench/realweb.py. Labels are evaluation labels:
Serbian carries its script (sr-Latn, sr-Cyrl), other languages are bare codes; a prediction of
"und" (or nothing) is right for a page the truth labels "none" (no text to speak of). Pages the
truth labels "mixed" (two languages in one body) have no single right answer and are left out;
pages the crawl never stored are left out too (coverage is the crawl's figure, not this one's).
A truth label "sr" (no script: labels implied by sr–en pairs) accepts either script.

- lid_acc: right labels / scored pages.
- lid_sr_vs_hbs: over pages whose true label is sr-Latn, sr-Cyrl, hr, bs or cnr, the share whose
  prediction is right on the Serbian / not-Serbian split (a Serbian page called "sr-Cyrl" for
  "sr-Latn" still counts as right here; a Serbian page called bs, or a Croatian one called sr,
  does not). This is the split that decides whether a site is a Serbian–English site.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

BCMS_LABELS = frozenset({"sr-Latn", "sr-Cyrl", "sr", "hr", "bs", "cnr"})
UNSCORED_TRUTH = frozenset({"mixed"})
NO_LANGUAGE = frozenset({"none", "und", ""})


def evaluation_label(language: str | None, script: str | None) -> str:
    """A stored (language, script) as an evaluation label: sr -> sr-Latn / sr-Cyrl."""
    language = (language or "").strip()
    if language == "sr" and script:
        return f"sr-{script}"
    return language or "und"


def _same(predicted: str, truth: str) -> bool:
    if truth in NO_LANGUAGE:
        return predicted in NO_LANGUAGE
    if truth == "sr":  # a truth that names no script (labels implied by sr–en pairs)
        return _is_serbian(predicted)
    return predicted == truth


def _is_serbian(label: str) -> bool:
    return label == "sr" or label.startswith("sr-")


def page_language_scores(predicted: Mapping[str, str], truth: Mapping[str, str]) -> dict:
    """lid_acc and lid_sr_vs_hbs (module docstring) of predicted {url: label} against truth
    {url: label}, with counts and the confusions (truth -> predicted) behind both figures."""
    if not isinstance(predicted, Mapping) or not isinstance(truth, Mapping):
        raise TypeError("page_language_scores needs two {url: label} mappings")
    right = scored = split_right = split_n = 0
    confusion: dict[str, Counter] = {}
    for url, true_label in truth.items():
        if true_label in UNSCORED_TRUTH or url not in predicted:
            continue
        guess = predicted[url] or "und"
        scored += 1
        right += _same(guess, true_label)
        confusion.setdefault(true_label, Counter())[guess] += 1
        if true_label in BCMS_LABELS:
            split_n += 1
            split_right += _is_serbian(guess) == _is_serbian(true_label)
    return {
        "lid_acc": round(right / scored, 4) if scored else 0.0,
        "lid_sr_vs_hbs": round(split_right / split_n, 4) if split_n else 0.0,
        "pages": scored,
        "bcms_pages": split_n,
        "confusion": {label: dict(row.most_common()) for label, row in sorted(confusion.items())},
    }
