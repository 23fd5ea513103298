"""The built real development web (REAL_WEB_DIR) served by the test web over real HTTP on loopback."""
from __future__ import annotations

import json
import re

import pytest
import requests

from crawlweb.devdata import real_web_dir
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer

REAL_WEB = real_web_dir()
pytestmark = pytest.mark.skipif(
    not (REAL_WEB / "truth.json").is_file(),
    reason=f"the real development web is not built at {REAL_WEB}: run scripts/build_realweb.py "
           "(set REAL_WEB_DIR to where it is built)")


@pytest.fixture(scope="module")
def served():
    truth = json.loads((REAL_WEB / "truth.json").read_text(encoding="utf-8"))
    with TestWebServer(generate_web(seed=2, size=16, pages_per_site=3), real_sites_dir=REAL_WEB) as server:
        yield server, truth


def get(server, url):
    return requests.get(url, proxies={"http": server.proxy_url}, timeout=15, allow_redirects=False)


def test_a_real_page_is_served_with_the_files_bytes(served):
    server, truth = served
    site = next(s for s in truth["sites"] if s["kind"] == "real" and s["parallel_pairs"])
    for url in site["parallel_pairs"][0]:
        page = get(server, url)
        host, path = url[len("http://"):].split("/", 1)
        assert page.status_code == 200
        assert page.content == (REAL_WEB / "hosts" / host / path).read_bytes()


def test_robots_and_sitemaps_the_sites_ship_are_served_and_absent_ones_are_404(served):
    server, truth = served
    shipped = sorted(REAL_WEB.glob("hosts/*/sitemap*.xml")) + sorted(REAL_WEB.glob("hosts/*/robots.txt"))
    assert shipped, "the corpus ships no robots.txt or sitemap"
    for path in shipped:
        host = path.parent.name
        page = get(server, f"http://{host}/{path.name}")
        assert page.status_code == 200 and page.content == path.read_bytes()
    bare = next(s["host"] for s in truth["sites"] if s["kind"] == "real"
                and not (REAL_WEB / "hosts" / s["host"] / "robots.txt").exists())
    assert get(server, f"http://{bare}/robots.txt").status_code == 404


def test_the_hubs_link_every_site_and_are_the_seeds(served):
    server, truth = served
    linked = set()
    for hub in truth["hubs"]:
        page = get(server, hub)
        assert page.status_code == 200
        linked |= set(re.findall(r'href="(http://[^"]+)"', page.text))
    real = {s["host"] for s in truth["sites"] if s["kind"] == "real"}
    homes = {s["home"] for s in truth["sites"] if s["kind"] == "real"}
    assert homes <= linked and {home.split("/")[2] for home in homes} == real
    assert all(get(server, home).status_code == 200 for home in homes)
    seeds = server.truth()["seed_urls"]
    assert set(truth["hubs"]) <= set(seeds) and set(truth["seed_urls"]) <= set(seeds)
    assert not {f"http://{host}/" for host in real} <= set(seeds), "sites must be found through hubs"


def test_every_page_of_the_truth_has_a_language_and_is_served(served):
    server, truth = served
    sites = [s for s in truth["sites"] if s["kind"] == "real"]
    assert sum(len(s["page_languages"]) for s in sites) == sum(s["n_pages"] for s in sites)
    some = [url for s in sites for url in list(s["page_languages"])[:2]]
    assert all(get(server, url).status_code == 200 for url in some)
