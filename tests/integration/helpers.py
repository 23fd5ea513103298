import threading

from django.db import connections

from crawlweb.models import Crawl, SeedList


def crawl_of_test_web(server, *, budget: int, seeds: int = 6, **fields) -> Crawl:
    truth = server.web.truth()
    seed_list = SeedList.objects.create(name=f"test web {SeedList.objects.count()}")
    seed_list.seeds.bulk_create([seed_list.seeds.model(seed_list=seed_list, url=url)
                                 for url in truth["seed_urls"][:seeds]])
    return Crawl.objects.create(name="test", seed_list=seed_list, page_budget=budget, **fields)


def page_requests(server):
    """Requests the test web served, robots.txt aside."""
    return [entry for entry in server.requests if not entry.url.endswith("/robots.txt")]


def start_workers(*bodies) -> list[threading.Thread]:
    """Run each body in a thread of its own, as a worker would: its own database connection,
    closed when the body ends. Join them with ``join_workers``."""
    def worker(body):
        try:
            body()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    return threads


def join_workers(threads: list[threading.Thread], timeout: float = 30) -> None:
    for thread in threads:
        thread.join(timeout)
