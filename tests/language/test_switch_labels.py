"""The variety a site's own switch gives the page it links to (crawlweb.language.switch_labels), and the
site decision that counts it (source "switch")."""
import pytest

from crawlweb.language.site_variety import site_variety
from crawlweb.language.switch_labels import MAX_LABELS, declare_switch_labels, labelled_variety, switch_labels
from tests.language.snippets import ENGLISH, IJEKAVIAN_SERBIAN, prepared


@pytest.mark.parametrize("anchor, alt, hreflang, variety", [
    ("SRB", "", "", "sr"), ("Srpski", "", "", "sr"), ("Српски", "", "", "sr"), ("ćir", "", "", "sr"),
    ("", "Hrvatski", "", "hr"), ("Bosanski", "", "", "bs"), ("CG", "", "", "cnr"), ("MK", "", "", "mk"),
    ("", "", "bs-BA", "bs"), ("English", "", "sr-Latn", "sr"),
    ("HR", "", "", None),  # a menu's human resources page as often as Croatian
    ("ENG", "", "", None), ("O nama", "", "", None),
    ("Pročitajte ovaj tekst na srpskom jeziku", "", "", None),  # a sentence, not a switch's label
    ("SRB", "Hrvatski", "", None),  # two varieties named: neither
])
def test_a_links_label_or_hreflang_names_one_variety(anchor, alt, hreflang, variety):
    assert labelled_variety(anchor, alt, hreflang) == variety


def test_a_pages_links_give_each_url_its_one_label():
    links = [("http://primer.ba/", "SRB", "", ""), ("http://primer.ba/en/", "ENG", "", ""),
             ("http://primer.ba/o-nama", "Bosanski", "", ""), ("http://primer.ba/o-nama", "SRB", "", ""),
             ("http://primer.ba/kontakt", "Kontakt", "", "")]
    assert switch_labels(links) == {"http://primer.ba/": "sr"}  # o-nama: two labels, no word
    many = [(f"http://primer.ba/{i}", "SRB", "", "") for i in range(MAX_LABELS + 5)]
    assert len(switch_labels(many)) == MAX_LABELS


def test_labels_become_the_labelled_pages_declarations():
    observations = {"1": {"lang": "bs", "declared": {"html_lang": "bs"}}, "2": {"lang": "en"}, "3": {"lang": "bs"}}
    first = observations["1"]
    declare_switch_labels(observations, {"http://x/": "1", "http://x/en": "2", "http://x/a": "3"},
                          [{"http://x/": "sr", "http://x/nowhere": "sr"}, {"http://x/a": "sr"}, {"http://x/a": "hr"}])
    assert observations["1"]["declared"] == {"html_lang": "bs", "switch": "sr"}
    assert first == {"lang": "bs", "declared": {"html_lang": "bs"}}, "the stored observation is not changed"
    assert "declared" not in observations["3"], "labelled Serbian and Croatian: no declaration"


def test_ijekavian_pages_a_site_reads_as_bosnian_are_serbian_when_its_switch_says_srb():
    # A firm in Banja Luka (metalmbl.com, real development web): ijekavian text with western words, no
    # <html lang>, a +387 number; its English pages' switch calls the other side "SRB".
    host = "metal.example.ba"
    text = IJEKAVIAN_SERBIAN + " Vanjski dijelovi, plin i toplina. Kontakt: +387 51 123 456."
    observations = {}
    for name in ("index", "onama", "usluge"):
        observations[f"{name}.html"] = prepared(f"http://{host}/{name}.html", text)[2]
        observations[f"{name}-eng.html"] = prepared(f"http://{host}/{name}-eng.html", ENGLISH)[2]
    unlabelled = site_variety(host, observations)
    assert unlabelled.variety == "bs", unlabelled.scores  # the text alone: Bosnian
    keys = {f"http://{host}/{key}": key for key in observations}
    declare_switch_labels(observations, keys,
                          [{f"http://{host}/{name}.html": "sr"} for name in ("index", "onama", "usluge")])
    decision = site_variety(host, observations)
    assert decision.variety == "sr", decision.scores
    assert {key: label[0] for key, label in decision.page_languages.items() if not key.endswith("-eng.html")} == {
        "index.html": "sr", "onama.html": "sr", "usluge.html": "sr"}
