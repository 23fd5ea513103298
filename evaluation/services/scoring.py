"""Scoring: a site's patterns, the global credibility, then the site's pairs.

``score_site`` is incremental: it mines only its own site (a new page updates only its site's
patterns), moves the global rows by its site's difference, and re-pairs its site.  Other
sites see the new global credibility (rescue_global, deep, Def. 9) the next time they are
scored; ``score_crawl`` scores every site in two phases so every site sees the same globals.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Iterator

from django.db.models import Count

from crawlweb.models import Crawl, Page, Site
from crawlweb.services.site_language import settle_sites_languages
from evaluation.models import (
    CandidatePair,
    DeepCheck,
    ScoreClaim,
    ScriptVariant,
    SiteCredibility,
    UrlPattern,
)
from evaluation.pairing.patterns import mine_site_patterns
from evaluation.pairing.records import check_languages
from evaluation.services import one_language
from evaluation.services import pairs as pair_service
from evaluation.services.claims import sites_with_a_job_queued
from evaluation.services.config import PairsSettings, crawl_languages
from evaluation.services.global_patterns import GlobalPatternView, forget_site_rows
from evaluation.services.inputs import canonical_site_ids, crawl_sites, groups_of, load_site, load_sites
from evaluation.services.patterns import (
    refresh_global_patterns,
    store_sites_patterns,
    stored_conventions,
    stored_domain_credibility,
)

log = logging.getLogger(__name__)


@dataclass
class ScoreSummary:
    sites: int = 0
    pages: int = 0
    by_method: dict[str, int] = field(default_factory=dict)  # pairs proposed, by best method
    kept_by_method: dict[str, int] = field(default_factory=dict)
    script_variants: int = 0
    site_id: int | None = None  # score_site: the canonical Site scored, and its group's Site ids
    group_ids: list[int] = field(default_factory=list)
    groups: dict[int, list[int]] = field(default_factory=dict)  # score_sites: canonical Site id → group's ids

    def merge(self, other: "ScoreSummary") -> None:
        self.sites += other.sites
        self.pages += other.pages
        for mine, theirs in ((self.by_method, other.by_method), (self.kept_by_method, other.kept_by_method)):
            for method, n in theirs.items():
                mine[method] = mine.get(method, 0) + n
        self.script_variants += other.script_variants
        if other.site_id is not None:
            self.groups[other.site_id] = other.group_ids
        self.groups.update(other.groups)

    def count_one_language(self, batch: one_language.OneLanguageBatch) -> None:
        for site_id, (loaded, _) in batch.sites.items():
            self.sites += 1
            self.pages += len(loaded.pages)
        for site_id in batch.handled:
            self.groups[site_id] = [site_id]

    def add(self, judged, variants) -> None:
        for cand, verdict, chosen in judged:
            self.by_method[cand.method] = self.by_method.get(cand.method, 0) + 1
            if chosen and verdict is not None and verdict.keep:
                self.kept_by_method[cand.method] = self.kept_by_method.get(cand.method, 0) + 1
        self.script_variants += len(variants)


def _retire(crawl_id: int, members) -> None:
    """Rows stored under a Site that is now a non-canonical member of a group (en.x.rs scored
    before www.x.rs was crawled) are the group's rows now: drop them, the group rescores."""
    ids = [s.pk for s in members]
    # A member's C(w) row is written before any other row of it and deleted with them, so a member
    # without one holds nothing: one read instead of five DELETEs at every scoring of its group.
    if ids and SiteCredibility.objects.filter(crawl_id=crawl_id, site_id__in=ids).exists():
        forget_site_rows(crawl_id, ids)  # their share of the global rows goes with them
        for model in (UrlPattern, SiteCredibility, CandidatePair, ScriptVariant, DeepCheck):
            model.objects.filter(crawl_id=crawl_id, site_id__in=ids).delete()


