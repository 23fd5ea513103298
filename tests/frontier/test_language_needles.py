"""M01 needle rules: every needle of the method's Tables 2 and 3 lands in its layer, in rule order."""
import pytest

from frontier.layers.base import TargetInfo
from frontier.layers.language import LanguageModule

# The method's tables, restated here (not read from the data file) so the data file is checked.
# English ISO 3166-1 alpha-2 is "gb" (the method's "gr" is Greece).
EXPECTED = {
    "sr": (1, ["sr", "srp", "rs", "srb", "srpski", "serbian", "yu"]),
    "en": (2, ["en", "eng", "gb", "gbr", "uk", "engleski", "english"]),
    "de": (3, ["de", "ger", "nem", "deutsch", "german", "deu", "nemacki", "nemački"]),
    "ru": (3, ["ru", "rus", "russky", "ruski", "russian"]),
    "it": (3, ["it", "ita", "italian", "italiano", "italijanski"]),
    "fr": (3, ["fr", "fra", "french", "français", "francuski"]),
    "hu": (3, ["hu", "hun", "hungarian", "magyar", "mađarski", "madjarski"]),
    "es": (3, ["es", "esp", "spanish", "espanol", "španski", "spanski"]),
    "sl": (3, ["si", "sl", "slovenian", "slo", "slovenački", "slovenacki", "slovenski"]),
}
CASES = [(lang, layer, needle) for lang, (layer, needles) in EXPECTED.items() for needle in needles]


@pytest.fixture(scope="module")
def module():
    return LanguageModule.from_config({})


@pytest.mark.parametrize("language,layer,needle", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_needle_in_the_url_places_the_target_in_its_language_layer(module, language, layer, needle):
    [placement] = module.distribute([TargetInfo("t", f"http://primer.rs/{needle.upper()}/stranica-42.html")])
    assert (placement.layer, placement.rule) == (layer, f"needle_{language}")
    assert placement.layer_id == f"M01.L0{layer}"
    assert placement.evidence == {"language": language, "needle": needle}


def test_gr_is_not_an_english_needle(module):
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/gr/xqzt")])
    assert placement.rule != "needle_en"


def test_needle_in_the_anchor_text_counts(module):
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/p/17", anchor_text="Deutsch")])
    assert placement.rule == "needle_de"


def test_serbian_needle_wins_over_english_and_english_over_others(module):
    sr_en, en_de = module.distribute([
        TargetInfo("a", "http://primer.rs/en/index?lang=sr"),
        TargetInfo("b", "http://primer.rs/de/page#en"),
    ])
    assert (sr_en.layer, sr_en.rule) == (1, "needle_sr")
    assert (en_de.layer, en_de.rule) == (2, "needle_en")


def test_needles_only_match_whole_tokens(module):
    # "srbija" contains "sr" and "english-like" text must not fire on substrings.
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/srbija-enterijer")])
    assert not placement.rule.startswith("needle_")


def test_the_domain_tld_is_not_a_needle(module):
    [placement] = module.distribute([TargetInfo("t", "http://primer.rs/xqzt-vbnm")])
    assert placement.rule == "unassigned" and placement.layer == 3


def test_a_host_name_in_the_anchor_text_is_not_a_needle(module):
    # Directory and partner lists write the host: its TLD (.rs, .de, .hu) says where the site is
    # registered, not what language the linked page is in.
    german, serbian = module.distribute([
        TargetInfo("de", "http://www.werkstatt.rs/", anchor_text="Werkstatt (www.werkstatt.rs)"),
        TargetInfo("sr", "http://www.primer.de/sr/", anchor_text="primer.de"),
    ])
    assert not german.rule.startswith("needle_")
    assert (serbian.layer, serbian.rule, serbian.evidence["needle"]) == (1, "needle_sr", "sr")


def test_link_instances_of_one_target_are_placed_once_with_all_anchors(module):
    placements = module.distribute([
        TargetInfo("t", "http://primer.rs/p/1", anchor_text="xqzt"),
        TargetInfo("t", "http://primer.rs/p/1", anchor_text="Srpski"),
    ])
    assert [(p.key, p.rule) for p in placements] == [("t", "needle_sr")]
