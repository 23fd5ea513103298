"""A site whose pages are named only by what its scripts build is crawled and paired through them.

Two patterns of the real development web's dev-train part, served over HTTP on 127.0.0.1:

- an art gallery whose painting pages are linked only from cards its own script builds from data:
  ``"../" + (lang == 0 ? "rs" : "en") + "/slike/" + slike[i].code + ".html"`` with the codes in an
  array of objects (bogdanmihajlovic/Web-Presentation-Art-Gallery, js/index.js);
- a menu written by an inline script as markup from a list of objects, ``'<a href="' +
  stranice[i].adresa + '">'``, the addresses folders without a file name (so no path-like literal
  names them: only the href the script writes does).

Nothing else links those pages: without reading built paths and written hrefs the crawl stores the
two home pages alone.
"""
import pytest

from crawlweb.models import Link, Page
from evaluation.models import CandidatePair
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.galerija-primer.rs"
GALLERY_JS = """let slike = [
    [{"code": "mona-liza", "naziv": "Mona Liza"}, {"code": "zvezdana-noc", "naziv": "Zvezdana noć"}],
    [{"code": "mona-liza", "naziv": "Mona Lisa"}, {"code": "zvezdana-noc", "naziv": "The Starry Night"}]];
let lang = window.location.pathname.search("/en/") != -1 ? 1 : 0;
function kartice(spisak) {
    for (let i = 0; i < spisak.length; i++) {
        let url = "../" + ((lang == 0) ? "rs" : "en") + "/slike/" + spisak[i].code + ".html";
        $("<a></a>").attr("href", url).text(spisak[i].naziv).appendTo("#kartice");
    }
}
kartice(slike[lang]);
"""
MENU = {"rs": """<script>
var stranice = [{naziv: 'O galeriji', adresa: 'o-galeriji/'}, {naziv: 'Kontakt', adresa: 'kontakt/'}];
var meni = '';
for (var i = 0; i < stranice.length; i++) { meni += '<li><a href="' + stranice[i].adresa + '">' + stranice[i].naziv + '</a></li>'; }
document.getElementById('meni').innerHTML = meni;
</script>""", "en": """<script>
var pages = [{title: 'About the gallery', address: 'o-galeriji/'}, {title: 'Contact', address: 'kontakt/'}];
var menu = '';
for (var i = 0; i < pages.length; i++) { menu += '<li><a href="' + pages[i].address + '">' + pages[i].title + '</a></li>'; }
document.getElementById('menu').innerHTML = menu;
</script>"""}
TEXT = {
    "rs/index.html": ("sr", "Galerija", "Galerija čuva slike starih majstora i savremenih umetnika. Otvorena je "
                                        "svakog dana osim ponedeljka, od deset do osamnaest časova."),
    "en/index.html": ("en", "Gallery", "The gallery keeps paintings by old masters and contemporary artists. It is "
                                       "open every day except Monday, from ten in the morning to six in the evening."),
    "rs/slike/mona-liza.html": ("sr", "Mona Liza", "Mona Liza je portret koji je Leonardo da Vinči slikao "
                                                   "uljem na dasci od topole; danas je izložena u Luvru u Parizu."),
    "en/slike/mona-liza.html": ("en", "Mona Lisa", "The Mona Lisa is a portrait Leonardo da Vinci painted in oil "
                                                   "on a poplar panel; today it hangs in the Louvre in Paris."),
    "rs/slike/zvezdana-noc.html": ("sr", "Zvezdana noć", "Zvezdanu noć je Van Gog naslikao u junu 1889. godine, "
                                                         "gledajući kroz prozor svoje sobe u Sen Remiju."),
    "en/slike/zvezdana-noc.html": ("en", "The Starry Night", "Van Gogh painted The Starry Night in June 1889, "
                                                             "looking out of the window of his room in Saint-Rémy."),
    "rs/kontakt/index.html": ("sr", "Kontakt", "Pišite nam na adresu galerije ili nas pozovite telefonom "
                                               "radnim danima od devet do petnaest časova."),
    "en/kontakt/index.html": ("en", "Contact", "Write to us at the gallery's address or call us on weekdays "
                                               "from nine in the morning to three in the afternoon."),
}


def _page(path):
    lang, title, body = TEXT[path]
    side = path.split("/", 1)[0]
    other = "en" if side == "rs" else "rs"
    home = path == f"{side}/index.html"
    switch = f'<a href="../{other}/index.html">{"English" if side == "rs" else "Srpski"}</a>' if home else ""
    scripts = (f'<ul id="{"meni" if side == "rs" else "menu"}"></ul>{MENU[side]}<div id="kartice"></div>'
               '<script src="../js/jquery.min.js"></script><script src="../js/galerija.js"></script>') if home else ""
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head><body>'
            f'{switch}<h1>{title}</h1><p>{body}</p>{scripts}</body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {path: _page(path) for path in TEXT}
    files["js/galerija.js"] = GALLERY_JS
    files["js/jquery.min.js"] = "/*! jQuery */ var $ = function () { return {}; };"
    pairs = [[f"http://{HOST}/rs/{p}", f"http://{HOST}/en/{p}"]
             for p in ("index.html", "slike/mona-liza.html", "slike/zvezdana-noc.html", "kontakt/")]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/rs/index.html", monkeypatch, settings,
                       name="script-built") as crawl:
        yield crawl


def test_pages_named_only_by_built_paths_and_written_hrefs_are_stored(crawled):
    stored = set(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", flat=True))
    for side in ("rs", "en"):
        assert {f"http://{HOST}/{side}/slike/mona-liza.html", f"http://{HOST}/{side}/slike/zvezdana-noc.html",
                f"http://{HOST}/{side}/kontakt/"} <= stored
    built = Link.objects.filter(page__crawl=crawled, page__url=f"http://{HOST}/js/galerija.js", kind="script",
                                rel="script-built")
    assert f"http://{HOST}/rs/slike/mona-liza.html" in set(built.values_list("target_url", flat=True))
    written = Link.objects.filter(page__crawl=crawled, page__url=f"http://{HOST}/rs/index.html", kind="script",
                                  rel="script-markup")
    assert set(written.values_list("target_url", flat=True)) == {f"http://{HOST}/rs/o-galeriji/",
                                                                 f"http://{HOST}/rs/kontakt/"}


def test_the_pages_reached_through_scripts_are_paired(crawled):
    kept = {(p.source_url.split(HOST)[1], p.target_url.split(HOST)[1])
            for p in CandidatePair.objects.filter(crawl=crawled, kept=True)}
    assert {("/rs/slike/mona-liza.html", "/en/slike/mona-liza.html"),
            ("/rs/slike/zvezdana-noc.html", "/en/slike/zvezdana-noc.html"),
            ("/rs/kontakt/", "/en/kontakt/")} <= kept
