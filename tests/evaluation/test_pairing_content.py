"""Method "content": pages whose URLs say nothing are paired by the numbers, names and paragraphs they share."""
import pytest

from crawlweb.crawler.htmlparse import parse_html
from evaluation.pairing.content import THRESHOLD, anchors_of, content_pairs, content_score, names_in
from evaluation.pairing.records import PageRecord
from evaluation.bodies.lexicon import Lexicon
from evaluation.bodies.page_body import SiteLines

from ..dictd import DEBIAN_LEXICON, VILLAGE_WORDS, two_way_lexicon, write_dictd
from .realsites import REAL_SITES, load_real_sites

MENU = {"sr": "Početna\nSobe\nRestoran\nKontakt", "en": "Home\nRooms\nRestaurant\nContact"}
FOOTER = "Hotel Konstantin, Kralja Milana 12, Beograd\n+381 11 3345 678"
BODIES = {  # a small hotel's pages, as the crawl stores their text (one block per line)
    ("sr", "sobe"): "Naše sobe\nHotel ima 24 sobe i 3 apartmana sa pogledom na Kalemegdan.\n"
                    "Dvokrevetna soba košta 85 evra, apartman 140 evra, sa doručkom.",
    ("en", "rooms"): "Our rooms\nThe hotel has 24 rooms and 3 suites overlooking Kalemegdan.\n"
                     "A double room costs 85 euros, a suite 140 euros, breakfast included.",
    ("sr", "restoran"): "Restoran\nŠef kuhinje Marko Petrović spremа jela srpske i mediteranske kuhinje.\n"
                        "Restoran je otvoren od 7 do 23 časa, a terasa od maja do oktobra.",
    ("en", "restaurant"): "Restaurant\nOur chef Marko Petrović cooks Serbian and Mediterranean dishes.\n"
                          "The restaurant is open from 7 to 23, the terrace from May to October.",
    ("sr", "kontakt"): "Kontakt\nRecepcija radi 0 do 24 časa.\nPišite nam na adresu rezervacije, odgovaramo za 2 sata.",
    ("en", "contact"): "Contact\nThe reception is open 0 to 24 hours.\nWrite to our bookings address, we answer within 2 hours.",
    ("sr", "vesti-2024"): "Vesti\nU decembru 2024. otvaramo novu salu za 60 gostiju u ulici Njegoševoj.",
}


def hotel_pages(bodies=BODIES) -> list[PageRecord]:
    pages = []
    for (lang, slug), body in bodies.items():
        text = "\n".join((MENU[lang], body, FOOTER))
        pages.append(PageRecord(f"http://hotel.rs/{slug}.html", lang, text_length=len(text), text=text))
    return pages


def pages_of(host: str, menu: dict[str, str], bodies: dict[tuple[str, str], str], footer: str) -> list[PageRecord]:
    """A small site: each page its language's menu, its own body and the footer."""
    return [PageRecord(f"http://{host}/{slug}.html", lang, text=f"{menu[lang]}\n{body}\n{footer}")
            for (lang, slug), body in bodies.items()]


def pairs_of(candidates) -> set[tuple[str, str]]:
    return {(c.source_url.rsplit("/", 1)[1], c.target_url.rsplit("/", 1)[1]) for c in candidates}


def test_translated_slugs_are_paired_by_what_their_bodies_share():
    found = content_pairs(hotel_pages(), set(), languages=("sr", "en"))
    assert pairs_of(found) == {("sobe.html", "rooms.html"), ("restoran.html", "restaurant.html"),
                               ("kontakt.html", "contact.html")}
    assert {c.method for c in found} == {"content"}
    rooms = next(c for c in found if c.source_url.endswith("sobe.html"))
    assert rooms.evidence.startswith("content ") and "4 numbers" in rooms.evidence  # 24, 3, 85, 140


def test_a_page_without_a_translation_stays_unpaired():
    found = content_pairs(hotel_pages(), set(), languages=("sr", "en"))
    assert not [c for c in found if "vesti" in c.source_url]


