"""Deep-page rounds: the guesses of the pass after a crawl's end are fetched and paired by the crawl itself.

Two hand-written sites served over HTTP on loopback beside a small generated test web:
- a bookshop, www.knjizara-breza.rs: three Serbian pages under /srp/, linked one after the other; the
  last links the museum. Their English twins under /eng/ exist, but no link leads to them;
- a museum, www.muzej-javor.rs: a home that links three Serbian pages under /srp/ and their English
  twins under /eng/, so ⟨srp, eng⟩ becomes a credible pattern of the crawl.
The crawl starts at the bookshop, so the bookshop is scored for the last time while it is crawled,
before the museum's pattern exists (its conventional guesses find nothing). Only the crawl-wide pass
after the end guesses /eng/ for it under the museum's pattern: those pages are reachable by that
guess alone. A plain start_crawl must check the guesses, fetch the pages found, pass again and pair them.
"""
from __future__ import annotations

import json
import re

import pytest

from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer
from evaluation.models import CandidatePair
from evaluation.services.pairing_state import pairing_state
from frontier.models import Target
from tests.conftest import route_through

pytestmark = pytest.mark.django_db(transaction=True)

SHOP, MUSEUM = "www.knjizara-breza.rs", "www.muzej-javor.rs"
SHOP_TEXT = {
    "index": ("Knjižara Breza prodaje knjige za decu i odrasle od 1998. godine u Kragujevcu.",
              "The Breza bookshop has sold books for children and adults since 1998 in Kragujevac."),
    "o-nama": ("Naša prodavnica ima više od 12000 naslova na srpskom i engleskom jeziku.",
               "Our shop has more than 12000 titles in the Serbian and English language."),
    "kontakt": ("Radimo svakog dana od 9 do 21 sat, a subotom od 10 do 18 sati.",
                "We are open every day from 9 am to 9 pm, and on Saturday from 10 am to 6 pm."),
}
MUSEUM_TEXT = {
    "zbirka": ("Zbirka muzeja čuva 4000 predmeta iz života sela u devetnaestom veku.",
               "The museum's collection keeps 4000 objects from village life in the nineteenth century."),
    "izlozbe": ("Ove godine muzej otvara tri nove izložbe o starim zanatima i muzici.",
                "This year the museum opens three new exhibitions about old crafts and music."),
    "radionice": ("Radionice za decu počinju svake subote u 11 sati u velikoj sali.",
                  "The workshops for children begin every Saturday at 11 am in the big hall."),
}
SHOP_CHAIN = ["index", "o-nama", "kontakt"]
# Fetches before the round: the bookshop's three Serbian pages, the museum's home (as / and as the
# /index.html its pages link), its six pages, and each site's sitemap.xml (404).
LINKED_PAGES = 3 + 2 + 6 + 2


def _page(lang: str, title: str, text: str, links: str = "") -> str:
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><nav>{links}</nav><main><h1>{title}</h1><p>{text}</p></main></body></html>")


def _files() -> dict[str, dict[str, str]]:
    shop, museum = {}, {}
    for position, slug in enumerate(SHOP_CHAIN):
        last = position + 1 == len(SHOP_CHAIN)
        following = {lang: f'<a href="http://{MUSEUM}/">{museum}</a>' if last else
                     f'<a href="{SHOP_CHAIN[position + 1]}.html">{label}</a>'
                     for lang, label, museum in (("sr", "dalje", "Muzej Javor"), ("en", "next", "Javor museum"))}
        shop[f"srp/{slug}.html"] = _page("sr", "Knjižara Breza", SHOP_TEXT[slug][0], following["sr"])
        shop[f"eng/{slug}.html"] = _page("en", "Breza bookshop", SHOP_TEXT[slug][1], following["en"])
    menu = "".join(f'<a href="{unit}/{slug}.html">{slug} ({unit})</a>' for unit in ("srp", "eng") for slug in MUSEUM_TEXT)
    museum["index.html"] = _page("sr", "Muzej Javor / Javor museum", "Muzej Javor. The Javor museum.", menu)
    for slug, (serbian, english) in MUSEUM_TEXT.items():
        museum[f"srp/{slug}.html"] = _page("sr", "Muzej Javor", serbian, '<a href="../index.html">Početna</a>')
        museum[f"eng/{slug}.html"] = _page("en", "Javor museum", english, '<a href="../index.html">Home</a>')
    return {SHOP: shop, MUSEUM: museum}


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("real-sites")
    for host, files in _files().items():
        for path, content in files.items():
            target = root / "hosts" / host / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
    truth = {"sites": [{"host": SHOP, "parallel_pairs": [[f"http://{SHOP}/srp/{s}.html", f"http://{SHOP}/eng/{s}.html"]
                                                         for s in SHOP_CHAIN]},
                       {"host": MUSEUM, "parallel_pairs": [[f"http://{MUSEUM}/srp/{s}.html",
                                                            f"http://{MUSEUM}/eng/{s}.html"] for s in MUSEUM_TEXT]}]}
    (root / "truth.json").write_text(json.dumps(truth))
    with TestWebServer(generate_web(seed=3, size=16, pages_per_site=2), host="127.0.0.1", port=0,
                       real_sites_dir=root) as server:
        yield server


