"""Three bilingual Serbian–English sites of the test web whose other language a crawler reading HTML
alone does not reach (Issue 31, items 2 and 4), as real sites draw them:

- BROWSER_LANGUAGE_HOST: the home page is only a script that sends the browser to the version of
  its language; the address is assembled from an array (``[..].join("/")``), so no string literal
  of the script names a page;
- FRAGMENT_HOST: a Serbian site whose language switch is an HTML fragment a script of its own
  (``/js/ukljuci.js``) loads into an empty ``<div data-ukljuci="/delovi/jezici">`` (the
  w3-include-html pattern): no HTML or script literal of the Serbian pages names the English side;
- THIRD_LANGUAGE_HOST: the home page is German; its only link to the Serbian side says "Auf
  Serbisch lesen" under a neutral address, so the Link Predictor scores it below the BS Detector's
  0.8 and no switch word names Serbian or English. The Serbian pages link the English ones.

They are not in the seeded plan (sites.plan_sites): the generated web's sites, truth and benches
stay as they are; tests seed these hosts by name. Each site's pages are translations of each other,
built from the same catalog entries (text_source.py).
"""
from __future__ import annotations

import html
import random

from .responses import Response, error_page, html_response, text_response
from .text_source import entries_for

BROWSER_LANGUAGE_HOST = "www.jezik-pregledaca.test"
FRAGMENT_HOST = "www.ukljuceni-jezici.test"
THIRD_LANGUAGE_HOST = "www.tri-jezika.test"
OTHER_SITE_SCRIPT_HOST = "cdn.brojac-poseta.test"
SCRIPT_SITE_HOSTS = frozenset({BROWSER_LANGUAGE_HOST, FRAGMENT_HOST, THIRD_LANGUAGE_HOST, OTHER_SITE_SCRIPT_HOST})

BROWSER_LANGUAGE_HOME = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title></title></head>
<body>
<script>
  var versions = {sr: "srpski", en: "english"};
  var language = (navigator.language || navigator.userLanguage || "").slice(0, 2).toLowerCase();
  var path = ["", "verzija", versions[language] || versions.sr, "pocetna"].join("/");
  window.location.replace(path + ".html");