def test_the_sites_template_does_not_pair_pages():
    # Every page carries the footer's address and phone number: they are no evidence, so two pages that
    # share nothing else are no pair.
    bodies = {("sr", "galerija"): "Galerija\nFotografije enterijera i bašte.",
              ("en", "events"): "Events\nWeddings, birthdays and business dinners on request."}
    found = pairs_of(content_pairs(hotel_pages({**BODIES, **bodies}), set(), languages=("sr", "en")))
    assert len(found) == 3 and not {"galerija.html", "events.html"} & {page for pair in found for page in pair}


def test_pages_another_method_paired_are_left_alone():
    paired = {"http://hotel.rs/sobe.html", "http://hotel.rs/rooms.html"}
    found = content_pairs(hotel_pages(), paired, languages=("sr", "en"))
    assert pairs_of(found) == {("restoran.html", "restaurant.html"), ("kontakt.html", "contact.html")}


def test_a_page_whose_best_match_is_paired_elsewhere_takes_no_leftover():
    # The English offers page repeats the room prices: the Serbian rooms page's best match is still the
    # English rooms page. When another method has paired that one (with a page of its own), the Serbian
    # rooms page must stay unpaired rather than take the offers page.
    offers = {("en", "offers"): "Special offers\nA double room costs 85 euros and a suite 140 euros in winter."}
    pages = hotel_pages({**BODIES, **offers})
    sobe, rooms, offers_page = (next(p for p in pages if p.url.endswith(name))
                                for name in ("/sobe.html", "/rooms.html", "/offers.html"))
    site = SiteLines.from_texts(p.text for p in pages)
    assert content_score(anchors_of(sobe.text, site), anchors_of(offers_page.text, site)) >= THRESHOLD
    found = pairs_of(content_pairs(pages, {rooms.url}, languages=("sr", "en")))
    assert not [pair for pair in found if pair[0] == "sobe.html"], found


def test_the_language_order_is_the_callers():
    found = content_pairs(hotel_pages(), set(), languages=("en", "sr"))
    assert ("rooms.html", "sobe.html") in pairs_of(found)


def test_cyrillic_serbian_pairs_by_its_latin_reading():
    bodies = {("sr", "sobe"): "Наше собе\nХотел има 24 собе и 3 апартмана са погледом на Калемегдан.\n"
                              "Двокреветна соба кошта 85 евра, апартман 140 евра, са доручком.",
              ("en", "rooms"): BODIES[("en", "rooms")]}
    found = content_pairs(hotel_pages(bodies), set(), languages=("sr", "en"))
    assert pairs_of(found) == {("sobe.html", "rooms.html")}


def test_a_sentences_first_word_is_no_name():
    assert names_in("Our chef Marko Petrović cooks. Serbian dishes, and More") == {"marko", "petrović", "more"}


def test_a_site_with_too_many_unpaired_pages_is_left_to_the_url_methods():
    assert content_pairs(hotel_pages(), set(), languages=("sr", "en"), max_pages=2) == []


def test_a_higher_threshold_keeps_only_the_strongest_pairs():
    strong = content_pairs(hotel_pages(), set(), languages=("sr", "en"), threshold=0.9)
    assert len(strong) < 3


@pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"real-site data not found at {REAL_SITES}")
def test_on_the_real_sites_alone_it_finds_most_pairs_and_few_wrong_ones():
    # No URL method at all: every page of the 8 real sites (languages from truth.json) to this method.
    right = wrong = 0
    truth = set()
    for site in load_real_sites():
        languages = site.truth_languages()
        truth |= set(site.truth_pairs)
        pages = [PageRecord(url, languages[url], text=parse_html(html, url).text)
                 for url, html in site.files.items() if url in languages]
        for cand in content_pairs(pages, set(), languages=("sr", "en")):
            right, wrong = (right + 1, wrong) if cand.key in truth else (right, wrong + 1)
    assert right >= 0.7 * len(truth), (right, len(truth))  # 45 of 61 when written
    # 3 wrong when written: only the pages of truth's pairs have a language here, so a page whose
    # counterpart truth does not list (empire's sydney-sr-cheap) meets its best match among the rest
    assert wrong <= 0.08 * (right + wrong), (right, wrong)


