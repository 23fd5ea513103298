"""A site's own switch settles its variety in a crawl (crawlweb.language.switch_labels).

Modelled on a real development site (metalmbl.com, dev-train): a sheet-metal works in Banja Luka whose
Serbian pages are ijekavian with western words (vanjski, plin, toplina) and a +387 number, so their text
alone reads Bosnian; no <html lang>; each English page's switch calls its Serbian side "SRB". The site is
Serbian by its own word, and its Serbian–English translations are pairs.
"""
import pytest

from crawlweb.models import Page, SiteLanguage
from evaluation.models import CandidatePair
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.metal-lim.test"
PAGES = {
    "index": (
        ["Metal Lim je preduzeće iz Banjaluke koje se od 1998. godine bavi obradom lima i izradom metalnih "
         "konstrukcija.", "Posjedujemo savremene mašine za sječenje, savijanje i probijanje lima, a vanjski "
         "dijelovi koje izrađujemo ugrađuju se u vozila i uređaje za grijanje na plin.",
         "Naši kupci dolaze iz cijele regije. Pozovite nas na +387 51 432 100."],
        ["Metal Lim is a company from Banja Luka that has worked sheet metal and built metal structures "
         "since 1998.", "We own modern machines for cutting, bending and punching sheet metal, and the outer "
         "parts we make are built into vehicles and gas heating devices.",
         "Our customers come from the whole region. Call us at +387 51 432 100."]),
    "usluge": (
        ["Sječenje lima radimo plazmom i laserom, do debljine od dvadeset milimetara.",
         "Savijanje lima radimo na apkant presama dužine do tri metra, uz mjerenje svakog komada.",
         "Plastificiranje štiti dijelove od vlage i toplina peći ne oštećuje boju."],
        ["We cut sheet metal with plasma and laser, up to a thickness of twenty millimetres.",
         "We bend sheet metal on press brakes up to three metres long, measuring every piece.",
         "Powder coating protects the parts from moisture, and the heat of the oven does not harm the colour."]),
    "onama": (
        ["Firmu je osnovao Dragan Kovačević, koji je prije toga dvadeset godina radio u fabrici u Prijedoru.",
         "Danas zapošljavamo četrnaest radnika i svake godine uložimo u jednu novu mašinu.",
         "Vrijeme isporuke je najčešće sedam dana od potvrde narudžbe."],
        ["The firm was founded by Dragan Kovačević, who had worked for twenty years in a factory in Prijedor.",
         "Today we employ fourteen workers and every year we invest in one new machine.",
         "Delivery time is usually seven days from the confirmation of the order."]),
}
MENU = {"sr": ("Početna", "Usluge", "O nama"), "en": ("Home", "Services", "About us")}


def _page(slug: str, english: bool) -> str:
    suffix = "-eng" if english else ""
    nav = "".join(f'<a href="/{s}{suffix}.html">{label}</a> '
                  for s, label in zip(PAGES, MENU["en" if english else "sr"]))
    switch = f'<a href="/{slug}.html">SRB</a>' if english else f'<a href="/{slug}-eng.html">ENG</a>'
    body = "".join(f"<p>{line}</p>" for line in PAGES[slug][1 if english else 0])
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Metal Lim</title></head>'
            f"<body><nav>{nav}{switch}</nav><main>{body}</main></body></html>")


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {f"{slug}{'-eng' if english else ''}.html": _page(slug, english) for slug in PAGES for english in (0, 1)}
    pairs = [[f"http://{HOST}/{slug}.html", f"http://{HOST}/{slug}-eng.html"] for slug in PAGES]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


def test_the_serbian_pages_a_switch_calls_srb_are_serbian_and_pair_with_their_english_sides(
        site_server, settings, crawl_settings, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/index.html", monkeypatch, settings,
                       name="switch labels") as crawl:
        serbian = Page.objects.filter(crawl=crawl).exclude(url__contains="-eng")
        assert serbian.count() == 3
        labelled = {page.url: page.language_evidence.get("labels") for page in
                    Page.objects.filter(crawl=crawl, url__contains="-eng")}
        assert all(labels == {page.replace("-eng", ""): "sr"} for page, labels in labelled.items()), labelled
        decision = SiteLanguage.objects.get(crawl=crawl)
        assert decision.variety == "sr", decision.scores
        assert decision.evidence["declared"]["switch"] == {"sr": 3}
        assert set(serbian.values_list("language", flat=True)) == {"sr"}
        kept = set(CandidatePair.objects.filter(crawl=crawl, kept=True).values_list("source_url", "target_url"))
        assert kept == {(f"http://{HOST}/{slug}.html", f"http://{HOST}/{slug}-eng.html") for slug in PAGES}