</script>
</body></html>
"""
INCLUDE_SCRIPT = """document.querySelectorAll("[data-ukljuci]").forEach(function (slot) {
  fetch(slot.getAttribute("data-ukljuci"))
    .then(function (answer) { return answer.text(); })
    .then(function (fragment) { slot.innerHTML = fragment; });
});
"""
LANGUAGE_FRAGMENT = '<a href="/international/welcome.html" hreflang="en">English</a>'

# Each site: {path: (language, title, entries key, {path: anchor})}; a language's pages share the keys
# of the other's, so /x and its translation hold the same sentences.
_SITES: dict[str, dict[str, tuple[str, str, str, dict[str, str]]]] = {
    BROWSER_LANGUAGE_HOST: {
        "/verzija/srpski/pocetna.html": ("sr-latn", "Početna", "home",
                                         {"/verzija/srpski/o-nama.html": "O nama",
                                          "/verzija/english/pocetna.html": "English"}),
        "/verzija/srpski/o-nama.html": ("sr-latn", "O nama", "about",
                                        {"/verzija/srpski/pocetna.html": "Početna",
                                         "/verzija/english/about.html": "English"}),
        "/verzija/english/pocetna.html": ("en", "Home", "home",
                                          {"/verzija/english/about.html": "About us",
                                           "/verzija/srpski/pocetna.html": "Srpski"}),
        "/verzija/english/about.html": ("en", "About us", "about",
                                        {"/verzija/english/pocetna.html": "Home",
                                         "/verzija/srpski/o-nama.html": "Srpski"}),
    },
    FRAGMENT_HOST: {
        "/": ("sr-latn", "Početna", "home", {"/o-nama.html": "O nama", "/kontakt.html": "Kontakt"}),
        "/o-nama.html": ("sr-latn", "O nama", "about", {"/": "Početna", "/kontakt.html": "Kontakt"}),
        "/kontakt.html": ("sr-latn", "Kontakt", "contact", {"/": "Početna", "/o-nama.html": "O nama"}),
        "/international/welcome.html": ("en", "Home", "home", {"/international/about-us.html": "About us", "/international/contact-us.html": "Contact",
                                                  "/": "Srpski"}),
        "/international/about-us.html": ("en", "About us", "about", {"/international/welcome.html": "Home", "/international/contact-us.html": "Contact",
                                                       "/o-nama.html": "Srpski"}),
        "/international/contact-us.html": ("en", "Contact", "contact", {"/international/welcome.html": "Home", "/international/about-us.html": "About us",
                                                          "/kontakt.html": "Srpski"}),
    },
    THIRD_LANGUAGE_HOST: {
        "/": ("de", "Willkommen", "home", {"/verein/geschichte.html": "Geschichte",
                                           "/lesen/b/": "Auf Serbisch lesen"}),
        "/verein/geschichte.html": ("de", "Geschichte", "about", {"/": "Startseite"}),
        "/lesen/b/": ("sr-latn", "Početna", "home", {"/lesen/b/istorija.html": "Istorija",
                                                     "/lesen/c/": "English", "/": "Deutsch"}),
        "/lesen/b/istorija.html": ("sr-latn", "Istorija", "about", {"/lesen/b/": "Početna",
                                                                    "/lesen/c/history.html": "English"}),
        "/lesen/c/": ("en", "Welcome", "home", {"/lesen/c/history.html": "History", "/lesen/b/": "Srpski",
                                                "/": "Deutsch"}),
        "/lesen/c/history.html": ("en", "History", "about", {"/lesen/c/": "Home",
                                                             "/lesen/b/istorija.html": "Srpski"}),
    },
}
_HTML_LANG = {"sr-latn": "sr-Latn", "en": "en", "de": "de"}


def page_languages(host: str) -> dict[str, str]:
    """Truth for tests: {absolute URL: language code} of the site's content pages."""
    return {f"http://{host}{path}": language.split("-")[0] for path, (language, *_rest) in _SITES[host].items()}


def _text(host: str, key: str, language: str) -> str:
    entries = entries_for(("en", "de"))
    rng = random.Random(f"script-sites-{host}-{key}")
    return " ".join(entry.text(language) for entry in rng.sample(entries, 6))


def _content_page(host: str, path: str) -> bytes:
    language, title, key, links = _SITES[host][path]
    menu = " | ".join(f'<a href="{html.escape(url)}">{html.escape(anchor)}</a>' for url, anchor in links.items())
    include = ""
    if host == FRAGMENT_HOST and language != "en":
        # and a script of another site, which a render must not request
        include = ('<div class="jezici" data-ukljuci="/delovi/jezici"></div>\n<script src="/js/ukljuci.js"></script>\n'
                   f'<script src="http://{OTHER_SITE_SCRIPT_HOST}/brojac.js"></script>')
    body = (f'<!DOCTYPE html>\n<html lang="{_HTML_LANG[language]}">\n<head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title></head>\n<body>\n<nav>{menu}</nav>\n{include}\n"
            f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(_text(host, key, language))}</p>\n</body>\n</html>\n")
    return body.encode("utf-8")


def script_site_response(host: str, path: str) -> Response:
    if path == "/robots.txt":
        return text_response(b"User-agent: *\nAllow: /\n", "text/plain")
    if host == BROWSER_LANGUAGE_HOST and path in ("/", "/index.html"):
        return html_response(BROWSER_LANGUAGE_HOME.encode("utf-8"))
    if host == OTHER_SITE_SCRIPT_HOST:
        return text_response(b"document.title = 'counted';", "application/javascript")
    if host == FRAGMENT_HOST and path == "/js/ukljuci.js":
        return text_response(INCLUDE_SCRIPT.encode("utf-8"), "application/javascript")
    if host == FRAGMENT_HOST and path == "/delovi/jezici":
        return html_response(LANGUAGE_FRAGMENT.encode("utf-8"))
    if path in _SITES.get(host, {}):
        return html_response(_content_page(host, path))
    return error_page(404, f"no page {path} on {host}")