def test_pages_known_by_their_html_only_are_read_like_a_crawls_text():
    def html(page):
        body = "".join(f"<p>{line}</p>" for line in page.text.splitlines())
        return f"<html><body>{body}</body></html>"
    pages = [PageRecord(p.url, p.lang, html=html(p)) for p in hotel_pages()]
    assert pairs_of(content_pairs(pages, set(), languages=("sr", "en"))) == pairs_of(
        content_pairs(hotel_pages(), set(), languages=("sr", "en")))


# Two pages that share no number and no name: only what they say tells their counterparts apart.
WORDS_ONLY = {
    ("sr", "dorucak"): "Doručak\nSvakog jutra služimo doručak na terasi sa pogledom na reku.",
    ("en", "breakfast"): "Breakfast\nEvery morning we serve breakfast on the terrace with a view of the river.",
    ("sr", "parking"): "Parking\nGosti hotela mogu besplatno parkirati automobil u garaži.",
    ("en", "car-park"): "Parking\nHotel guests can park their car in the garage free of charge.",
}


@pytest.fixture
def hotel_lexicon(tmp_path) -> Lexicon:
    forward = write_dictd(tmp_path / "sr-en", {
        "doručak": "breakfast", "jutro": "morning", "terasa": "terrace", "pogled": "view", "rijeka": "river",
        "služiti": "serve", "gost": "guest", "automobil": "car", "garaža": "garage", "besplatno": "free",
        "hotel": "hotel", "parkirati": "park"})
    backward = write_dictd(tmp_path / "en-sr", {
        "breakfast": "doručak", "morning": "jutro", "terrace": "terasa", "view": "pogled", "river": "rijeka",
        "serve": "služiti", "guest": "gost", "car": "automobil", "garage": "garaža", "free": "besplatno",
        "hotel": "hotel", "park": "parkirati"})
    return Lexicon.from_dictd(forward, backward, ("sr", "en"))


def test_with_a_dictionary_pages_that_share_only_meaning_are_paired(hotel_lexicon):
    pages = hotel_pages(WORDS_ONLY)
    assert content_pairs(pages, set(), languages=("sr", "en")) == []
    found = content_pairs(pages, set(), languages=("sr", "en"), lexicon=hotel_lexicon)
    assert pairs_of(found) == {("dorucak.html", "breakfast.html"), ("parking.html", "car-park.html")}
    english_first = content_pairs(pages, set(), languages=("en", "sr"), lexicon=hotel_lexicon)
    assert pairs_of(english_first) == {("breakfast.html", "dorucak.html"), ("car-park.html", "parking.html")}


def test_with_a_dictionary_its_own_threshold_applies(hotel_lexicon):
    pages = hotel_pages(WORDS_ONLY)
    strict = content_pairs(pages, set(), languages=("sr", "en"), lexicon=hotel_lexicon, lexicon_threshold=0.99)
    assert strict == []
    lenient = content_pairs(pages, set(), languages=("sr", "en"), lexicon=hotel_lexicon, threshold=0.99)
    assert len(lenient) == 2, "the threshold without a dictionary does not apply"


def test_a_dictionary_of_other_languages_is_not_used(hotel_lexicon):
    pages = [PageRecord(p.url, "hr" if p.lang == "sr" else p.lang, text=p.text) for p in hotel_pages(WORDS_ONLY)]
    assert content_pairs(pages, set(), languages=("hr", "en"), lexicon=hotel_lexicon) == []


@pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"real-site data not found at {REAL_SITES}")
def test_on_the_real_sites_the_dictionary_finds_more_pairs_and_no_more_wrong_ones():
    lexicon = Lexicon.from_dictd(*DEBIAN_LEXICON)
    counts = {}
    for name, used in (("without", None), ("with", lexicon)):
        right = wrong = 0
        for site in load_real_sites():
            languages = site.truth_languages()
            pages = [PageRecord(url, languages[url], text=parse_html(html, url).text)
                     for url, html in site.files.items() if url in languages]
            for cand in content_pairs(pages, set(), languages=("sr", "en"), lexicon=used):
                right, wrong = (right + 1, wrong) if cand.key in set(site.truth_pairs) else (right, wrong + 1)
        counts[name] = right, wrong
    assert counts["with"][0] >= counts["without"][0] + 5, counts
    assert counts["with"][1] <= counts["without"][1], counts


def test_a_paired_page_keeps_to_its_counterpart_and_leaves_an_unpaired_page_of_its_topic_alone(tmp_path):
    # sobe ↔ rooms were paired by another method. The English offers page repeats the rooms page's
    # figures, so sobe matches it better than its own Serbian counterpart ponude does; sobe must still
    # be matched with rooms first, leaving offers to ponude.
    lexicon = two_way_lexicon(tmp_path, {"zima": "winter", "ponuda": "offer", "soba": "room", "apartman": "suite",
                                         "posebna": "special", "cena": "price", "noć": "night",
                                         "doručak": "breakfast", "hotel": "hotel", "pogled": "view"})
    bodies = {
        ("sr", "sobe"): "Naše sobe\nHotel ima 24 sobe i 3 apartmana sa pogledom.\n"
                        "Dvokrevetna soba košta 85 evra, apartman 140 evra, sa doručkom.",
        ("en", "rooms"): "Our rooms\nThe hotel has 24 rooms and 3 suites with a view.\n"
                         "A double room costs 85 euros, a suite 140 euros, breakfast included.",
        ("en", "offers"): "Special offers\nIn winter the hotel has 24 rooms and 3 suites with a view at a special "
                          "price.\nA double room costs 85 euros, a suite 140 euros, breakfast included.",
        ("sr", "ponude"): "Posebne ponude\nZimi je noć u sobi ili apartmanu povoljnija, sa doručkom.",
    }
    pages = pages_of("hotel.rs", {"sr": "Početna\nSobe\nKontakt", "en": "Home\nRooms\nContact"}, bodies, "Beograd")
    paired = {"http://hotel.rs/sobe.html", "http://hotel.rs/rooms.html"}
    found = content_pairs(pages, paired, languages=("sr", "en"), lexicon=lexicon)
    assert pairs_of(found) == {("ponude.html", "offers.html")}


def test_with_a_dictionary_a_translation_wins_over_a_page_of_the_same_words_on_its_topic(tmp_path):
    # The tour page uses the village page's ten words in other sentences: as bags of words both English
    # pages cover the Serbian one fully; only the translation keeps its lines, in order.
    lexicon = two_way_lexicon(tmp_path, VILLAGE_WORDS)
    bodies = {
        ("sr", "selo"): "Kuća pored jezera i planina.\nŠuma, livada i dvorac.\nCrkva, most, ulica i pijaca.",
        ("en", "village"): "A house by the lake and the mountain.\nA forest, a meadow and a castle.\n"
                           "A church, a bridge, a street and a market, all within a short walk.",
        ("en", "tour"): "A castle by the market, and a house by the lake.\nA bridge, a forest.\n"
                        "A mountain street by the meadow and a church.",
    }
    pages = pages_of("selo.rs", {"sr": "Početna\nSelo\nKontakt", "en": "Home\nVillage\nContact"}, bodies, "Zlatibor")
    anchors = {p.url.rsplit("/", 1)[1]: anchors_of(p.text, SiteLines.from_texts(q.text for q in pages), True)
               for p in pages}
    as_bags = [content_score(anchors["selo.html"], anchors[page], lexicon) for page in ("village.html", "tour.html")]
    assert as_bags[1] > as_bags[0], "by word coverage (and its line lengths) the tour page is the better match"
    found = content_pairs(pages, set(), languages=("sr", "en"), lexicon=lexicon)
    assert pairs_of(found) == {("selo.html", "village.html")}
