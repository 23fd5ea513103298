"""A site whose pages are empty frames a script fills with fragments of the chosen language is crawled
fragment by fragment and its fragments are paired.

Modelled on a study school of the real development web's dev-train (W3Schools' ``includeHTML``
pattern): each page is a frame whose ``<div w3-include-html="program.html">`` a site script fills with
``getLanguage() + "/" + file``, the language a cookie the page's buttons set
(``onclick="setCookie('language', 'en', 365)"``). No link or script literal names ``/en/program.html``:
only the attribute and the buttons' language codes do.
"""
import pytest

from crawlweb.models import Link, Page
from evaluation.models import CandidatePair
from tests.served_site import crawl_of_site, served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "www.skola-meditacije.rs"
SCRIPT = """function includeHTML() {
  var all = document.getElementsByTagName("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i], file = el.getAttribute("w3-include-html");
    if (file) {
      var request = new XMLHttpRequest();
      request.onreadystatechange = function () {
        if (this.readyState == 4) { el.innerHTML = this.responseText; el.removeAttribute("w3-include-html"); includeHTML(); }
      };
      request.open("GET", getLanguage() + "/" + file, true);
      request.send();
      return;
    }
  }
}
function setCookie(name, value, days) { document.cookie = name + "=" + value + ";max-age=" + days * 86400 + ";path=/"; }
function getLanguage() {
  var match = document.cookie.match(/language=(\\w+)/);
  return match ? match[1] : "sr";
}"""
TEXTS = {
    ("sr", "index"): "<h1>O školi</h1><p>Škola meditacije je namenjena svima koji žele da upoznaju tradiciju "
                     "i da je primene u svakodnevnom životu, uz iskusne predavače i redovne susrete.</p>",
    ("en", "index"): "<h1>About the school</h1><p>The meditation school is meant for everyone who wishes to "
                     "learn the tradition and apply it in everyday life, with experienced teachers and regular meetings.</p>",
    ("sr", "program"): "<h1>Program škole</h1><p>Program traje dve godine i obuhvata predavanja, vežbe i "
                       "seminare, a polaznici na kraju svake godine polažu ispit pred komisijom.</p>",
    ("en", "program"): "<h1>Course of studies</h1><p>The course lasts two years and includes lectures, exercises "
                       "and seminars, and at the end of each year the students take an exam before a committee.</p>",
    ("sr", "meni"): '<ul><li><a href="/">O školi</a></li><li><a href="/program.html">Program škole</a></li></ul>',
    ("en", "meni"): '<ul><li><a href="/">About the school</a></li><li><a href="/program.html">Course of studies</a></li></ul>',
}


def _frame(name: str) -> str:
    buttons = "".join(f'<li><a href="" onclick="setCookie(\'language\', \'{code}\', 365)">{code}</a></li>'
                      for code in ("sr", "en"))
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Škola meditacije</title>'
            f'<script src="/main.js"></script></head><body><ul class="jezici">{buttons}</ul>'
            f'<div w3-include-html="{name}.html"></div><div class="footer" w3-include-html="meni.html"></div>'
            f'<script>includeHTML();</script></body></html>')


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    files = {"index.html": _frame("index"), "program.html": _frame("program"), "main.js": SCRIPT}
    files.update({f"{language}/{name}.html": text for (language, name), text in TEXTS.items()})
    pairs = [[f"http://{HOST}/sr/{name}.html", f"http://{HOST}/en/{name}.html"] for name in ("index", "program")]
    with served_site(tmp_path_factory.mktemp("real-sites"), HOST, files, pairs) as server:
        yield server


@pytest.fixture
def crawled(site_server, settings, crawl_settings, empty_queues, monkeypatch):
    with crawl_of_site(site_server, HOST, f"http://{HOST}/index.html", monkeypatch, settings,
                       name="included fragments") as crawl:
        yield crawl


def test_each_frames_fragments_are_crawled_in_each_language_its_buttons_name(crawled):
    stored = dict(Page.objects.filter(crawl=crawled, status_code=200).values_list("url", "language"))
    for name in ("index", "program"):
        assert stored.get(f"http://{HOST}/sr/{name}.html", "").startswith("sr"), stored
        assert stored.get(f"http://{HOST}/en/{name}.html") == "en", stored
    included = Link.objects.get(page__crawl=crawled, page__url=f"http://{HOST}/program.html",
                                target_url=f"http://{HOST}/en/program.html")
    assert (included.kind, included.rel, included.hreflang) == ("script", "script-include", "en")


def test_the_fragments_of_the_two_languages_are_paired(crawled):
    kept = {(p.source_url, p.target_url) for p in CandidatePair.objects.filter(crawl=crawled, kept=True)}
    assert {(f"http://{HOST}/sr/index.html", f"http://{HOST}/en/index.html"),
            (f"http://{HOST}/sr/program.html", f"http://{HOST}/en/program.html")} <= kept, kept
