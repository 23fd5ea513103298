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
