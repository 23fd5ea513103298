"""Bounded diacritic restoration for Serbian URL tokens (M01 config switch)."""
from frontier.layers.base import TargetInfo
from frontier.layers.diacritics import restored_variants
from frontier.layers.language import LanguageModule, Lexicon

SERBIAN = {"c": ["č", "ć"], "s": ["š"], "z": ["ž"], "dj": ["đ"], "d": ["đ"]}


def test_dj_is_restored_as_one_letter_before_d_alone():
    variants = restored_variants("uredjaj", SERBIAN, 32)
    assert "uređaj" in variants
    assert "uređjaj" not in variants
    assert "uredjaj" not in variants


def test_fewest_substitutions_come_first():
    assert restored_variants("pec", SERBIAN, 32) == ["peč", "peć"]
    variants = restored_variants("cesce", SERBIAN, 32)
    singles = {"česce", "ćesce", "cešce", "cesče", "cesće"}
    assert set(variants[:5]) == singles
    assert "često" not in variants and "češće" in variants


def test_variant_count_is_capped():
    token = "c" * 10  # 3^10 - 1 = 59048 possible variants
    variants = restored_variants(token, SERBIAN, 32)
    assert len(variants) == 32 and len(set(variants)) == 32
    assert restored_variants(token, SERBIAN, 0) == []


def test_lexicon_accepts_undiacriticized_words_only_when_restoration_is_on():
    on = Lexicon("sr", "sr", SERBIAN, 32)
    off = Lexicon("sr", "sr", None, 32)
    assert on.known("uredjaj") and on.known("sta")
    assert not off.known("uredjaj") and not off.known("sta")


def test_switch_moves_a_diacritic_free_serbian_slug_between_layers():
    target = TargetInfo("t", "http://primer.rs/usisivac-uredjaj")
    [with_restoration] = LanguageModule.from_config({"restore_diacritics": True}).distribute([target])
    [without] = LanguageModule.from_config({"restore_diacritics": False}).distribute([target])
    assert (with_restoration.rule, with_restoration.layer) == ("estimate_sr", 1)
    assert (without.rule, without.layer) == ("unassigned", 3)
