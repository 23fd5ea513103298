"""The crawl list's numbers (the dashboard's index): Targets by state and sites seen, for every
listed crawl at once, each figure one grouped query over the rows behind it, so the list costs the
same few queries for one crawl or fifty (one query per crawl and figure made it slow)."""
from django.db.models import Count

from crawlweb.models import Page
from frontier.models import Target


def crawl_list_counters(crawl_ids: list[int]) -> dict[int, dict]:
    """{crawl id: {"targets": {state: n}, "sites": n}} for the crawls named (zeros for a crawl
    with no rows yet)."""
    counters = {pk: {"targets": dict.fromkeys(Target.State.values, 0), "sites": 0} for pk in crawl_ids}
    if not crawl_ids:
        return counters
    by_state = (Target.objects.filter(crawl_id__in=crawl_ids).order_by().values_list("crawl_id", "state")
                .annotate(n=Count("id")))
    for crawl_id, state, n in by_state:
        counters[crawl_id]["targets"][state] = n
    sites = (Page.objects.filter(crawl_id__in=crawl_ids).order_by().values_list("crawl_id")
             .annotate(n=Count("site", distinct=True)))
    for crawl_id, n in sites:
        counters[crawl_id]["sites"] = n
    return counters