def _mine_sites(crawl_id: int, site_ids: list[int], cfg: PairsSettings, languages,
                settled: set[int] = frozenset(), groups: dict[int, list[Site]] | None = None,
                before_storing: Callable[[list], None] | None = None) -> list[tuple]:
    """Settle, load and mine the sites' pairing groups (each once) and store their patterns: the full
    path's first half, for many sites in a few statements. Returns (loaded, mined) of each group, mined
    None for a group without a pairable page. ``settled``: sites whose languages need no settling
    again; ``groups``: pairing groups the caller has read; ``before_storing``: called with the mined
    patterns before they are stored."""
    groups = dict(groups or {})
    missing = [site_id for site_id in site_ids if site_id not in groups]
    if missing:
        groups.update(groups_of(crawl_id, missing, cfg.group_max_sites))
    gone = [site_id for site_id in site_ids if site_id not in groups]
    if gone:
        raise Site.DoesNotExist(f"no Site with id {gone[0]} (deleted since its scoring was queued)")
    unique: dict[int, list[Site]] = {}  # two members of one group are one pairing site
    for site_id in site_ids:
        unique.setdefault(groups[site_id][0].pk, groups[site_id])
    # Each Site's variety corrects its pages' labels before pairs are looked for (a Serbian page
    # called Bosnian, a Croatian site's pages called Serbian): site_language.py. Every member of
    # the group is settled on its own pages: en.x.rs and x.rs are one pairing group, not one site.
    members = sorted({member.pk for group in unique.values() for member in group} - set(settled))
    if members:
        settle_sites_languages(crawl_id, members)
    loaded_of = load_sites(crawl_id, list(unique.values()), structure=cfg.check_structure)
    _retire(crawl_id, [member for group in unique.values() for member in group[1:]])
    out = [(loaded, _mined(loaded, languages)) for loaded in (loaded_of[key] for key in unique)]
    stored = [(loaded, mined) for loaded, mined in out if mined is not None]
    if before_storing is not None:
        before_storing([mined for _, mined in stored])
    if stored:
        store_sites_patterns(crawl_id, stored, languages)
    return out


def _mined(loaded, languages):
    if not loaded.pages:
        return None
    return mine_site_patterns(loaded.site.name, [(r.url, r.lang) for r in loaded.records.values()],
                              languages=languages)


def _load_and_mine(crawl_id: int, site: Site, cfg: PairsSettings, languages):
    """The site's pages and patterns as stored (settled and stored already: mining is cheap, the
    reading is most of it)."""
    loaded = load_site(crawl_id, site, cfg.group_max_sites, structure=cfg.check_structure)
    return loaded, _mined(loaded, languages)


def _pair_sites(crawl_id: int, mined_sites: list[tuple], global_patterns, domains, conventions, cfg, languages,
                summary: ScoreSummary) -> None:
    """The full path's second half for many sites: each site's proposals and verdicts, their deep-page
    guesses and pairs read and written together. ``domains(names)``: mean credibility of those domains."""
    mined_sites = [(loaded, mined) for loaded, mined in mined_sites if mined is not None]
    if not mined_sites:
        return
    credibility = domains({loaded.domain for loaded, _ in mined_sites})
    proposed = [(loaded, pair_service.propose(loaded, mined, global_patterns, credibility, cfg, languages,
                                              conventions, crawl_id=crawl_id))
                for loaded, mined in mined_sites]
    deep = pair_service.confirmed_deep_pairs(crawl_id, proposed, languages)
    judged = [(loaded, pair_service.judge(loaded, proposals, deep_pairs, global_patterns, cfg, languages),
               proposals.variants) for (loaded, proposals), deep_pairs in zip(proposed, deep)]
    pair_service.store_sites_pairs(crawl_id, judged, languages)
    for loaded, verdicts, variants in judged:
        summary.sites += 1
        summary.pages += len(loaded.pages)
        summary.add(verdicts, variants)


