"""When scoring runs: at most one pending job per site (ScoreClaim) and one pending crawl-wide
pass per crawl (CrawlScoring), each due only after its input has grown by a factor.

A site is first scored ``first_delay`` seconds after its first page (PAIRS_SITE_FIRST_DELAY_SECONDS,
0 by default: at once), or once it has ``from_pages`` pages; then again when it has grown ``growth``
times since its last scoring (8 and 2: at 8, 16, 32 … pages, so all its scorings together read about
twice its final size), when its pages tell more of bilingualism (a language of the crawl's pair for
the first time, or a second page of one when it has both: at once), or when pages no scoring saw have waited ``quiet`` seconds without the
site growing further (a site that stopped short of the next factor). Most sites of a national web have
a few pages, which arrive over a few steps: scored at its first page and again when quiet, each costs
two scorings; a ``first_delay`` of 20 s scores the first burst together (a quarter fewer scorings at
100,000 pages), every verdict that much later. Scoring after every step that stored a page re-read a
growing site from its start again and again: quadratic in its size.

A claim is won by a conditional UPDATE (not pending → pending), so two workers cannot both
enqueue; the job releases its claim when it starts, so pages stored while it runs claim the next
one.  A claim pending for longer than STALE_AFTER (its job was lost with a dead worker) may be
taken again.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from typing import Iterable, Mapping

from django.db import connection
from django.db.models import F, Q, Subquery
from django.utils import timezone

from crawlweb.models import Crawl
from evaluation.models import CrawlScoring, DiscoveryRun, ScoreClaim
from evaluation.services.config import PairsSettings
from evaluation.services.site_verdicts import MIN_PAGES_PER_LANGUAGE, SMALL_SITE_PAGES

STALE_AFTER = timedelta(minutes=30)
# Pages per language of the pair a claim row counts: what site_verdicts.pages_say_bilingual needs.
EVIDENCE_PAGES = MIN_PAGES_PER_LANGUAGE


def claim_sites(crawl_id: int, stored: Iterable[int] | Mapping[int, int], *, growth: float = 1.0,
                from_pages: int = 0) -> list[int]:
    """Count the pages just stored per site (``stored``: site ids, one page each, or {site id: pages})
    and return the sites among them whose score_site the caller won the right to enqueue: not
    pending, with at least ``from_pages`` pages, and never scored or grown ``growth`` times since the
    last scoring (1.0 and 0: any new page will do). Below that a site waits until it is quiet
    (claim_quiet_sites): most sites of a national web have a few pages, which arrive over several
    steps, and scored at 1, 2, 3 and 5 pages each cost four scorings where one tells the same.

    Missing claim rows are created, then one UPDATE per distinct count raises the counters and, in
    the same write, flips every claimable row to pending (raised then flipped in two statements, each
    row was written twice per step). A row another worker flipped first no longer matches, so one
    caller wins each site: a row is won by this call when it comes back pending and claimed at this
    call's own moment (two calls would have to start within the same microsecond to tie; the cost
    of a tie is one more scoring of the site, which is idempotent)."""
    counts = Counter(stored) if not isinstance(stored, Mapping) else Counter(dict(stored))
    site_ids = sorted(site_id for site_id, n in counts.items() if n > 0)
    if not site_ids:
        return []
    now = timezone.now()
    ScoreClaim.objects.bulk_create([ScoreClaim(crawl_id=crawl_id, site_id=site_id, pending=False, claimed_at=now,
                                               first_stored_at=now)
                                    for site_id in site_ids], ignore_conflicts=True)
    by_count: dict[int, list[int]] = defaultdict(list)
    for site_id in site_ids:
        by_count[counts[site_id]].append(site_id)
    adapt = connection.ops.adapt_datetimefield_value
    won: list[int] = []
    with connection.cursor() as cursor:
        for n, ids in by_count.items():
            # SET reads the row as it was: the claimable test sees the count before this raise.
            claimable = ("((pending = %s OR claimed_at < %s) AND (pages_at_last_score = 0 OR pages_stored + %s"
                         " >= %s * pages_at_last_score) AND pages_stored + %s >= %s)")
            claim_params = [False, adapt(now - STALE_AFTER), n, float(growth), n, int(from_pages)]
            cursor.execute(
                f"UPDATE {ScoreClaim._meta.db_table} SET pages_stored = pages_stored + %s, behind = %s,"
                f" last_stored_at = %s, pending = CASE WHEN {claimable} THEN %s ELSE pending END,"
                f" claimed_at = CASE WHEN {claimable} THEN %s ELSE claimed_at END"
                f" WHERE crawl_id = %s AND site_id IN ({', '.join(['%s'] * len(ids))})"
                " RETURNING site_id, CASE WHEN pending = %s AND claimed_at = %s THEN 1 ELSE 0 END",
                [n, True, adapt(now), *claim_params, True, *claim_params, adapt(now), crawl_id, *ids,
                 True, adapt(now)])
            won += [site_id for site_id, flipped in cursor.fetchall() if flipped]
    return sorted(won)


def languages_seen(crawl_id: int, site_ids) -> tuple[dict[int, Counter], dict[int, int]]:
    """Of the sites that have a claim row: {site id: pages per language of the crawl's pair the row
    noted (at most EVIDENCE_PAGES each)} and {site id: pages stored}, in one read."""
    languages, pages = {}, {}
    for site_id, noted, stored in (ScoreClaim.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids))
                                   .values_list("site_id", "languages_seen", "pages_stored")):
        languages[site_id], pages[site_id] = Counter(filter(None, noted.split(","))), stored
    return languages, pages


def _noted(seen: Counter, shown: Counter) -> Counter:
    return Counter({language: min(EVIDENCE_PAGES, seen[language] + shown[language]) for language in seen | shown})


def sites_with_new_evidence(shown: Mapping[int, Counter], seen: Mapping[int, Counter], pair: tuple[str, str],
                            pages: Mapping[int, int]) -> set[int]:
    """The sites among ``shown`` ({site id: pages just stored per language of the crawl's pair}) that
    had a claim row before (``seen``: languages_seen) and whose pages now tell more of bilingualism:
    a language of the pair shown for the first time, or, with both shown and at least
    SMALL_SITE_PAGES pages (``pages``: stored, with this step's), a language's count rising towards
    EVIDENCE_PAGES (a smaller site's pages say bilingual with one page of each already). Such a site
    is claimed at once whatever its growth: a site's pages say bilingual with two pages of each
    language (site_verdicts.pages_say_bilingual), and waiting for a factor or a quiet minute made
    bilingual sites' verdicts the slowest of a crawl (after their second language, p95 65 s at
    100,000 pages; 35 s with this). At most 2 x EVIDENCE_PAGES such claims per site."""
    out = set()
    for site_id, languages in shown.items():
        if site_id not in seen:
            continue  # a site's first pages: claim_sites scores a site never scored anyway
        before, after = seen[site_id], _noted(seen[site_id], languages)
        if after == before:
            continue
        if any(language not in before for language in after):
            out.add(site_id)
        elif all(after[language] for language in pair) and pages.get(site_id, 0) >= SMALL_SITE_PAGES:
            out.add(site_id)
    return out


def note_languages_shown(crawl_id: int, shown: Mapping[int, Counter], seen: Mapping[int, Counter]) -> None:
    """Add ``shown`` to the claim rows' languages_seen (``seen``: as read before; every row exists by
    now), one UPDATE per distinct new value (a few: the counts stop at EVIDENCE_PAGES), the rows whose
    counts did not move not written."""
    by_value: dict[str, list[int]] = defaultdict(list)
    for site_id, languages in shown.items():
        before = seen.get(site_id, Counter())
        after = _noted(before, languages)
        if after != before:
            by_value[",".join(sorted(after.elements()))].append(site_id)
    for value, site_ids in by_value.items():
        ScoreClaim.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).update(languages_seen=value[:32])


def claim_quiet_sites(crawl_id: int, quiet: timedelta, first_delay: timedelta | None = None, *,
                      growth: float = 1.0) -> list[int]:
    """The sites with pages no scoring saw, none stored for ``quiet``, and ``growth`` times the pages of
    their last scoring, or, never scored, whose first page is ``first_delay`` old (``quiet`` when not
    given), whose score_site the caller won: a site that stopped growing short of its next factor still
    gets its last pages scored while the crawl runs, and a new site its verdict soon, its first burst of
    pages together (reads only the rows that are behind, by a partial index).

    Why ``growth`` (PAIRS_SITE_QUIET_GROWTH, 1.25): a breadth-first crawl of a large web gives a host one
    page a lease round, and a round over 20,000 hosts lasts minutes, longer than ``quiet``. Every page of
    a large site then came after a quiet spell and was scored with all the site's pages before it: n
    scorings of a growing site read ~n²/2 pages, the quadratic cost growth claims exist to avoid. With a
    quarter's growth asked of a quiet site, its scorings read ~5 times its pages, and a site of a few
    pages is still scored at each (2 of 1, 3 of 2, 4 of 3, 5 of 4); what a quiet site holds back until it
    grows is scored by the crawl-wide passes (every site behind) and the pass after the crawl."""
    now = timezone.now()
    first_delay = quiet if first_delay is None else first_delay
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ScoreClaim._meta.db_table} SET pending = %s, claimed_at = %s"
            " WHERE crawl_id = %s AND behind = %s AND pending = %s AND CASE WHEN pages_at_last_score = 0"
            " THEN COALESCE(first_stored_at, last_stored_at) < %s"
            " ELSE last_stored_at < %s AND pages_stored >= %s * pages_at_last_score END RETURNING site_id",
            [True, adapt(now), crawl_id, True, False, adapt(now - first_delay), adapt(now - quiet), float(growth)])
        return sorted(row[0] for row in cursor.fetchall())


def sites_with_a_job_queued(crawl_id: int) -> set[int]:
    """The sites whose score_sites job is queued or running (a pending claim, not stale): a crawl-wide
    pass during the crawl leaves them to it. Scored by both, a site was scored twice at once, and when
    the score queue ran behind the pass did the work of hundreds of queued jobs before they ran it again
    (a 147 s pass at 64,000 pages, the score worker's other jobs waiting behind it)."""
    fresh = timezone.now() - STALE_AFTER
    return set(ScoreClaim.objects.filter(crawl_id=crawl_id, pending=True, claimed_at__gte=fresh)
               .values_list("site_id", flat=True))


def release_claim(crawl_id: int, site_id: int) -> None:
    """The site's score_site starts: what was stored so far is what it will see."""
    release_claims(crawl_id, [site_id])


def release_claims(crawl_id: int, site_ids) -> None:
    """release_claim of many sites, in one statement."""
    ScoreClaim.objects.filter(crawl_id=crawl_id, site_id__in=list(site_ids)).update(
        pending=False, behind=False, pages_at_last_score=F("pages_stored"))


def mark_sites_scored(crawl_id: int) -> None:
    """A crawl-wide pass starts and will score every site: sites not pending are up to date from
    here (only the rows that were behind are written)."""
    ScoreClaim.objects.filter(crawl_id=crawl_id, pending=False).filter(
        Q(behind=True) | ~Q(pages_at_last_score=F("pages_stored"))).update(
        behind=False, pages_at_last_score=F("pages_stored"))


def crawl_pass_due(pages_now: int, pages_at_last_pass: int, *, growth: float, min_pages: int) -> bool:
    """A crawl-wide pass is due during the crawl once it has ``min_pages`` pages and ``growth``
    times the pages the last pass saw (2: at 100, 200, 400 …, so all passes together cost about
    twice the last one); growth 0 leaves the pass to the crawl's end."""
    if growth == 0:
        return False
    if growth <= 1:
        raise ValueError(f"growth must be 0 (only at the end) or above 1, got {growth}")
    return pages_now >= min_pages and pages_now >= growth * pages_at_last_pass


def _pages_fetched(crawl_id: int) -> int:
    return Crawl.objects.filter(pk=crawl_id).values_list("pages_fetched", flat=True).first() or 0


def claim_crawl_pass(crawl_id: int, cfg: PairsSettings, *, finished: bool = False) -> bool:
    """True when the caller won the right to enqueue score_crawl.  During the crawl the pass must
    be due by growth; when it has ``finished``, the crawl must hold pages the last pass did not
    see, or the last pass must have been one of the running crawl's (it left sites out: a pass due
    by growth at the very page that spent the budget saw every page, not every site), or a
    discovery round must be waiting for its scoring."""
    pages_now = _pages_fetched(crawl_id)
    row, _ = CrawlScoring.objects.get_or_create(crawl_id=crawl_id)
    if finished:
        due = (pages_now > row.pages_at_last_pass or not row.last_pass_whole
               or DiscoveryRun.objects.filter(crawl_id=crawl_id, waiting=True).exists())
    else:
        due = crawl_pass_due(pages_now, row.pages_at_last_pass, growth=cfg.rescore_growth,
                             min_pages=cfg.rescore_min_pages)
    if not due:
        return False
    now = timezone.now()
    return bool(CrawlScoring.objects.filter(crawl_id=crawl_id, pages_at_last_pass=row.pages_at_last_pass).filter(
        Q(pending=False) | Q(claimed_at__lt=now - STALE_AFTER)).update(pending=True, claimed_at=now))


def _pages_fetched_now(crawl_id: int):
    """The crawl's page counter, read inside the statement that uses it."""
    return Subquery(Crawl.objects.filter(pk=crawl_id).values("pages_fetched")[:1])


def start_crawl_pass(crawl_id: int) -> None:
    """Release the crawl-wide claim as the pass starts, noting the pages it will see.

    One UPDATE that reads the counter itself: read first and written later, a page counted in
    between (and the crawl's finishing claim, made against the old row) was lost, so the last
    pass missed the last page and a waiting discovery round never went on."""
    CrawlScoring.objects.get_or_create(crawl_id=crawl_id)
    CrawlScoring.objects.filter(crawl_id=crawl_id).update(pending=False, pages_at_last_pass=_pages_fetched_now(crawl_id),
                                                          last_pass_whole=False)
    mark_sites_scored(crawl_id)


def claim_pass_for_late_pages(crawl_id: int) -> bool:
    """After a pass: True when the caller won one more because the crawl has finished with pages no
    pass saw, or finished while a pass of the running crawl (which left sites out) was starting.
    The finishing step's claim can lose to a pass starting at the same moment; the pass, as it
    ends, finds what it missed here (not a waiting discovery round: that is the pass's own next
    job, not a reason for another)."""
    finished_pages = Subquery(Crawl.objects.filter(pk=crawl_id, state=Crawl.State.FINISHED)
                              .values("pages_fetched")[:1])
    missed = Q(pages_at_last_pass__lt=finished_pages) | Q(last_pass_whole=False)
    return bool(CrawlScoring.objects.filter(crawl_id=crawl_id, pending=False).filter(missed)
                .filter(crawl__state=Crawl.State.FINISHED).update(pending=True, claimed_at=timezone.now()))


def end_crawl_pass(crawl_id: int, *, whole: bool = False) -> None:
    """The pass has ended; ``whole``: it started after the crawl had finished and scored every site."""
    CrawlScoring.objects.filter(crawl_id=crawl_id).update(passes=F("passes") + 1, last_pass_at=timezone.now(),
                                                          last_pass_whole=whole)
