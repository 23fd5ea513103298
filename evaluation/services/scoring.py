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
from typing import Callable

from crawlweb.models import Crawl, Site
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
from evaluation.services.global_patterns import forget_site_rows, global_patterns
from evaluation.services.inputs import canonical_site_ids, crawl_sites, load_site, site_group
from evaluation.services.patterns import (
    refresh_global_patterns,
    store_site_patterns,
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


def _mine(crawl_id: int, site: Site, cfg: PairsSettings, languages, settled: set[int] = frozenset(),
          group: list[Site] | None = None):
    # Each Site's variety corrects its pages' labels before pairs are looked for (a Serbian page
    # called Bosnian, a Croatian site's pages called Serbian): site_language.py. Every member of
    # the group is settled on its own pages: en.x.rs and x.rs are one pairing group, not one site.
    # ``group``: the site's pairing group when the caller's batch has read it.
    group = group or site_group(crawl_id, site, cfg.group_max_sites)
    members = [member.pk for member in group if member.pk not in settled]
    if members:
        settle_sites_languages(crawl_id, members)
    loaded, mined = _load_and_mine(crawl_id, site, cfg, languages, group)
    _retire(crawl_id, loaded.group[1:])
    if mined is not None:
        store_site_patterns(crawl_id, loaded, mined, languages)
    return loaded, mined


def _load_and_mine(crawl_id: int, site: Site, cfg: PairsSettings, languages, group: list[Site] | None = None):
    """The site's pages and patterns as stored (settled and stored already: mining is cheap, the
    reading is most of it); ``group``: its pairing group when the caller has read it."""
    loaded = load_site(crawl_id, site, cfg.group_max_sites, structure=cfg.check_structure, group=group)
    if not loaded.pages:
        return loaded, None
    return loaded, mine_site_patterns(loaded.site.name, [(r.url, r.lang) for r in loaded.records.values()],
                                      languages=languages)


def _pair(crawl_id: int, loaded, mined, global_patterns, domains, conventions, cfg, languages, summary: ScoreSummary):
    proposals = pair_service.propose(loaded, mined, global_patterns, domains, cfg, languages, conventions,
                                     crawl_id=crawl_id)
    deep = pair_service.confirmed_deep_pairs(crawl_id, loaded, proposals, languages)
    judged = pair_service.judge(loaded, proposals, deep, global_patterns, cfg, languages)
    pair_service.store_pairs(crawl_id, loaded, judged, proposals.variants, languages)
    summary.sites += 1
    summary.pages += len(loaded.pages)
    summary.add(judged, proposals.variants)


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
    def patterns(self) -> dict:
        return global_patterns(self.crawl_id)

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


def score_site(crawl_id: int, site_id: int, cfg: PairsSettings | None = None, *,
               reads: JobReads | None = None, batch: one_language.OneLanguageBatch | None = None) -> ScoreSummary:
    """Mine one site, move the global rows by its difference and pair it; ``reads``: the crawl-wide rows
    as the caller's job read them (read here when not given); ``batch``: the job's one-language batch,
    which read the site's group and settled its languages (a bilingual site alone: most of them)."""
    cfg = cfg or PairsSettings.current()
    reads = reads or JobReads(crawl_id, cfg)
    languages = reads.languages
    summary = ScoreSummary()
    group = batch.groups.get(site_id) if batch is not None else None
    site = next(member for member in group if member.pk == site_id) if group else Site.objects.get(pk=site_id)
    loaded, mined = _mine(crawl_id, site, cfg, languages, batch.settled if batch is not None else frozenset(), group)
    summary.site_id, summary.group_ids = loaded.site.pk, [s.pk for s in loaded.group]
    if mined is None:
        return summary
    _pair(crawl_id, loaded, mined, reads.patterns, reads.domains([loaded.domain]), reads.conventions, cfg,
          languages, summary)
    return summary


ONE_LANGUAGE_CHUNK = 500  # sites prepared together: bounded memory and IN lists


def score_sites(crawl_id: int, site_ids: list[int], cfg: PairsSettings | None = None,
                on_error: Callable[[int | None, Exception], None] | None = None) -> ScoreSummary:
    """score_site for each of ``site_ids``: the one-language sites together (one_language.py), the
    others one by one. With ``on_error``, a failing site (None: the one-language batch, whose sites
    then go the full path) is reported there and the others are still scored."""
    cfg = cfg or PairsSettings.current()
    reads = JobReads(crawl_id, cfg)  # read after the batch's page counts, once for the whole job
    languages = reads.languages
    summary = ScoreSummary()
    full_path, batch = list(site_ids), None
    try:
        batch = one_language.prepare(crawl_id, site_ids, cfg, languages)
        domains = reads.domains({loaded.domain for loaded, _ in batch.sites.values()})
        one_language.guess(batch, reads.patterns, domains, reads.conventions)
        summary.count_one_language(batch)
        full_path = batch.full_path
    except Exception as error:
        if on_error is None:
            raise
        on_error(None, error)
    for site_id in full_path:
        try:
            summary.merge(score_site(crawl_id, site_id, cfg, reads=reads, batch=batch))
        except Exception as error:
            if on_error is None:
                raise
            on_error(site_id, error)
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
    mined_sites = _MinedSites(kept)
    for done, site in enumerate(Site.objects.filter(pk__in=full_path), 1):
        loaded, mined = _mine(crawl_id, site, cfg, languages, settled_now, groups.get(site.pk))
        if mined is not None:
            mined_sites.add(site, loaded, mined)
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
    for site in Site.objects.filter(pk__in=handed_back):  # proposed something after all, or grew: the full path
        loaded, mined = _mine(crawl_id, site, cfg, languages)  # settled again: a few sites
        if mined is not None:
            mined_sites.add(site, loaded, mined)

    def mine_again(site):  # settled and stored in phase 1
        return _load_and_mine(crawl_id, site, cfg, languages)

    for done, (loaded, mined) in enumerate(mined_sites.each(mine_again), 1):
        _pair(crawl_id, loaded, mined, patterns, domains, conventions, cfg, languages, summary)
        if progress:
            progress("pairing", done, len(mined_sites), summary)
    return summary
