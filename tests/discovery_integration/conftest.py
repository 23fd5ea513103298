import pytest

from crawlweb.models import Crawl, SeedList

TESTWEB_BACKLINKS = {"providers": [{"kind": "graph"},
                                   {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}],
                     "rate": 1000}


@pytest.fixture(autouse=True)
def only_discovery_followup(monkeypatch):
    """Other follow-ups (pairing, evaluation) have their own tests and cost seconds per crawl here."""
    from crawlweb.services import followups

    monkeypatch.setattr(followups, "FOLLOWUPS", ["frontier.discovery_followup.after_step"])


@pytest.fixture
def sync_jobs(settings, empty_queues):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"


def bilingual_homes(server, count=2) -> list[str]:
    truth = server.web.truth()
    return [next(iter(s["home_urls"].values())) for s in truth["sites"] if s["bilingual_sr_en"]][:count]


def discovery_crawl(server, strategy: str, *, budget: int, seeds: list[str] | None = None, **config) -> Crawl:
    seed_list = SeedList.objects.create(name=f"discovery {SeedList.objects.count()}")
    for url in seeds or bilingual_homes(server):
        seed_list.seeds.create(url=url)
    config = {"host_interval": 0, "backlinks": TESTWEB_BACKLINKS, "random_seed": 1, **config}
    return Crawl.objects.create(name=strategy, seed_list=seed_list, strategy=strategy, page_budget=budget,
                                config=config)
