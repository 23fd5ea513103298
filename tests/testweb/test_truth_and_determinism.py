"""The web is the same for the same seed, and its ground truth agrees with what it serves."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from crawlweb.testweb.generator import generate_web
from tests.testweb.page_checks import catalog_hits, cyrillic_share, main_text

ALL_KINDS = {"bilingual-sr-en", "sr-cyrl-latn", "mono-sr-cyrl", "mono-sr-latn", "mono-en", "mono-hr",
             "bilingual-en-de", "directory", "special"}


def sample_urls(truth, per_site=3):
    urls = [url for site in truth["sites"] for url in list(site["pages"])[:per_site]]
    return urls + truth["seed_urls"] + list(truth["special_urls"].values())[:16]


def test_the_same_seed_gives_the_same_bytes():
    first, second = generate_web(seed=5, size=20, pages_per_site=6), generate_web(seed=5, size=20, pages_per_site=6)
    assert first.truth() == second.truth()
    for url in sample_urls(first.truth()):
        if "127.0.0.1" in url or "10.0.0.1" in url:
            continue
        assert first.respond("GET", url).read() == second.respond("GET", url).read(), url


def test_a_different_seed_gives_a_different_web():
    first, second = generate_web(seed=5, size=20), generate_web(seed=6, size=20)
    hosts = lambda web: {s["host"] for s in web.truth()["sites"]}  # noqa: E731
    assert hosts(first) != hosts(second)
    home = "http://www.primer.rs/sr/"   # the first bilingual site keeps its name
    assert first.respond("GET", home).read() != second.respond("GET", home).read()


@pytest.mark.parametrize("size", [16, 20, 40])
def test_every_kind_of_site_is_present_from_sixteen_sites_on(size):
    truth = generate_web(seed=1, size=size, pages_per_site=6).truth()
    assert len(truth["sites"]) == size
    assert {s["kind"] for s in truth["sites"]} == ALL_KINDS
    layouts = {s["layout"] for s in truth["sites"] if s["kind"] == "bilingual-sr-en"}
    assert layouts == {"dirs", "query", "subdomain", "suffix-dot", "suffix-underscore"}
    switchers = {s["switcher"] for s in truth["sites"] if s["kind"] == "bilingual-sr-en"}
    assert switchers == {"text", "code", "flag-alt", "flag-bare"}
    assert {s["robots"] for s in truth["sites"]} == {"none", "disallow", "crawl-delay", "error-500", "garbage"}


def test_bilingual_flags_agree_with_the_pairs(truth):
    for site in truth["sites"]:
        assert site["bilingual_sr_en"] == bool(site["parallel_pairs"]), site["host"]
        assert site["bilingual_sr_en"] == (site["languages"] == ["sr", "en"]), site["host"]
        for sr_url, en_url in site["parallel_pairs"]:
            assert site["pages"][sr_url].startswith("sr-") and site["pages"][en_url] == "en"


def test_every_page_of_the_truth_is_served_in_its_language(truth, client):
    for site in truth["sites"]:
        for url, language in site["pages"].items():
            page = client(url)
            assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html"), url
            text = main_text(page.content)
            assert catalog_hits(text, language), (url, language)
            if language == "sr-cyrl":
                assert cyrillic_share(text) > 0.5, url
            else:
                assert cyrillic_share(text) == 0, url


def test_pages_link_only_to_pages_that_exist_or_to_known_special_cases(truth, client):
    known = {url for site in truth["sites"] for url in site["pages"]}
    for site in truth["sites"][:12]:
        for url in list(site["pages"])[:4]:
            for a in BeautifulSoup(client(url).content, "lxml").find_all("a"):
                href = a["href"]
                if href not in known:
                    assert client(href).status_code in (200, 302), (url, href)


def test_pages_per_site_sets_the_number_of_pages():
    truth = generate_web(seed=1, size=20, pages_per_site=9).truth()
    mono = next(s for s in truth["sites"] if s["kind"] == "mono-en")
    assert len(mono["pages"]) == 9


def test_a_large_web_is_generated_and_served():
    """Its speed (under 2 s of CPU) is measured by bench/crawl_throughput.py (generate_s): a timed
    unit test failed under CI's load at 2.3 s against 0.8 s on a quiet machine."""
    web = generate_web(seed=1, size=200, pages_per_site=50)
    assert web.respond("GET", web.truth()["seed_urls"][0]).status == 200
    assert sum(len(s["pages"]) for s in web.truth()["sites"]) > 10_000


def test_bad_sizes_get_a_clear_error():
    with pytest.raises(ValueError, match="size must be a positive number of sites"):
        generate_web(size=0)
    with pytest.raises(ValueError, match="pages_per_site"):
        generate_web(pages_per_site=0)
