"""Bilingual Serbian–English sites: every pairing convention, switcher and hreflang kind,
served through the proxy, with pages of a pair carrying the same sentences."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.testweb.page_checks import catalog_hits, cyrillic_share, main_text

# How the two URLs of a pair differ, per convention real sites use.
CONVENTIONS = {
    "language directories /sr/ /en/": ("/sr/", "/en/"),
    "language directories /sr-latn/ /eng/": ("/sr-latn/", "/eng/"),
    "words /srpski/ /english/": ("/srpski/", "/english/"),
    "query parameter lang=": ("lang=sr", "lang=en"),
    "subdomain en.": ("http://www.", "http://en."),
    "file suffix .sr.html .en.html": (".sr.html", ".en.html"),
    "file suffix _en.html": (".html", "_en.html"),
}


def bilingual_sites(truth):
    return [s for s in truth["sites"] if s["kind"] == "bilingual-sr-en"]


def pair_following(truth, sr_marker, en_marker):
    """A non-home translated pair whose URLs show the convention."""
    for site in bilingual_sites(truth):
        for sr_url, en_url in site["parallel_pairs"][1:]:
            if sr_marker in sr_url and en_marker in en_url and en_marker not in sr_url:
                return site, sr_url, en_url
    raise LookupError(f"no pair with {sr_marker} / {en_marker}")


def soup(response):
    return BeautifulSoup(response.content, "lxml")


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_each_pairing_convention_serves_a_parallel_pair(truth, client, convention):
    site, sr_url, en_url = pair_following(truth, *CONVENTIONS[convention])
    sr_page, en_page = client(sr_url), client(en_url)
    assert (sr_page.status_code, en_page.status_code) == (200, 200)
    assert sr_page.headers["Content-Type"].startswith("text/html")
    sr_text, en_text = main_text(sr_page.content), main_text(en_page.content)
    script = site["scripts"][0]
    assert (cyrillic_share(sr_text) > 0.5) == (script == "cyrl")
    english = catalog_hits(en_text, "en")
    assert len(english) >= 2
    serbian = catalog_hits(sr_text, f"sr-{script}")
    # The same sentences, translated. A catalog phrase can hide inside a longer sentence in one
    # language but not in the other, so one stray match is tolerated.
    assert len(serbian & english) >= 2 and len(serbian ^ english) <= 1
    assert not catalog_hits(en_text, f"sr-{script}")
    assert len(soup(sr_page).find("main").find_all("p")) == len(soup(en_page).find("main").find_all("p"))


def test_subdomain_sites_list_both_hosts(truth):
    site, _, en_url = pair_following(truth, "http://www.", "http://en.")
    assert site["host"].startswith("www.") and f"en.{site['host'][4:]}" in site["hosts"]


@pytest.mark.parametrize("switcher, to_english, to_serbian", [
    ("text", "English", ("Srpski", "Српски")),
    ("code", "EN", ("SR",)),
])
def test_text_language_switchers_link_each_page_to_its_counterpart(truth, client, switcher,
                                                                    to_english, to_serbian):
    site = next(s for s in bilingual_sites(truth) if s["switcher"] == switcher)
    sr_url, en_url = site["parallel_pairs"][1]
    sr_links = {a.get_text(strip=True): a["href"] for a in soup(client(sr_url)).find_all("a")}
    en_links = {a.get_text(strip=True): a["href"] for a in soup(client(en_url)).find_all("a")}
    assert sr_links[to_english] == en_url
    assert any(en_links.get(label) == sr_url for label in to_serbian)


@pytest.mark.parametrize("switcher, english_src, english_alt", [
    ("flag-alt", "/img/flags/gb.png", "English"),
    ("flag-bare", "/images/usa.png", ""),
])
def test_flag_switchers_wrap_an_image_in_the_link_to_the_counterpart(truth, client, switcher,
                                                                      english_src, english_alt):
    site = next(s for s in bilingual_sites(truth) if s["switcher"] == switcher)
    sr_url, en_url = site["parallel_pairs"][1]
    flag = next(img for img in soup(client(sr_url)).find_all("img") if img["src"] == english_src)
    assert flag.parent.name == "a" and flag.parent["href"] == en_url
    assert flag["alt"] == english_alt and flag.parent.get_text(strip=True) == ""
    image = client(f"http://{site['host']}{english_src}")
    assert image.status_code == 200 and image.headers["Content-Type"] == "image/png"
    assert image.content.startswith(b"\x89PNG")


def test_hreflang_alternates_name_both_pages_of_a_pair(truth, client):
    site = next(s for s in bilingual_sites(truth) if s["hreflang"])
    sr_url, en_url = site["parallel_pairs"][2]
    for url in (sr_url, en_url):
        links = soup(client(url)).find_all("link", rel="alternate")
        assert {(link["hreflang"], link["href"]) for link in links} == {("sr", sr_url), ("en", en_url)}


def test_sites_without_hreflang_have_no_alternate_links(truth, client):
    site = next(s for s in bilingual_sites(truth) if not s["hreflang"])
    assert not soup(client(site["parallel_pairs"][0][0])).find_all("link", rel="alternate")


def test_half_translated_pages_have_an_english_menu_over_a_serbian_body(truth, client):
    site = next(s for s in bilingual_sites(truth) if s["half_translated_pairs"])
    sr_url, en_url = site["half_translated_pairs"][0]
    page = soup(client(en_url))
    menu = [a.get_text(strip=True) for a in page.find("nav").find_all("a")]
    assert "Home" in menu
    body = main_text(client(en_url).content)
    script = site["scripts"][0]
    assert catalog_hits(body, f"sr-{script}") and not catalog_hits(body, "en")
    assert site["pages"][en_url] == f"sr-{script}"


def test_orphan_pages_exist_in_one_language_only(truth, client):
    site = next(s for s in bilingual_sites(truth) if len(s["orphan_pages"]) >= 2)
    for url in site["orphan_pages"]:
        assert client(url).status_code == 200
        assert all(url not in pair for pair in site["parallel_pairs"])
    assert sum(1 for url in site["pages"] if url in site["orphan_pages"]) == len(site["orphan_pages"])


def test_a_site_may_declare_the_wrong_html_lang(truth, client):
    site = next(s for s in bilingual_sites(truth) if s["wrong_html_lang"])
    sr_url, _ = site["parallel_pairs"][0]
    page = client(sr_url)
    assert soup(page).html["lang"] == "en"
    assert catalog_hits(main_text(page.content), f"sr-{site['scripts'][0]}")


def test_root_of_a_directory_site_redirects_to_the_serbian_home(truth, client):
    site, sr_url, _ = pair_following(truth, "/sr/", "/en/")
    response = client(f"http://{site['host']}/")
    assert response.status_code == 302
    assert response.headers["Location"] == site["parallel_pairs"][0][0]
    without_slash = client(f"http://{site['host']}/sr")
    assert (without_slash.status_code, without_slash.headers["Location"]) == (301, f"http://{site['host']}/sr/")


def test_every_serbian_script_is_present_among_bilingual_sites(truth):
    scripts = {s["scripts"][0] for s in bilingual_sites(truth)}
    assert scripts == {"cyrl", "latn"}
