"""The heavy-tailed test web: most sites tiny, a few huge, about one in eight bilingual, truth exact,
cheap to plan, and the default web left exactly as it was."""
from __future__ import annotations

import hashlib
import json
import statistics

import pytest
import requests

from crawlweb.testweb import TestWebServer, generate_web

HEAVY = "heavy-tailed"
CONTENT_KINDS = {"bilingual-sr-en", "sr-cyrl-latn", "mono-sr-cyrl", "mono-sr-latn", "mono-en", "mono-hr",
                 "bilingual-en-de"}


@pytest.fixture(scope="module")
def big_web():
    return generate_web(seed=11, size=3000, pages_per_site=2000, size_distribution=HEAVY)


def content_slug_counts(web) -> list[int]:
    return [len(site.slugs) for site in web.sites if site.kind in CONTENT_KINDS]


def test_most_sites_are_tiny_and_a_few_are_huge(big_web):
    sizes = content_slug_counts(big_web)
    assert statistics.median(sizes) <= 3
    assert sum(1 for n in sizes if n <= 10) / len(sizes) >= 0.85
    assert max(sizes) >= 500                      # a few sites with thousands of pages
    # the Pareto tail: about 1 site in 100 has 100 slugs or more (P(X >= k) = 1/k)
    assert 0.004 <= sum(1 for n in sizes if n >= 100) / len(sizes) <= 0.025
    assert max(sizes) <= 2000                     # pages_per_site caps the largest site


def test_about_one_site_in_eight_is_bilingual(big_web):
    truth_sites = big_web.sites
    share = sum(1 for s in truth_sites if s.kind == "bilingual-sr-en") / len(truth_sites)
    assert 0.10 <= share <= 0.15


def test_a_hundred_thousand_page_web_is_planned_whole():
    """Its planning time is a bench figure (bench/scale.py prints it), not a unit test's bound."""
    web = generate_web(seed=7, size=10_000, pages_per_site=5000, size_distribution=HEAVY)
    slugs = sum(len(site.slugs) * len(site.languages) for site in web.sites)
    assert slugs >= 100_000


def test_the_same_seed_gives_the_same_heavy_web_and_another_seed_another():
    first = generate_web(seed=5, size=400, pages_per_site=300, size_distribution=HEAVY)
    again = generate_web(seed=5, size=400, pages_per_site=300, size_distribution=HEAVY)
    other = generate_web(seed=6, size=400, pages_per_site=300, size_distribution=HEAVY)
    assert first.truth() == again.truth()
    assert first.truth()["size_distribution"] == HEAVY
    for site in first.truth()["sites"][:60]:
        for url in list(site["pages"])[:2]:
            assert first.respond("GET", url).read() == again.respond("GET", url).read(), url
    assert content_slug_counts(first) != content_slug_counts(other)


def test_the_truth_matches_what_is_served_over_the_proxy():
    web = generate_web(seed=3, size=300, pages_per_site=200, size_distribution=HEAVY)
    truth = web.truth()
    bilingual = [s for s in truth["sites"] if s["bilingual_sr_en"]]
    assert bilingual and all(s["parallel_pairs"] for s in bilingual)
    session = requests.Session()
    with TestWebServer(web) as server:
        proxies = {"http": server.proxy_url}
        for site in bilingual[:15]:
            for source, target in site["parallel_pairs"][:3]:
                for url in (source, target):
                    answer = session.get(url, proxies=proxies, timeout=10, allow_redirects=False)
                    assert answer.status_code == 200, url
        assert session.get(truth["seed_urls"][0], proxies=proxies, timeout=10).status_code == 200
    # every site is listed by some directory, so a crawl from the seeds can reach all of them
    listed = {i for s in web.sites if s.kind == "directory" for i in s.hub_targets}
    assert {s.index for s in web.sites if s.kind in CONTENT_KINDS} <= listed


def test_evicted_sites_are_rebuilt_with_the_same_pages():
    web = generate_web(seed=3, size=300, pages_per_site=200, size_distribution=HEAVY)
    web._models.limit = 50  # far fewer than the web's pages: sites are dropped and rebuilt
    urls = [url for site in web.sites if site.kind in CONTENT_KINDS for url in web.page_urls(site)[:2]]
    first = [web.respond("GET", url).read() for url in urls]
    largest = max(len(web.site_pages(s)) for s in web.sites)
    assert web._models.pages <= 50 + largest
    assert [web.respond("GET", url).read() for url in urls] == first
    assert web.truth() == generate_web(seed=3, size=300, pages_per_site=200, size_distribution=HEAVY).truth()


def test_an_unknown_size_distribution_is_refused_by_name():
    with pytest.raises(ValueError, match="size_distribution.*'zipf'"):
        generate_web(seed=1, size=20, size_distribution="zipf")


def test_the_default_web_is_byte_for_byte_what_it_was():
    # Digest of the default web (truth and served pages) as generated before the heavy-tailed option.
    web = generate_web(seed=3, size=60, pages_per_site=10)
    truth = web.truth()
    digest = hashlib.sha256(json.dumps(truth, sort_keys=True).encode())
    for site in truth["sites"]:
        for url in sorted(site["pages"])[:5]:
            digest.update(web.respond("GET", url).body)
    assert "size_distribution" not in truth
    assert digest.hexdigest() == "8965eb1a475ea090906212aebc6aac9078a9512aaa1d17ae5445e748d15f96ab"


def test_the_testweb_command_prints_a_heavy_tailed_truth():
    from io import StringIO

    from django.core.management import CommandError, call_command

    out = StringIO()
    call_command("testweb", "truth", "--size", "200", "--pages-per-site", "100",
                 "--size-distribution", "heavy-tailed", stdout=out)
    truth = json.loads(out.getvalue())
    assert truth["size_distribution"] == HEAVY and len(truth["sites"]) == 200
    with pytest.raises(CommandError, match="zipf"):
        call_command("testweb", "truth", "--size-distribution", "zipf", stdout=StringIO())
