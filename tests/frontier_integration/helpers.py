"""Shared set-up for the layered-frontier integration tests."""
from crawlweb.models import Crawl
from crawlweb.services.targets import Candidate, add_targets

LAYERED = {"modules": {"M01": {}, "M03": {}},
           # M01 weighs more, so a Serbian needle outranks whatever M03 says (2 x 4 > 2 x 1).
           "priority": {"module_weights": {"M01": 4, "M03": 1}}}


def crawl_with_targets(urls: list[str], config: dict | None = None, **anchors) -> tuple[Crawl, list[int]]:
    """A crawl (no network) holding ``urls`` as Targets; returns it and the new Target ids."""
    crawl = Crawl.objects.create(name="placement", page_budget=10, config=LAYERED if config is None else config)
    added = add_targets(crawl, [Candidate(url, anchor_text=anchors.get("anchor", "")) for url in urls],
                        origin="forward", depth=1)
    return crawl, added.new_ids
