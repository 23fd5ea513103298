"""The copies rule: copies of one page within a language are never paired with the other language's distinct pages."""
from evaluation.pairing.copies import CopyPage, copies_to_remove, copy_groups
from evaluation.pairing.records import CandidatePair

FRAME = "Početna\nO nama\nKarijera\nGalerija\nKontakt"
HOME_SR = FRAME + "\nDobrodošli u studio Lipa.\nRadimo enterijere od 2011. godine, u Novom Sadu i Beogradu."
SR = {f"http://lipa.rs/sr/{slug}": HOME_SR for slug in ("", "about", "careers", "gallery")}
EN = {"http://lipa.rs/en/": "Home\nAbout\nWelcome to Lipa studio.\nInteriors since 2011, in Novi Sad and Belgrade.",
      "http://lipa.rs/en/about": "Home\nAbout\nWe are four architects and a carpenter.",
      "http://lipa.rs/en/careers": "Home\nAbout\nWe are hiring an interior designer.",
      "http://lipa.rs/en/gallery": "Home\nAbout\nKitchens, living rooms and offices we made."}


def pages():
    return [CopyPage(url, "sr-Latn", text) for url, text in SR.items()] + [CopyPage(url, "en", text)
                                                                          for url, text in EN.items()]


def test_copies_are_pages_of_one_language_with_the_same_lines():
    groups = copy_groups(pages())
    assert set(groups) == set(SR) and len(set(groups.values())) == 1
    assert not set(groups) & set(EN), "the English pages differ"
    untranslated = CopyPage("http://lipa.rs/en/old", "en", HOME_SR)  # the same text in another language
    assert untranslated.url not in copy_groups(pages() + [untranslated])
    a_date_more = CopyPage("http://lipa.rs/sr/news", "sr", HOME_SR + "\n12. maj 2024.")
    assert a_date_more.url not in copy_groups(pages() + [a_date_more]), "a line of its own: no copy"
    assert copy_groups([CopyPage("http://lipa.rs/sr/a", "sr", ""), CopyPage("http://lipa.rs/sr/b", "sr", "")]) == {}


def _pairs():
    return [CandidatePair(sr, sr.replace("/sr/", "/en/"), "local", ("sr", "en"), 0.5) for sr in SR]


def test_copies_paired_with_distinct_pages_keep_only_their_best_pair():
    home = ("http://lipa.rs/sr/", "http://lipa.rs/en/")
    rank = {home: 0.9}
    removed = copies_to_remove(_pairs(), lambda c: True, copy_groups(pages()), lambda c: rank.get(c.key, 0.1))
    assert set(removed) == {c.key for c in _pairs()} - {home}
    reason = removed[("http://lipa.rs/sr/about", "http://lipa.rs/en/about")]
    assert reason.startswith("copies: http://lipa.rs/sr/about is a copy of http://lipa.rs/sr/")
    assert "(4 copies in its language), paired with 4 distinct pages; kept: http://lipa.rs/sr/ – http://lipa.rs/en/" in reason


def test_a_tie_goes_to_the_one_to_one_order_and_removed_pairs_do_not_count():
    groups = copy_groups(pages())
    removed = copies_to_remove(_pairs(), lambda c: True, groups, lambda c: 0.5)
    assert ("http://lipa.rs/sr/", "http://lipa.rs/en/") not in removed, "the first in order stays"
    only_two = copies_to_remove(_pairs(), lambda c: c.source_url.endswith(("/sr/", "/about")), groups, lambda c: 0.5)
    assert set(only_two) == {("http://lipa.rs/sr/about", "http://lipa.rs/en/about")}
    alone = copies_to_remove(_pairs()[:1], lambda c: True, groups, lambda c: 0.5)
    assert alone == {}, "one pair: nothing to choose"


def test_copies_paired_with_copies_are_left_alone():
    english_copies = [CopyPage(url, "en", EN["http://lipa.rs/en/"]) for url in EN]
    groups = copy_groups([CopyPage(url, "sr", text) for url, text in SR.items()] + english_copies)
    assert copies_to_remove(_pairs(), lambda c: True, groups, lambda c: 0.5) == {}
