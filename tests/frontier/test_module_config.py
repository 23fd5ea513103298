"""Building frontier layer modules from a crawl's configuration, and its errors."""
import pytest

import json

from crawlweb.language.dictionaries import DATA_FILE, MissingDictionary, spell_checker
from frontier.layers.base import ConfigError, TargetInfo
from frontier.layers.language import LanguageModule
from frontier.layers.registry import MODULES, build_modules
from frontier.layers.structure import StructureModule


def test_registry_builds_the_configured_modules():
    assert MODULES == {"M01": LanguageModule, "M03": StructureModule}
    modules = build_modules({"M01": {"restore_diacritics": False}, "M03": {}})
    assert isinstance(modules["M01"], LanguageModule) and not modules["M01"].restore_diacritics
    assert isinstance(modules["M03"], StructureModule)
    assert modules["M01"].layer_ids() == {1: "M01.L01", 2: "M01.L02", 3: "M01.L03"}


@pytest.mark.parametrize("config,named", [
    ({"M02": {}}, "modules.M02"),
    ({"M01": {"pair": "sr-xx"}}, "M01.pair"),
    ({"M01": {"restore_diacritic": True}}, "'restore_diacritic'"),
    ({"M01": {"restore_diacritics": "yes"}}, "M01.restore_diacritics"),
    ({"M01": {"max_variants": -1}}, "M01.max_variants"),
    ({"M03": {"redistribute": 1}}, "M03.redistribute"),
    ({"M03": {"depth": 1}}, "'depth'"),
    ({"M03": {"max_site_targets": -1}}, "M03.max_site_targets"),
    ({"M03": {"max_site_targets": "all"}}, "M03.max_site_targets"),
    ({"M03": {"replace_growth": 0.5}}, "M03.replace_growth"),
    ({"M03": {"replace_growth": float("nan")}}, "M03.replace_growth"),
    ({"M03": {"replace_growth": True}}, "M03.replace_growth"),
])
def test_bad_module_configuration_names_the_key(config, named):
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        build_modules(config)


def test_a_language_data_file_with_a_bad_needle_is_rejected(tmp_path):
    data = tmp_path / "lang.json"
    data.write_text('{"languages": {"sr": {"needles": ["sr-latn"], "dictionary": "sr"}},'
                    ' "pairs": {"sr-en": [{"language": "sr", "layer": "primary"}]}}', encoding="utf-8")
    with pytest.raises(ConfigError, match="sr-latn"):
        LanguageModule.from_config({"data_file": str(data)})


def test_another_language_pair_is_configuration_not_code(tmp_path):
    data = tmp_path / "lang.json"
    data.write_text('{"languages": {"xx": {"needles": ["xx"]}, "en": {"needles": ["en"], "dictionary": "en"}},'
                    ' "pairs": {"en-xx": [{"language": "en", "layer": "primary", "estimate": true},'
                    ' {"language": "xx", "layer": "secondary"}]}}', encoding="utf-8")
    module = LanguageModule.from_config({"data_file": str(data), "pair": "en-xx"})
    english, other = module.distribute([TargetInfo("a", "http://s.test/house"), TargetInfo("b", "http://s.test/xx/")])
    assert (english.layer, english.rule, other.layer, other.rule) == (1, "estimate_en", 2, "needle_xx")


def test_the_hr_en_pair_needs_the_croatian_dictionary_package(tmp_path, monkeypatch):
    # A dictionary directory holding Serbian and English but not Croatian.
    installed = json.loads(DATA_FILE.read_text(encoding="utf-8"))["dictionary_dir"]
    for name in ("sr_RS", "sr_Latn_RS", "en_US"):
        for ext in (".dic", ".aff"):
            (tmp_path / (name + ext)).symlink_to(f"{installed}/{name}{ext}")
    monkeypatch.setenv("HUNSPELL_DIR", str(tmp_path))
    spell_checker.cache_clear()
    try:
        with pytest.raises(MissingDictionary, match="hunspell-hr"):
            LanguageModule.from_config({"pair": "hr-en"})
    finally:
        monkeypatch.delenv("HUNSPELL_DIR")
        spell_checker.cache_clear()


def test_missing_dictionaries_raise_missing_dictionary_naming_the_package(tmp_path, monkeypatch):
    monkeypatch.setenv("HUNSPELL_DIR", str(tmp_path))
    spell_checker.cache_clear()
    try:
        with pytest.raises(MissingDictionary, match=r"hunspell-sr"):
            LanguageModule.from_config({})
    finally:
        monkeypatch.delenv("HUNSPELL_DIR")
        spell_checker.cache_clear()
    assert LanguageModule.from_config({}).lexicons["sr"].known("kuća")


def test_every_placement_is_json_able_and_names_its_module_layer_and_rule():
    batch = [TargetInfo(1, "http://www.a.rs/sr/o-nama/", "O nama"), TargetInfo(2, "http://a.rs/en/about.html"),
             TargetInfo(3, "http://a.rs/xqzt/vbnm?p=1#k")]
    for code, module in build_modules({"M01": {}, "M03": {}}).items():
        placements = module.distribute(batch)
        assert [p.key for p in placements] == [1, 2, 3]
        for p in placements:
            assert p.module == code and p.layer_id == f"{code}.L0{p.layer}" and p.rule
            json.dumps({"evidence": p.evidence, "rank": p.rank})
    assert LanguageModule.from_config({}).distribute([]) == []


def test_m01_asks_rule_points_for_the_needles_of_its_pair(tmp_path):
    assert LanguageModule.default_rule_points({}) == {"needle_sr": 1.0, "needle_en": 1.0}
    data = tmp_path / "lang.json"
    data.write_text('{"languages": {"xx": {"needles": ["xx"]}, "en": {"needles": ["en"], "dictionary": "en"},'
                    ' "de": {"needles": ["de"]}}, "pairs": {"en-xx": [{"language": "en", "layer": "primary"},'
                    ' {"language": "xx", "layer": "secondary"}, {"language": "de", "layer": "reserve"}]}}',
                    encoding="utf-8")
    assert LanguageModule.default_rule_points({"data_file": str(data), "pair": "en-xx"}) == {
        "needle_en": 1.0, "needle_xx": 1.0}  # not the Reserve language's needle
    assert StructureModule.default_rule_points({}) == {}