class JobReads:
    """The crawl-wide rows a job of many sites reads once for all of them: the global patterns, the
    conventions and a domain's mean credibility are each a scan over every scored site's rows (a
    top-level domain such as .rs is most of the crawl), and read again for each site they were a
    tenth of a job's time. The job's later sites see them without its earlier sites' differences, as
    a crawl-wide pass's sites see one view."""

    def __init__(self, crawl_id: int, cfg: PairsSettings):
        self.crawl_id, self.cfg = crawl_id, cfg
        self._credibility: dict[str, float] = {}
        self._asked: set[str] = set()

    @cached_property
    def languages(self) -> tuple[str, str]:
        return check_languages(crawl_languages(Crawl.objects.get(pk=self.crawl_id)))

    @cached_property
    def patterns(self) -> GlobalPatternView:
        """The top global rows and the conventions' now; each site's own patterns' rows as ``want``
        asks for them (before the site's own contribution is stored: a site is judged by the others)."""
        view = GlobalPatternView(self.crawl_id, top=max(self.cfg.filter_top_n, self.cfg.deep_top_n))
        view.want(self.conventions)
        return view

    def want_patterns(self, mined_sites) -> None:
        """The global rows of these mined sites' patterns, read into ``patterns``."""
        self.patterns.want(key for mined in mined_sites if mined is not None for key in mined.patterns)

    @cached_property
    def conventions(self) -> set:
        return stored_conventions(self.crawl_id, self.cfg.min_frequency)

    def domains(self, names) -> dict[str, float]:
        """Mean credibility of these domains (those with scored sites), each read once for the job."""
        missing = set(names) - self._asked
        if missing:
            self._credibility.update(stored_domain_credibility(self.crawl_id, missing))
            self._asked |= missing
        return {name: self._credibility[name] for name in names if name in self._credibility}


def score_site(crawl_id: int, site_id: int, cfg: PairsSettings | None = None) -> ScoreSummary:
    """Mine one site, move the global rows by its difference and pair it (the full path of one site)."""
    cfg = cfg or PairsSettings.current()
    summary = ScoreSummary()
    _score_full_path(crawl_id, [site_id], cfg, JobReads(crawl_id, cfg), None, summary)
    summary.site_id, summary.group_ids = next(iter(summary.groups.items()))
    summary.groups = {}
    return summary


def _score_full_path(crawl_id: int, site_ids: list[int], cfg: PairsSettings, reads: JobReads,
                     batch: one_language.OneLanguageBatch | None, summary: ScoreSummary) -> None:
    """Mine the sites, move the global rows by their difference and pair them; ``reads``: the crawl-wide
    rows as the caller's job read them; ``batch``: the job's one-language batch, which read the sites'
    groups and settled their languages (a bilingual site alone: most of them)."""
    mined_sites = _mine_sites(crawl_id, site_ids, cfg, reads.languages,
                              batch.settled if batch is not None else frozenset(),
                              batch.groups if batch is not None else None, before_storing=reads.want_patterns)
    for loaded, _ in mined_sites:
        summary.groups[loaded.site.pk] = [member.pk for member in loaded.group]
    _pair_sites(crawl_id, mined_sites, reads.patterns, reads.domains, reads.conventions, cfg, reads.languages,
                summary)


ONE_LANGUAGE_CHUNK = 500  # sites prepared together: bounded memory and IN lists
# The full path scores a job's sites in chunks of at most this many sites and pages (one bigger site
# alone): each chunk's rows are read and written in a few statements, and only its pages are held (with
# 3,000 pages a chunk, the score-first worker of a COBFC run reached 618 MB).
FULL_PATH_SITES = 30
FULL_PATH_PAGES = 1_000


def _chunks(items: Iterable, size_of: Callable[[object], int]) -> Iterator[list]:
    """``items`` in lists of at most FULL_PATH_SITES items and FULL_PATH_PAGES of ``size_of``."""
    chunk, size = [], 0
    for item in items:
        pages = size_of(item)
        if chunk and (len(chunk) >= FULL_PATH_SITES or size + pages > FULL_PATH_PAGES):
            yield chunk
            chunk, size = [], 0
        chunk.append(item)
        size += pages
    if chunk:
        yield chunk


def _site_chunks(crawl_id: int, site_ids: list[int]) -> Iterator[list[int]]:
    """The sites in chunks (_chunks), by their pages stored in the crawl (one read)."""
    pages = dict(Page.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).order_by().values("site_id")
                 .annotate(n=Count("id")).values_list("site_id", "n"))
    return _chunks(site_ids, lambda site_id: pages.get(site_id, 0))


