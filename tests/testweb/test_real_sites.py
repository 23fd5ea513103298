"""Real static sites from the shared development data, served beside the generated web."""
from __future__ import annotations

import json

import pytest
import requests

from crawlweb.devdata import shared_data_dir
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.real_sites import RealSites, RealSitesError
from crawlweb.testweb.server import TestWebServer

REAL_SITES = shared_data_dir() / "real-sites"
pytestmark = pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"{REAL_SITES} is absent on this machine")


@pytest.fixture(scope="module")
def real_server():
    with TestWebServer(generate_web(seed=4, size=18, pages_per_site=4), real_sites_dir=REAL_SITES) as server:
        yield server


def get(server, url):
    return requests.get(url, proxies={"http": server.proxy_url}, timeout=15, allow_redirects=False)


def test_every_real_pair_is_served_with_the_files_bytes(real_server):
    expected = json.loads((REAL_SITES / "truth.json").read_text())
    pairs = [pair for site in expected["sites"] for pair in site["parallel_pairs"]]
    assert len(pairs) >= 50
    for url in {url for pair in pairs for url in pair}:
        page = get(real_server, url)
        host, path = url[len("http://"):].split("/", 1)
        assert page.status_code == 200, url
        assert page.content == (REAL_SITES / "hosts" / host / path).read_bytes()


def test_a_directory_url_serves_its_index_html_and_missing_files_are_404(real_server):
    page = get(real_server, "http://www.sft21.com/")
    assert page.status_code == 200
    assert page.content == (REAL_SITES / "hosts" / "www.sft21.com" / "index.html").read_bytes()
    assert get(real_server, "http://www.sft21.com/business-rules.html").status_code == 404
    assert get(real_server, "http://www.sft21.com/../../truth.json").status_code == 404


def test_a_folder_named_without_its_slash_is_redirected_to_it_as_static_hosts_do(real_server):
    # served as the index itself, "/en" would resolve the index's relative links outside the folder
    moved = get(real_server, "http://website2.wrapdbtc.gh.test/en")
    assert moved.status_code == 301 and moved.headers["Location"] == "http://website2.wrapdbtc.gh.test/en/"
    page = get(real_server, "http://website2.wrapdbtc.gh.test/en/")
    assert page.status_code == 200
    assert page.content == (REAL_SITES / "hosts" / "website2.wrapdbtc.gh.test" / "en" / "index.html").read_bytes()


def test_real_sites_are_merged_into_the_truth_beside_generated_ones(real_server):
    truth = real_server.truth()
    real = [s for s in truth["sites"] if s["kind"] == "real"]
    assert len(real) == 8 and {s["host"] for s in real} >= {"www.sft21.com", "mipap.mipap.gh.test"}
    assert all(s["hosts"] == [s["host"]] and "parallel_pairs" in s for s in real)
    assert {f"http://{s['host']}/" for s in real} <= set(truth["seed_urls"])
    generated = next(s for s in truth["sites"] if s["kind"] == "bilingual-sr-en")
    assert get(real_server, generated["parallel_pairs"][0][0]).status_code == 200


def test_a_directory_that_is_not_a_real_sites_dump_is_refused(tmp_path):
    with pytest.raises(RealSitesError, match="no hosts/ directory"):
        RealSites(tmp_path)
