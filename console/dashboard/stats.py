"""The crawl list's numbers (the dashboard's index): Targets by state and sites seen, for every
listed crawl at once, read from the crawls' tallies (crawlweb.tallies) in one grouped statement
each, so the list costs the same few queries for one crawl or fifty, and for a crawl of millions."""
from collections import Counter

from crawlweb.tallies import reads
from crawlweb.tallies.fold import fold_if_many
from frontier.models import Target


def crawl_list_counters(crawl_ids: list[int]) -> dict[int, dict]:
    """{crawl id: {"targets": {state: n}, "sites": n}} for the crawls named (zeros for a crawl
    with no rows yet)."""
    counters = {pk: {"targets": dict.fromkeys(Target.State.values, 0), "sites": 0} for pk in crawl_ids}
    if not crawl_ids:
        return counters
    deltas: Counter = Counter()
    for row in reads.target_groups(crawl_ids, "crawl_id", "state"):
        counters[row["crawl_id"]]["targets"][row["state"]] = row["n"]
        deltas[row["crawl_id"]] += row["deltas"]
    sites, summed = reads.member_counts(crawl_ids, (reads.SITE_PAGES,))
    for (crawl_id, _figure), n in sites.items():
        counters[crawl_id]["sites"] = n
    deltas.update(summed)
    fold_if_many(deltas)
    return counters