def score_sites(crawl_id: int, site_ids: list[int], cfg: PairsSettings | None = None,
                on_error: Callable[[int | None, Exception], None] | None = None) -> ScoreSummary:
    """score_site for each of ``site_ids``: the one-language sites together (one_language.py), the
    others in chunks (_score_full_path). With ``on_error``, a failing site (None: the one-language
    batch, whose sites then go the full path) is reported there and the others are still scored: a
    chunk that fails is scored again site by site, to name the site."""
    cfg = cfg or PairsSettings.current()
    reads = JobReads(crawl_id, cfg)  # read after the batch's page counts, once for the whole job
    languages = reads.languages
    summary = ScoreSummary()
    full_path, batch = list(site_ids), None
    try:
        batch = one_language.prepare(crawl_id, site_ids, cfg, languages)
        domains = reads.domains({loaded.domain for loaded, _ in batch.sites.values()})
        reads.want_patterns(mined for _, mined in batch.sites.values())
        one_language.guess(batch, reads.patterns, domains, reads.conventions)
        summary.count_one_language(batch)
        full_path = batch.full_path
    except Exception as error:
        if on_error is None:
            raise
        on_error(None, error)
    def scored(part: list[int]) -> ScoreSummary:  # merged only once the whole part is stored
        out = ScoreSummary()
        _score_full_path(crawl_id, part, cfg, reads, batch, out)
        return out

    for chunk in _site_chunks(crawl_id, full_path) if full_path else ():
        try:
            summary.merge(scored(chunk))
        except Exception as error:
            if on_error is None:
                raise
            for site_id in chunk if len(chunk) > 1 else ():  # again one at a time, to name the failing site
                try:
                    summary.merge(scored([site_id]))
                except Exception as error:
                    on_error(site_id, error)
            if len(chunk) == 1:
                on_error(chunk[0], error)
    return summary


def pass_site_ids(crawl_id: int, cfg: PairsSettings, *, every: bool) -> set[int]:
    """The sites a crawl-wide pass scores: ``every`` site (the pass after the crawl finished), or,
    during the crawl, only those with pages their last scoring did not see (or never scored) and no
    score_sites job of their own queued (claims.sites_with_a_job_queued: it scores them under the
    rebuilt global rows as it comes).

    A site scored since its last page has its patterns stored (the global rebuild reads them) and its
    pairs judged; under the rebuilt global patterns it is judged again when it grows, when it goes
    quiet with pages unseen, and in the pass after the crawl. Scoring every site that showed both
    languages in every pass made one job of a 51,200-page crawl's pass take 204 s and the score worker
    582 MB (docs/scale.md), and scoring every one-language site before that made the passes cost as
    much as the crawl (42 s at 10k pages and growing)."""
    ids = canonical_site_ids(crawl_id, crawl_sites(crawl_id), cfg.group_max_sites)
    if every:
        return ids
    up_to_date = (SiteCredibility.objects.filter(crawl_id=crawl_id, site_id__in=ids)
                  .exclude(site_id__in=ScoreClaim.objects.filter(crawl_id=crawl_id, behind=True).values("site_id"))
                  .values_list("site_id", flat=True))
    return ids - set(up_to_date) - sites_with_a_job_queued(crawl_id)


class _KeptPages:
    """How many more pages a crawl-wide pass may hold between its two phases (PASS_KEEP_PAGES)."""

    def __init__(self, pages: int):
        self.left = pages

    def take(self, pages: int) -> bool:
        if pages > self.left:
            return False
        self.left -= pages
        return True


class _MinedSites:
    """The sites a pass mined, kept for its pairing phase: loaded pages and patterns while they fit
    in the pass's page budget, the rest by Site only, read and mined again when their turn comes
    (settled and stored already). Keeping every site of a large crawl held all its bilingual pages
    in the worker at once (a score worker grew past 500 MB during a 55,000-page crawl's pass)."""

    def __init__(self, kept: _KeptPages):
        self.sites: list[tuple[Site, tuple | None]] = []
        self.kept = kept

    def add(self, site: Site, loaded, mined) -> None:
        self.sites.append((site, (loaded, mined) if self.kept.take(len(loaded.pages)) else None))

    def __len__(self) -> int:
        return len(self.sites)

    def each(self, mine_again):
        """(loaded, mined) of each site in turn, releasing each once it has been handed out."""
        for index, (site, kept) in enumerate(self.sites):
            self.sites[index] = (site, None)
            loaded, mined = kept if kept is not None else mine_again(site)
            if mined is not None:
                yield loaded, mined