@pytest.fixture
def crawl_of_shop(two_sites, settings, crawl_settings, monkeypatch):
    """Starts a crawl of the two sites from the bookshop's first page; returns it once its jobs have run."""
    from crawlweb.services.network import fetcher_for

    route_through(two_sites, monkeypatch)
    hosts = "|".join(re.escape(h) for h in (SHOP, MUSEUM))

    def crawl_of_shop(budget: int, run_jobs=None) -> Crawl:
        crawl = Crawl.objects.create(name="deep rounds", strategy="bfs", page_budget=budget,
                                     config={"url_rules": f"allow HOST:^({hosts})$", "host_interval": 0})
        start_crawl(crawl, extra_urls=[f"http://{SHOP}/srp/index.html"])
        if run_jobs is not None:
            run_jobs(300)
        crawl.refresh_from_db()
        return crawl

    yield crawl_of_shop
    fetcher_for.cache_clear()


def _shop_twins(crawl) -> dict[str, Target]:
    return {t.url.rsplit("/", 1)[1].removesuffix(".html"): t
            for t in Target.objects.filter(crawl=crawl, url__startswith=f"http://{SHOP}/eng/")}


def _kept_shop_pairs(crawl) -> set[tuple[str, str]]:
    return set(CandidatePair.objects.filter(crawl=crawl, kept=True, languages_confirmed=True,
                                            source_url__startswith=f"http://{SHOP}/")
               .values_list("source_url", "target_url"))


def test_pages_only_a_guess_of_the_last_pass_reaches_are_fetched_and_paired(crawl_of_shop, job_mode, run_jobs):
    crawl = crawl_of_shop(budget=60, run_jobs=run_jobs)
    assert crawl.state == Crawl.State.FINISHED, crawl.status_message
    assert crawl.resumed_rounds >= 1, "the crawl ran again for the pages its last pass guessed"
    twins = _shop_twins(crawl)
    assert set(twins) == set(SHOP_CHAIN)
    for slug, target in twins.items():
        assert target.origin == Target.Origin.DEEP_GUESS, f"no link leads to /eng/{slug}.html"
        assert target.state == Target.State.DONE and target.page.language == "en", (slug, target.state)
    kept = _kept_shop_pairs(crawl)
    for slug in SHOP_CHAIN:
        assert (f"http://{SHOP}/srp/{slug}.html", f"http://{SHOP}/eng/{slug}.html") in kept, (slug, kept)
    state = pairing_state(crawl)
    assert state.final, state.sentence()
    assert state.pages_seen == crawl.pages_fetched == LINKED_PAGES + len(SHOP_CHAIN)


def test_the_crawl_runs_again_only_while_its_budget_lasts(crawl_of_shop, settings):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    crawl = crawl_of_shop(budget=LINKED_PAGES + 1)
    assert crawl.state == Crawl.State.FINISHED
    assert crawl.status_message.startswith("page budget spent"), crawl.status_message
    assert crawl.resumed_rounds == 1
    states = sorted(target.state for target in _shop_twins(crawl).values())
    assert states == [Target.State.DONE, Target.State.PENDING, Target.State.PENDING], states
    assert crawl.pages_fetched == LINKED_PAGES + 1
    assert pairing_state(crawl).final, pairing_state(crawl).sentence()


def test_no_round_when_the_setting_allows_none(crawl_of_shop, settings):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    settings.PAIRS_DEEP_ROUNDS = 0
    crawl = crawl_of_shop(budget=60)
    assert crawl.state == Crawl.State.FINISHED and crawl.resumed_rounds == 0
    assert crawl.pages_fetched == LINKED_PAGES
    twins = _shop_twins(crawl)
    assert {target.state for target in twins.values()} == {Target.State.PENDING}, "found, left for a later start"
    assert not _kept_shop_pairs(crawl)
