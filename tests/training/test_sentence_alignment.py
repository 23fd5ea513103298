"""Sentence alignment: an adapted translation aligns paragraph by paragraph, a page of its own does not.

The texts are written for these tests: a restaurant's page in Serbian, an English version adapted as
real sites adapt theirs (sentences reworded, split and merged, a clause dropped, a heading renamed),
the same English version with its sections in another order, and an English page of the same
restaurant that says something else (its catering offer) in the same words.
"""
import pytest

from evaluation.bodies import sentence_alignment
from evaluation.bodies.alignment import aligned_share
from evaluation.bodies.sentence_alignment import (ALIGNMENT_SCORE_FEATURE_NAMES, align, alignment_score,
                                               alignment_score_features, cognate_key, fold, shape_of, units_of)

from ..dictd import two_way_lexicon

SERBIAN = [
    "Restoran Kod Mila · od 1987.",
    "Domaća kuhinja u srcu Novog Sada, na dva koraka od Dunava.",
    "O nama",
    "Porodični restoran sa tradicijom dugom 35 godina. Kuvamo po receptima naših baka, "
    "uz sezonsko povrće i meso sa lokalne pijace.",
    "Jelovnik",
    "Roštilj, čorbe i kuvana jela svakog dana od 11 do 23 časa. Vikendom pripremamo jagnjetinu ispod sača, "
    "po narudžbini dan ranije.",
    "Vinska karta",
    "Više od 40 vina iz Fruške gore i Župe, uz preporuku našeg somelijera Marka Petrovića.",
    "Rezervacije",
    "Pozovite nas na 021/456-789 ili pišite na info@kodmila.rs. Za grupe veće od 12 gostiju pripremamo poseban meni.",
]
ADAPTED = [
    "Kod Mila Restaurant · since 1987",
    "Home cooking in the heart of Novi Sad, a short walk from the Danube.",
    "Our story",
    "A family restaurant with 35 years of tradition: our grandmothers' recipes, seasonal vegetables "
    "and meat from the local market.",
    "Menu",
    "Grilled meat, soups and slow-cooked dishes every day from 11 am to 11 pm.",
    "On weekends we roast lamb under the iron bell (order a day ahead).",
    "Wine list",
    "More than 40 wines from Fruška Gora and Župa, chosen with our sommelier Marko Petrović.",
    "Reservations",
    "Call 021/456-789 or write to info@kodmila.rs. Groups of more than 12 guests get a menu of their own.",
]
# the adapted version with its sections in another order: reservations and wine first
REORDERED = ADAPTED[:2] + ADAPTED[9:11] + ADAPTED[7:9] + ADAPTED[2:7]
# the same restaurant's catering page: its words, its names, another text
OF_ITS_OWN = [
    "Catering by Kod Mila",
    "We bring our kitchen to your wedding, birthday or company party anywhere in Novi Sad.",
    "Packages",
    "Buffet for 30 to 200 guests, with a cook at the grill and waiters who set and clear the tables.",
    "Our cooks prepare cold starters, salads and cakes in the restaurant and serve them warm on the day.",
    "Prices",
    "From 2,400 dinars per guest, drinks and transport included within 20 km.",
    "Send us the date, the place and the number of guests and we will answer within two days.",
]
# A dictionary knows most words of both languages, those of the catering page too (FreeDict's knows 60,000)
WORDS = {"kuhinja": "kitchen", "porodični": "family", "tradicija": "tradition", "recept": "recipe",
         "baka": "grandmother", "povrće": "vegetable", "meso": "meat", "pijaca": "market", "jelovnik": "menu",
         "čorba": "soup", "dan": "day", "jagnjetina": "lamb", "vino": "wine", "preporuka": "recommendation",
         "gost": "guest", "grupa": "group", "srce": "heart", "godina": "year", "kuvar": "cook", "hladan": "cold",
         "salata": "salad", "torta": "cake", "topao": "warm", "služiti": "serve", "pripremiti": "prepare",
         "svadba": "wedding", "rođendan": "birthday", "firma": "company", "zabava": "party", "cena": "price",
         "piće": "drink", "prevoz": "transport", "mesto": "place", "broj": "number", "odgovor": "answer",
         "konobar": "waiter", "sto": "table", "doneti": "bring", "kuvati": "cook", "lokalni": "local",
         "sezonski": "seasonal", "vikend": "weekend", "pozvati": "call", "pisati": "write", "više": "more",
         "poseban": "special", "peći": "roast", "narudžbina": "order", "domaći": "home"}


