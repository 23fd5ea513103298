"""Hard negatives, hubs, directories and the backlink service of the test web."""
from __future__ import annotations

import json
from urllib.parse import quote, urlsplit

from bs4 import BeautifulSoup

from tests.testweb.page_checks import catalog_hits, cyrillic_share, main_text, site_of


def texts_of(client, site):
    return {url: main_text(client(url).content) for url in site["pages"]}


def test_a_site_in_both_serbian_scripts_is_not_sr_en_bilingual(truth, client):
    site = site_of(truth, "sr-cyrl-latn")
    assert site["bilingual_sr_en"] is False and site["languages"] == ["sr"]
    assert site["scripts"] == ["cyrl", "latn"] and not site["parallel_pairs"]
    cyrl_url, latn_url = site["other_language_pairs"][0]
    assert "/sr-cyrl/" in cyrl_url and "/sr-latn/" in latn_url
    cyrl, latn = main_text(client(cyrl_url).content), main_text(client(latn_url).content)
    assert cyrillic_share(cyrl) > 0.5 and cyrillic_share(latn) == 0
    assert catalog_hits(cyrl, "sr-cyrl") == catalog_hits(latn, "sr-latn")
    assert all(not catalog_hits(text, "en") for text in texts_of(client, site).values())


def test_monolingual_sites_write_one_language_only(truth, client):
    for kind, language, script_check in [("mono-sr-cyrl", "sr-cyrl", lambda share: share > 0.5),
                                         ("mono-sr-latn", "sr-latn", lambda share: share == 0),
                                         ("mono-en", "en", lambda share: share == 0)]:
        site = site_of(truth, kind)
        assert site["bilingual_sr_en"] is False and not site["parallel_pairs"]
        for url, text in texts_of(client, site).items():
            assert script_check(cyrillic_share(text)), url
            assert catalog_hits(text, language), url
            if language != "en":
                assert not catalog_hits(text, "en"), url


def test_croatian_sites_are_hard_negatives_written_in_croatian(truth, client):
    site = site_of(truth, "mono-hr")
    assert site["languages"] == ["hr"] and site["bilingual_sr_en"] is False
    assert site["host"].endswith(".hr")
    text = " ".join(texts_of(client, site).values())
    croatian, serbian = catalog_hits(text, "hr"), catalog_hits(text, "sr-latn")
    assert len(croatian) >= 5 and len(croatian - serbian) >= 3
    page = BeautifulSoup(client(site["home_urls"]["hr"]).content, "lxml")
    assert page.html["lang"] == "hr"


def test_english_german_sites_are_bilingual_in_another_pair(truth, client):
    site = site_of(truth, "bilingual-en-de")
    assert site["languages"] == ["de", "en"] and site["bilingual_sr_en"] is False
    de_url, en_url = site["other_language_pairs"][1]
    de_text, en_text = main_text(client(de_url).content), main_text(client(en_url).content)
    assert catalog_hits(de_text, "de") and catalog_hits(en_text, "en")
    links = {a.get_text(strip=True): a["href"]
             for a in BeautifulSoup(client(de_url).content, "lxml").find_all("a")}
    assert links["EN"] == en_url


def test_directories_and_links_pages_point_to_many_sites(truth, client):
    hosts_of = {}
    for site in truth["sites"]:
        for host in site["hosts"]:
            hosts_of[host] = site["host"]
    directory_targets = set()
    for url in truth["seed_urls"]:
        home = BeautifulSoup(client(url).content, "lxml")
        for category in [a["href"] for a in home.find_all("a") if "/kategorija/" in a["href"]]:
            page = BeautifulSoup(client(category).content, "lxml")
            directory_targets |= {hosts_of[urlsplit(a["href"]).hostname] for a in page.find_all("a")
                                  if urlsplit(a["href"]).hostname != urlsplit(url).hostname}
    content_sites = {s["host"] for s in truth["sites"] if s["kind"] not in ("directory", "special")}
    assert content_sites <= directory_targets  # the seeds reach every site
    hub = client(truth["special_urls"]["hub_links_page"])
    hub_hosts = {urlsplit(a["href"]).hostname for a in BeautifulSoup(hub.content, "lxml").find_all("a")}
    assert len(hub_hosts - {urlsplit(hub.url).hostname}) >= 8


def test_the_first_directory_leads_to_the_special_pages(truth, client):
    home = BeautifulSoup(client(truth["seed_urls"][0]).content, "lxml")
    assert truth["special_urls"]["special_home"] in [a["href"] for a in home.find_all("a")]


def backlinks(client, **params):
    query = "&".join(f"{k}={quote(v, safe='')}" for k, v in params.items())
    response = client(f"http://backlinks.test/?{query}")
    assert response.headers["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def test_backlink_service_lists_pages_that_link_to_a_url(truth, client):
    site = site_of(truth, "bilingual-sr-en")
    home = site["parallel_pairs"][0][0]
    status, answer = backlinks(client, url=home)
    assert status == 200 and answer["scope"] == "url" and answer["total"] == len(answer["backlinks"])
    assert answer["backlinks"]
    for source in answer["backlinks"][:10]:
        hrefs = [a["href"] for a in BeautifulSoup(client(source).content, "lxml").find_all("a")]
        assert home in hrefs, source


def test_backlink_service_answers_a_site_root_with_links_from_other_hosts(truth, client):
    site = site_of(truth, "bilingual-sr-en")
    status, answer = backlinks(client, url=f"http://{site['host']}/")
    assert status == 200 and answer["scope"] == "host" and answer["backlinks"]
    assert all(urlsplit(u).hostname != site["host"] for u in answer["backlinks"])
    same = backlinks(client, host=site["host"])[1]
    assert same["backlinks"] == answer["backlinks"]
    # Co-citation: some page links to this site and to at least one other site.
    assert any(len({urlsplit(a["href"]).hostname for a in
                    BeautifulSoup(client(u).content, "lxml").find_all("a")}) > 2
               for u in answer["backlinks"][:5])


def test_backlink_service_rejects_a_request_without_a_url(client):
    status, answer = backlinks(client)
    assert status == 400 and "url" in answer["error"]
