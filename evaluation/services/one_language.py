"""Scoring many one-language sites at once: what score_site does for them, in a few statements a batch.

Most sites of a national web show one language of the pair, or none: a Croatian shop, an English
blog, a one-page site. Scored one by one, each cost some forty statements (a one-page site as much
as a hundred-page one), and at 20,000 pages scoring took 70 % of the workers. Such a site has no pair
and no URL pattern of its own; what its scoring writes is its settled page languages, its C(w) row
(page counts, which the global credibility divides by) and its deep-page guesses (less those of a form
the crawl discredited: deep.rows_worth_storing). This module does
exactly that for a batch of sites, with the functions the full path runs (settle_sites_languages,
mine_site_patterns, pairs.propose), and hands back to the full path every site where anything more
could come out:

- a site of a pairing group of several Sites (en.x.rs with x.rs);
- a site whose pages show both languages of the pair, or Serbian in both scripts;
- a site with rows only the full path keeps right (patterns, pairs, script variants of its own), or an
  unchecked guess of which both URLs are now stored pages of the site (the full path marks it checked);
- a site where mining finds a pattern, or any method proposes a pair or a script variant.

Two steps, so a crawl-wide pass can put its global rebuild between them as it does for the full path:
``prepare`` settles, loads, mines and writes the C(w) rows; ``guess`` proposes under the global
patterns and stores the guesses.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from crawlweb.services.site_language import settle_sites_languages
from evaluation.models import CandidatePair, DeepCheck, ScriptVariant, UrlPattern
from evaluation.pairing.patterns import mine_site_patterns
from evaluation.pairing.records import base_language, script_of
from evaluation.services import deep as deep_service
from evaluation.services import pairs as pair_service
from evaluation.services.config import PairsSettings
from evaluation.services.inputs import LoadedSite, groups_of, load_sites, page_labels
from evaluation.services.patterns import credibility_values, lock_sites, store_credibilities


@dataclass
class OneLanguageBatch:
    crawl_id: int
    cfg: PairsSettings
    languages: tuple[str, str]
    sites: dict[int, tuple[LoadedSite, object]] = field(default_factory=dict)  # id → (loaded, mined)
    empty: list[int] = field(default_factory=list)  # no stored 2xx page: nothing to score, as score_site
    full_path: list[int] = field(default_factory=list)  # for score_site, in the order given
    groups: dict[int, list] = field(default_factory=dict)  # every given site's pairing group, as read
    settled: set[int] = field(default_factory=set)  # sites whose page languages are settled by now

    @property
    def handled(self) -> list[int]:
        return sorted(self.sites) + self.empty

    @property
    def pages(self) -> int:
        return sum(len(loaded.pages) for loaded, _ in self.sites.values())


def prepare(crawl_id: int, site_ids, cfg: PairsSettings, languages: tuple[str, str],
            settled: set[int] = frozenset()) -> OneLanguageBatch:
    """Settle, load and mine the one-language sites among ``site_ids`` and write their C(w) rows; the
    others are left in ``full_path``. ``settled``: sites whose languages need no settling again."""
    batch = OneLanguageBatch(crawl_id, cfg, languages)
    batch.groups = groups = groups_of(crawl_id, site_ids, cfg.group_max_sites)
    alone = sorted(site_id for site_id, group in groups.items() if len(group) == 1)
    to_settle = [site_id for site_id in alone if site_id not in settled]
    if to_settle:
        settle_sites_languages(crawl_id, to_settle)
    # the full path's sites among them need no second settling (nor a second read of their group)
    batch.settled = set(settled) | set(alone)
    # The pages' labels tell the one-language sites; only those are loaded (with their links) here: a
    # bilingual site's pages and links were read twice, here and by the full path.
    labels = page_labels(crawl_id, alone)
    candidates = [site_id for site_id in alone if shows_one_language(labels.get(site_id, ()), languages)]
    loaded = load_sites(crawl_id, [groups[site_id] for site_id in candidates], text=False)
    candidates = sorted(set(candidates) - _kept_by_full_path(crawl_id, candidates, loaded))
    for site_id in candidates:
        site = loaded[site_id]
        if not site.pages:
            batch.empty.append(site_id)
            continue
        mined = mine_site_patterns(site.site.name, [(r.url, r.lang) for r in site.records.values()],
                                   languages=languages)
        if not mined.patterns:
            batch.sites[site_id] = (site, mined)
    handled = set(batch.handled)
    batch.full_path = [site_id for site_id in site_ids if site_id not in handled]
    _store_credibilities(crawl_id, batch)
    return batch


def guess(batch: OneLanguageBatch, global_patterns, domain_credibilities, conventions) -> list[int]:
    """Propose for each prepared site under the global patterns and store its deep-page guesses.
    Returns the sites handed back to the full path (a method proposed something after all)."""
    back, checks = [], []
    for site_id, (loaded, mined) in sorted(batch.sites.items()):
        proposals = pair_service.propose(loaded, mined, global_patterns, domain_credibilities, batch.cfg,
                                         batch.languages, conventions)
        if proposals.variants or any(proposals.by_method.values()):
            back.append(site_id)
            continue
        checks += pair_service.deep_check_rows(batch.crawl_id, loaded.site, proposals.guesses)
    checks = deep_service.rows_worth_storing(batch.crawl_id, checks, batch.cfg)
    DeepCheck.objects.bulk_create(checks, ignore_conflicts=True, batch_size=500)
    for site_id in back:
        del batch.sites[site_id]
    batch.full_path += back
    return back


def shows_one_language(page_labels, languages: tuple[str, str]) -> bool:
    """At most one language of the pair among the pages' (language, script) labels, and Serbian (if
    shown) in one script only."""
    bases = {base_language(language) for language, _ in page_labels}
    scripts = {script_of(language, script) for language, script in page_labels if base_language(language) == "sr"}
    return not set(languages) <= bases and not {"latn", "cyrl"} <= scripts


def _kept_by_full_path(crawl_id: int, site_ids: list[int], loaded: dict[int, LoadedSite]) -> set[int]:
    """Sites with rows the full path maintains (a site that showed two languages once, or was scored
    as a group), and sites with a guess both of whose URLs are stored pages now."""
    keep: set[int] = set()
    for model in (UrlPattern, CandidatePair, ScriptVariant):
        keep |= set(model.objects.filter(crawl_id=crawl_id, site_id__in=site_ids).values_list("site_id", flat=True))
    # Such a guess cannot make a pair on a one-language site (its page is not in the expected language);
    # the full path marks it checked ("stored page of the crawl"), once.
    guesses = DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=set(site_ids) - keep,
                                       checked_at__isnull=True).values_list("site_id", "page_url", "guessed_url")
    for site_id, page_url, guessed_url in guesses:
        by_url = loaded[site_id].page_by_url
        if page_url in by_url and guessed_url in by_url:
            keep.add(site_id)
    return keep


@transaction.atomic
def _store_credibilities(crawl_id: int, batch: OneLanguageBatch) -> None:
    """Each site's C(w) row as patterns.store_sites_patterns writes it (only values that changed), under
    the sites' claim locks, so a scoring job of one of them waits (patterns.lock_sites)."""
    lock_sites(crawl_id, batch.sites)
    store_credibilities(crawl_id, {site_id: credibility_values(loaded, mined, batch.languages)
                                   for site_id, (loaded, mined) in batch.sites.items()})