@pytest.fixture
def lexicon(tmp_path):
    return two_way_lexicon(tmp_path, WORDS)


def test_an_adapted_translation_aligns(lexicon):
    found = align(SERBIAN, ADAPTED, lexicon)
    assert found.score >= 0.8
    assert found.paragraphs >= 0.8
    long = [share for line, share in zip(SERBIAN, found.paragraph_shares[0]) if len(line) >= 30]
    assert all(share >= 0.5 for share in long), "every Serbian paragraph has a counterpart"


def test_a_page_of_its_own_on_the_same_site_does_not(lexicon):
    assert alignment_score(lexicon, SERBIAN, OF_ITS_OWN) <= 0.3
    assert alignment_score(lexicon, SERBIAN, ADAPTED) - alignment_score(lexicon, SERBIAN, OF_ITS_OWN) >= 0.5


def test_reordered_sections_still_align(lexicon):
    reordered = alignment_score(lexicon, SERBIAN, REORDERED)
    assert reordered >= 0.8
    assert reordered >= alignment_score(lexicon, SERBIAN, ADAPTED) - 0.1
    share, _ = aligned_share(lexicon, SERBIAN, REORDERED)  # lines aligned in order only: much of it lost
    assert share < reordered - 0.2


def test_without_a_dictionary_numbers_names_and_shapes_still_anchor():
    assert alignment_score(None, SERBIAN, ADAPTED) >= 0.6
    assert alignment_score(None, SERBIAN, OF_ITS_OWN) <= 0.3


def test_a_cyrillic_page_aligns_as_its_latin_twin(lexicon):
    from crawlweb.language.transliterate import latin_to_cyrillic

    cyrillic = [latin_to_cyrillic(line) for line in SERBIAN]
    assert alignment_score(lexicon, cyrillic, ADAPTED) == pytest.approx(alignment_score(lexicon, SERBIAN, ADAPTED),
                                                                      abs=0.05)


def test_an_anchor_on_every_item_of_a_list_links_little():
    """"by Ana Jović" and the year above every news item: every item is not every other item's translation."""
    serbian = [line for n in range(8) for line in (f"Ana Jović, {n + 3}. maj 2023.",
                                                  f"Vest broj {n}: sajam u Beogradu i izložba u galeriji {n}.")]
    english = [line for n in range(8) for line in (f"Ana Jović, {n + 10} July 2023",
                                                  f"A story about {'organic farms and cheese' if n % 2 else 'a training for bakers'}.")]
    assert alignment_score(None, serbian, english) <= 0.35


def test_units_shapes_and_anchors():
    units = units_of(["O nama", "Porodični restoran iz 1987. godine. Kuvamo u Novom Sadu.", "• Roštilj"])
    assert [u.shape for u in units] == ["heading", "text", "text", "item"]
    assert [u.paragraph for u in units] == [0, 1, 1, 2]
    assert "num:1987" in units[1].anchors and "name:novom" in units[2].anchors
    assert shape_of("Menu") == "heading" and shape_of("We cook every day.") == "text"


def test_folding_and_cognates():
    assert fold("Земун") == fold("Zemun") == "zemun"
    assert fold("Šabac") == "sabac"
    assert cognate_key("kompanija") == cognate_key("company") == "komp"
    assert cognate_key("fotografija") == cognate_key("photography")
    assert cognate_key("rezervacije") == cognate_key("Reservations")
    assert cognate_key("most") is None, "short words are not compared by their letters"


def test_bounded_and_empty(lexicon):
    assert align([], ADAPTED, lexicon).score == 0.0
    many = [f"Rečenica broj {n} o restoranu." for n in range(2 * sentence_alignment.MAX_UNITS)]
    assert len(units_of(many)) == sentence_alignment.MAX_UNITS


def test_features_read_either_order_and_say_when_nothing_was_read(lexicon):
    given = alignment_score_features(lexicon, SERBIAN, ADAPTED)
    assert tuple(given) == ALIGNMENT_SCORE_FEATURE_NAMES
    assert alignment_score_features(lexicon, ADAPTED, SERBIAN)["alignment_score"] == pytest.approx(
        given["alignment_score"])
    assert alignment_score_features(lexicon, [], ADAPTED)["alignment_missing"] == 1.0
