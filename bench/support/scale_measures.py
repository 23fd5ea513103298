"""What bench/scale.py reads after (and during) a crawl: throughput windows, RQ job records, verdict lags,
database bytes per table and bloat. Runs in the bench's process, Django set up on the crawl's database."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

SCORING_QUEUES = ("score",)
CRAWL_FUNCTIONS = ("crawl_step",)  # crawling wherever it was queued


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


# ---- throughput --------------------------------------------------------------------------------
def time_at(samples: list[tuple[float, int]], pages: float) -> float:
    """When the crawl reached ``pages`` (linear between the two samples around it)."""
    previous = samples[0]
    for sample in samples:
        if sample[1] >= pages:
            (t0, p0), (t1, p1) = previous, sample
            return t1 if p1 == p0 else t0 + (t1 - t0) * (pages - p0) / (p1 - p0)
        previous = sample
    return samples[-1][0]


def window_rates(samples: list[tuple[float, int]], share: float = 0.1) -> tuple[float, float]:
    """Pages/s over the first and the last ``share`` of the pages reached. The clock starts at the
    last sample with no page yet (worker start-up and the seeds' robots.txt are not throughput)."""
    reached = samples[-1][1]
    if reached <= 0:
        return 0.0, 0.0
    start = max((t for t, p in samples if p == 0), default=samples[0][0])
    window = share * reached
    first_s = time_at(samples, window) - start
    last_s = time_at(samples, reached) - time_at(samples, reached - window)
    return (window / first_s if first_s > 0 else 0.0), (window / last_s if last_s > 0 else 0.0)


# ---- RQ job records ----------------------------------------------------------------------------
@dataclass
class JobTimes:
    by_function: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    site_scorings: int = 0  # sites carried by score_sites jobs: how often, in all, a site was scored
    spans: list[tuple[str, float, float]] = field(default_factory=list)  # (function, ended epoch, seconds)

    def seconds(self, queues: tuple[str, ...] | None = None) -> float:
        return sum(sum(v) for (queue, _), v in self.by_function.items() if queues is None or queue in queues)

    def scoring_seconds(self) -> float:
        """Seconds of jobs on the scoring queues, less the crawl steps run from there (a step queued
        behind a long score queue, crawl_step._queue_for_next_step, is crawling all the same)."""
        return sum(sum(v) for (queue, function), v in self.by_function.items()
                   if queue in SCORING_QUEUES and function not in CRAWL_FUNCTIONS)


def job_times(redis_url: str, queues: tuple[str, ...], since: float) -> JobTimes:
    """Seconds each finished or failed job ran (RQ's started_at/ended_at), by queue and function.
    Jobs are kept for result_ttl (an hour, crawlweb.jobs.queueing): a run of up to an hour is whole."""
    from redis import Redis
    from rq import Queue
    from rq.job import Job

    connection = Redis.from_url(redis_url)
    times = JobTimes()
    for name in queues:
        queue = Queue(name, connection=connection)
        ids = list(queue.finished_job_registry.get_job_ids()) + list(queue.failed_job_registry.get_job_ids())
        for start in range(0, len(ids), 500):
            for job in Job.fetch_many(ids[start:start + 500], connection=connection):
                if job is None or job.started_at is None or job.ended_at is None:
                    continue
                if job.started_at.timestamp() < since:
                    continue
                function = (job.func_name or "?").rsplit(".", 1)[-1]
                seconds = (job.ended_at - job.started_at).total_seconds()
                times.by_function[(name, function)].append(seconds)
                times.spans.append((function, job.ended_at.timestamp(), seconds))
                if function in ("score_sites", "score_site") and len(job.args) > 1:
                    site_ids = job.args[1]
                    times.site_scorings += len(site_ids) if isinstance(site_ids, (list, tuple)) else 1
    return times


def cost_by_part(spans: list[tuple[str, float, float]], samples: list[tuple[float, int]],
                 parts: int = 5) -> tuple[list[int], dict[str, list[float]]]:
    """Job seconds per page fetched, by function, in each of ``parts`` equal shares of the pages reached
    (a job counts in the share its end falls in; start-up's jobs in the first): whether a kind of job
    costs more a page as the crawl grows, which the whole run's totals hide. Jobs that ended after the
    last sample (the drain: the end's scoring) are left to the last value, in seconds, not per page.
    Returns the pages of each share and {function: [ms a page per share..., seconds after the end]}."""
    reached = samples[-1][1] if samples else 0
    if reached <= 0:
        return [], {}
    marks = [time_at(samples, reached * i / parts) for i in range(parts + 1)]
    marks[0], marks[-1] = float("-inf"), samples[-1][0]
    pages = [round(reached / parts)] * parts
    seconds: dict[str, list[float]] = defaultdict(lambda: [0.0] * (parts + 1))
    for function, ended, spent in spans:
        share = next((i for i in range(parts) if ended <= marks[i + 1]), parts)
        seconds[function][share] += spent
    return pages, {function: [1000 * s / max(1, n) for s, n in zip(values, pages)] + [values[-1]]
                   for function, values in seconds.items()}


# ---- verdicts ----------------------------------------------------------------------------------
def first_page_times(crawl_id: int) -> dict[int, float]:
    """Site id -> epoch seconds of its first stored page in the crawl."""
    from django.db.models import Min

    from crawlweb.models import Page

    rows = Page.objects.filter(crawl_id=crawl_id).values("site_id").annotate(first=Min("fetched_at"))
    return {row["site_id"]: row["first"].timestamp() for row in rows}


def verdict_times(crawl_id: int) -> dict[int, float]:
    """Site id -> epoch seconds its SiteVerdict row was stored (decided_at)."""
    from frontier.models import SiteVerdict

    return {site: at.timestamp() for site, at in
            SiteVerdict.objects.filter(crawl_id=crawl_id).values_list("site_id", "decided_at")}


def evidence_times(crawl_id: int, first_pages: dict[int, float]) -> dict[int, float]:
    """Site id -> epoch seconds from which its verdict could be what it is: for a site judged bilingual,
    the first stored page in the second of the pair's languages to appear (no scoring can call it
    bilingual before); for any other, its first page. The verdict lag after this moment is the wait
    for scoring alone, without the time the crawl took to reach the site's other language."""
    from django.db.models import Min

    from crawlweb.models import Crawl, Page
    from evaluation.pairing.records import base_language
    from frontier.models import SiteVerdict

    crawl = Crawl.objects.get(pk=crawl_id)
    pair = {base_language(crawl.source_language), base_language(crawl.target_language)}
    bilingual = set(SiteVerdict.objects.filter(crawl_id=crawl_id, bilingual=True).values_list("site_id", flat=True))
    firsts: dict[int, dict[str, float]] = {}
    for row in (Page.objects.filter(crawl_id=crawl_id, site_id__in=bilingual).values("site_id", "language")
                .annotate(first=Min("fetched_at"))):
        language = base_language(row["language"])
        if language in pair:
            seen = firsts.setdefault(row["site_id"], {})
            seen[language] = min(seen.get(language, float("inf")), row["first"].timestamp())
    evidence = dict(first_pages)
    for site_id, seen in firsts.items():
        if len(seen) == 2:
            evidence[site_id] = max(seen.values())
    return evidence


def scored_site_ids(crawl_id: int) -> set[int]:
    """Sites with a pairing score row (SiteCredibility): polled, since its time field is rewritten."""
    from evaluation.models import SiteCredibility

    return set(SiteCredibility.objects.filter(crawl_id=crawl_id).values_list("site_id", flat=True))


def lags(decided: dict[int, float], first_pages: dict[int, float], until: float, stopped: float) -> list[float]:
    """Seconds from a site's first stored page to its decision, for every site with a page stored by
    ``until`` (the crawl's end). A site decided later counts its real wait; one still undecided when the
    workers stopped (``stopped``) counts its wait until then, a lower bound: counting only the sites
    decided during the crawl left out the late sites, whose wait is the longest."""
    return [decided.get(site, stopped) - first for site, first in first_pages.items() if first <= until]


# ---- database bytes ----------------------------------------------------------------------------
TABLES_SQL = """
SELECT c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid), pg_indexes_size(c.oid),
       COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0), c.oid
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 2 DESC"""


def database_bytes(cursor) -> tuple[int, list[tuple]]:
    """(pg_database_size, [(table, total, heap, indexes, toast, rows)] largest first)."""
    cursor.execute("SELECT pg_database_size(current_database())")
    size = cursor.fetchone()[0]
    cursor.execute(TABLES_SQL)
    tables = []
    for name, total, heap, indexes, toast, _oid in cursor.fetchall():
        cursor.execute(f'SELECT count(*) FROM "{name}"')
        tables.append((name, total, heap, indexes, toast, cursor.fetchone()[0]))
    return size, tables


def bloat(cursor, table: str) -> tuple[float, int, int]:
    """(on-disk / live bytes, on-disk, live) of a table's heap and TOAST (pgstattuple), indexes apart;
    sum(pg_column_size(t.*)) stands in for live bytes when the extension cannot be created."""
    cursor.execute("SELECT reltoastrelid FROM pg_class WHERE relname = %s", [table])
    toast = cursor.fetchone()[0]
    try:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
        cursor.execute("SELECT table_len, tuple_len FROM pgstattuple(%s::regclass)", [table])
        disk, live = cursor.fetchone()
        if toast:
            cursor.execute("SELECT table_len, tuple_len FROM pgstattuple(%s::oid)", [toast])
            toast_disk, toast_live = cursor.fetchone()
            disk, live = disk + toast_disk, live + toast_live
    except Exception:  # no extension here: approximate live bytes from the rows themselves
        cursor.connection.rollback()
        cursor.execute(f'SELECT pg_table_size(%s::regclass), COALESCE(sum(pg_column_size(t.*)), 0) FROM "{table}" t',
                       [table])
        disk, live = cursor.fetchone()
    return (disk / live if live else float("nan")), disk, live
