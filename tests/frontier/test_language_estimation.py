"""M01 language estimation: TLW = (1/n) * sum_i W_i * l_i over a TF-IDF model of the batch."""
import math

import pytest

from crawlweb.language.dictionaries import spell_checker
from frontier.layers.base import TargetInfo
from frontier.layers.language import LanguageModule
from frontier.layers.language_weight import TermIndex, target_language_weights
from frontier.layers.tokens import tst

BATCH = [
    TargetInfo("d0", "http://x.test/the/house"),        # the, house
    TargetInfo("d1", "http://x.test/the/xqzt"),         # the, xqzt
    TargetInfo("d2", "http://x.test/xqzt/xqzt-zebra"),  # xqzt, xqzt, zebra
]


def test_hand_computed_tlw_for_english_on_a_three_document_batch():
    en = spell_checker("en")
    # Premises: en_US knows "the", "house", "zebra" and not "xqzt".
    assert [en.known(w) for w in ("the", "house", "zebra", "xqzt")] == [True, True, True, False]
    index = TermIndex([tst(t.url) for t in BATCH])
    # N = 3; df: the 2, house 1, xqzt 2, zebra 1.
    # idf(df=2) = ln(4/3) + 1 = 1.287682...; idf(df=1) = ln(4/2) + 1 = 1.693147...
    idf2, idf1 = math.log(4 / 3) + 1, math.log(2) + 1
    # d0: (1*idf2*(+1) + 1*idf1*(+1)) / 2        = 1.490415
    # d1: (1*idf2*(+1) + 1*idf2*(-1)) / 2        = 0           -> not positive
    # d2: (2*idf2*(-1) + 1*idf1*(+1)) / 3        = -0.294072
    expected = [(idf2 + idf1) / 2, 0.0, (-2 * idf2 + idf1) / 3]
    assert expected[0] == pytest.approx(1.490415, abs=1e-6)
    assert expected[2] == pytest.approx(-0.294072, abs=1e-6)
    assert target_language_weights(index, en.known).tolist() == pytest.approx(expected, abs=1e-12)


def test_estimation_rule_places_only_positive_tlw_and_reports_it():
    module = LanguageModule.from_config({"restore_diacritics": False})
    d0, d1, d2 = module.distribute(BATCH)
    assert (d0.rule, d0.layer) == ("estimate_en", 2)
    assert d0.evidence["tlw"] == pytest.approx((math.log(4 / 3) + 1 + math.log(2) + 1) / 2, abs=1e-6)
    assert d0.evidence["n_tokens"] == 2
    assert (d1.rule, d1.layer) == ("unassigned", 3)  # TLW exactly 0 is not positive
    assert d1.evidence["tlw"]["en"] == 0.0
    assert (d2.rule, d2.layer) == ("unassigned", 3)


def test_targets_placed_by_needles_still_count_as_documents():
    module = LanguageModule.from_config({"restore_diacritics": False})
    page_house = TargetInfo("d", "http://x.test/page/house")  # both English only (sr_RS knows neither)
    [alone] = module.distribute([page_house])
    # A needle-placed Target that also contains "house" raises its df: idf(house) falls.
    with_needle, needle = module.distribute([page_house, TargetInfo("n", "http://x.test/en/house")])
    assert needle.rule == "needle_en"
    assert alone.rule == with_needle.rule == "estimate_en"
    # alone: N=1, every df=1 -> idf = ln(2/2)+1 = 1, TLW = (1+1)/2 = 1.
    assert alone.evidence["tlw"] == pytest.approx(1.0)
    # with the needle Target: N=2; page df=1 -> ln(3/2)+1; house df=2 -> ln(3/3)+1 = 1.
    assert with_needle.evidence["tlw"] == pytest.approx((math.log(1.5) + 1 + 1) / 2, abs=1e-6)


def test_serbian_estimation_places_a_plain_serbian_slug_in_primary():
    module = LanguageModule.from_config({})
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/kontakt-informacije/", "Kontakt")])
    assert (placement.rule, placement.layer) == ("estimate_sr", 1)


def test_empty_tst_is_unassigned_without_division_by_zero():
    module = LanguageModule.from_config({})
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/2024/05/")])
    assert placement.rule == "unassigned"
    assert placement.evidence == {"tlw": {"sr": 0.0, "en": 0.0}}
