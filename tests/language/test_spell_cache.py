"""A worker's spelling cache stays bounded over a national web's tokens, and its answers stay right."""
from crawlweb.language.dictionaries import spell_checker


def test_the_token_cache_is_emptied_at_its_bound_and_answers_do_not_change(monkeypatch):
    checker = spell_checker("en")
    monkeypatch.setattr(checker, "CACHE_MAX", 50)
    monkeypatch.setattr(checker, "_cache", {})
    before = {token: checker.known(token) for token in ("house", "river", "xqzvbnw")}
    for n in range(500):  # distinct made-up tokens, as page after page brings new ones
        checker.known(f"tok{n}zz")
        assert len(checker._cache) <= 50
    assert {token: checker.known(token) for token in before} == before == {"house": True, "river": True,
                                                                            "xqzvbnw": False}


def test_serbians_cyrillic_half_is_loaded_only_when_a_cyrillic_token_is_asked():
    from crawlweb.language.dictionaries import SpellChecker, _config
    config = _config()
    spec, directory = config["languages"]["sr"], config["dictionary_dir"]
    checker = SpellChecker("sr", [(f"{directory}/{n}.dic", f"{directory}/{n}.aff") for n in spec["dictionaries"]],
                           [spec["scripts"].get(n) for n in spec["dictionaries"]])  # a fresh one, nothing loaded
    assert checker.loaded == []
    assert checker.known("kuća") and checker.known("stranica") and not checker.known("xqzvbnw")
    assert checker.loaded == ["sr_Latn_RS"], "Latin tokens need only the Latin half"
    assert checker.known("кућа") and not checker.known("ксqзв")
    assert checker.loaded == ["sr_RS", "sr_Latn_RS"]


def test_a_dictionary_with_no_script_answers_every_token():
    checker = spell_checker("en")
    checker.load()
    assert checker.loaded == ["en_US"] and checker.known("house") and not checker.known("кућа")