class _OneLanguageBatches:
    """The pass's one-language batches between its phases: kept while they fit in the page budget,
    else their sites only, prepared again for the guessing phase (settled and their C(w) rows stored
    already: a read and a mining). Every batch of a 100,000-page crawl held at once was the pass's
    largest memory."""

    def __init__(self, kept: _KeptPages):
        self.batches: list[tuple[list[int], one_language.OneLanguageBatch | None]] = []
        self.kept = kept

    def add(self, batch: one_language.OneLanguageBatch) -> None:
        self.batches.append((batch.handled, batch if self.kept.take(batch.pages) else None))

    def each(self, prepare_again):
        """(batch, its sites that show both languages by now) of each batch in turn, releasing each
        once handed out; a batch prepared again hands over a site that grew a second language since."""
        for index, (site_ids, batch) in enumerate(self.batches):
            self.batches[index] = (site_ids, None)
            if batch is not None:
                yield batch, []
            else:
                batch = prepare_again(site_ids)
                yield batch, list(batch.full_path)


PASS_KEEP_PAGES = 10_000  # pages of prepared sites a crawl-wide pass keeps between its two phases


def score_crawl(crawl_id: int, cfg: PairsSettings | None = None,
                progress: Callable[[str, int, int, ScoreSummary], None] | None = None, *,
                site_ids: set[int] | None = None, settled: set[int] = frozenset()) -> ScoreSummary:
    """Every site (or ``site_ids``, from pass_site_ids): mine all (phase 1), global credibility
    once, then pair all (phase 2); the one-language sites in batches, their guesses after the global
    rebuild as every other site's. ``settled``: sites whose page languages need no settling
    (site_language.settled_sites; the crawl's own passes).
    ``progress(phase, sites done, sites in the phase, summary so far)`` is told as sites are done."""
    cfg = cfg or PairsSettings.current()
    crawl = Crawl.objects.get(pk=crawl_id)
    languages = check_languages(crawl_languages(crawl))
    summary = ScoreSummary()
    if site_ids is None:
        site_ids = pass_site_ids(crawl_id, cfg, every=True)
    ordered = sorted(site_ids)
    kept = _KeptPages(PASS_KEEP_PAGES)
    batches, full_path, groups, settled_now = _OneLanguageBatches(kept), [], {}, set(settled)
    for start in range(0, len(ordered), ONE_LANGUAGE_CHUNK):
        batch = one_language.prepare(crawl_id, ordered[start:start + ONE_LANGUAGE_CHUNK], cfg, languages, settled)
        batches.add(batch)
        full_path += batch.full_path
        groups.update((site_id, batch.groups[site_id]) for site_id in batch.full_path)
        settled_now |= batch.settled & set(batch.full_path)
        if progress:
            progress("mining patterns", start + len(batch.handled), len(ordered), summary)
    mined_sites, done = _MinedSites(kept), 0
    for chunk in _site_chunks(crawl_id, full_path):
        for loaded, mined in _mine_sites(crawl_id, chunk, cfg, languages, settled_now, groups):
            if mined is not None:
                mined_sites.add(loaded.site, loaded, mined)
        done += len(chunk)
        if progress:
            progress("mining patterns", len(ordered) - len(full_path) + done, len(ordered), summary)
    patterns = refresh_global_patterns(crawl_id)
    domains = stored_domain_credibility(crawl_id)
    conventions = stored_conventions(crawl_id, cfg.min_frequency)
    handed_back = []

    def prepare_again(site_ids):  # settled and C(w) stored in phase 1 (pages stored since claim their own scoring)
        return one_language.prepare(crawl_id, site_ids, cfg, languages, set(site_ids))

    for batch, grew in batches.each(prepare_again):
        handed_back += grew
        handed_back += one_language.guess(batch, patterns, domains, conventions)
        summary.count_one_language(batch)
    for chunk in _site_chunks(crawl_id, sorted(set(handed_back))):  # proposed something after all, or grew
        for loaded, mined in _mine_sites(crawl_id, chunk, cfg, languages):  # settled again: a few sites
            if mined is not None:
                mined_sites.add(loaded.site, loaded, mined)

    def mine_again(site):  # settled and stored in phase 1
        return _load_and_mine(crawl_id, site, cfg, languages)

    done = 0
    for chunk in _chunks(mined_sites.each(mine_again), lambda item: len(item[0].pages)):
        _pair_sites(crawl_id, chunk, patterns, lambda names: domains, conventions, cfg, languages, summary)
        done += len(chunk)
        if progress:
            progress("pairing", done, len(mined_sites), summary)
    return summary
