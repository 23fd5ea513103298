"""Pairs of one site: every method's proposals, the Def. 9 + content filter, stored idempotently.

The methods are the library's (evaluation/pairing), run the way pipeline.run_pairing runs them
but with the crawl's stored global patterns (Def. 4 over all scored sites) and stored domain
credibility instead of recomputing them from this one site.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from evaluation.models import CandidatePair, DeepCheck, ScriptVariant
from evaluation.pairing.declared import hreflang_pairs, switcher_pairs
from evaluation.pairing.deep import DeepGuess, confirm_deep_pair, deep_guesses
from evaluation.pairing.methods import (
    combine_candidates,
    local_pairs,
    rescue_domain_pairs,
    rescue_global_pairs,
)
from evaluation.pairing.records import base_language
from evaluation.pairing.scripts import script_variant_pairs, split_script_variants
from evaluation.pairing.similarity import filter_pairs, pattern_weights
from evaluation.services.patterns import lock_site

METHODS = ("hreflang", "local", "rescue_global", "rescue_domain", "deep")
ONE_TO_ONE_REASON = "one-to-one: a page of this pair is paired with a better candidate"


@dataclass
class SitePairs:
    by_method: dict[str, list] = field(default_factory=dict)
    guesses: list[DeepGuess] = field(default_factory=list)
    variants: list = field(default_factory=list)


def propose(loaded, mined, global_patterns, domain_credibilities, cfg, languages,
            convention_patterns=frozenset()) -> SitePairs:
    """Each method's candidate pairs for one site (pipeline.run_pairing, for one site)."""
    out = SitePairs()
    out.by_method["local"] = local_pairs(mined, threshold=cfg.local_threshold, min_frequency=cfg.min_frequency)
    out.by_method["rescue_global"] = rescue_global_pairs(mined, global_patterns, local_threshold=cfg.local_threshold,
                                                         theta_unnormalized=cfg.theta_unnormalized)
    out.by_method["rescue_domain"] = rescue_domain_pairs(
        mined, loaded.domain, domain_credibilities, min_domain_credibility=cfg.min_domain_credibility,
        lowered_threshold=cfg.lowered_threshold, local_threshold=cfg.local_threshold, min_frequency=cfg.min_frequency)
    s = loaded.site_input
    declared = hreflang_pairs(loaded.languages_of, s.alternates, languages=languages)
    declared += switcher_pairs(loaded.languages_of, s.switch_links, languages=languages)
    kept, same_language = split_script_variants(declared, loaded.languages_of)
    out.by_method["hreflang"] = kept
    declared_scripts = [(a, b) for a, alts in s.alternates.items() for b in alts.values()]
    out.variants = script_variant_pairs(s.pages, declared=declared_scripts) + same_language
    paired = {u for group in out.by_method.values() for c in group for u in c.key}
    # Our addition: only a site's convention guesses URLs, i.e. a pattern that pairs at least
    # min_frequency pages within one site.  Coincidences (⟨6, 5⟩ from izvestaj-6 ↔ izvestaj-5,
    # ⟨kontakt, usluge⟩ once on each of many sites) would otherwise sit among the top 10.
    conventions = {k: g for k, g in global_patterns.items() if k in convention_patterns}
    out.guesses = deep_guesses(loaded.languages_of, paired, conventions, top_n=cfg.deep_top_n,
                               languages=languages)[:cfg.deep_max_guesses]
    return out


def confirmed_deep_pairs(crawl_id: int, loaded, proposals: SitePairs, languages) -> list:
    """Method "deep": record the guesses; a guess whose URL is a stored page in the expected
    language is a pair (the crawl's own fetch and language identification confirm it)."""
    DeepCheck.objects.bulk_create(
        [DeepCheck(crawl_id=crawl_id, site=loaded.site, page_url=g.page_url[:2000], guessed_url=g.guessed_url[:2000],
                   source_unit=g.pattern[0][:200], target_unit=g.pattern[1][:200],
                   expected_language=g.expected_language, pattern_credibility=g.credibility)
         for g in proposals.guesses], ignore_conflicts=True, batch_size=500)
    pairs = []
    checks = DeepCheck.objects.filter(crawl_id=crawl_id, site=loaded.site)
    for check in checks:
        page = loaded.page_by_url.get(check.guessed_url)
        if page is None or check.page_url not in loaded.records:
            continue
        if check.checked_at is None:  # the crawl fetched it: no HEAD request needed
            DeepCheck.objects.filter(pk=check.pk).update(exists=True, outcome="stored page of the crawl",
                                                         checked_at=timezone.now())
        forward = base_language(loaded.languages_of.get(check.page_url)) == languages[0]
        guess = DeepGuess(check.page_url, page.url, (check.source_unit, check.target_unit),
                          loaded.languages_of.get(check.page_url, ""), check.expected_language,
                          check.pattern_credibility, forward)
        pair = confirm_deep_pair(guess, True, page.language)
        if pair is not None:
            pairs.append(pair)
    return pairs


def judge(loaded, proposals: SitePairs, deep: list, global_patterns, cfg, languages):
    """All proposals merged; the one-to-one choice; the filter's verdict on the chosen ones."""
    groups = [proposals.by_method.get(m, []) for m in METHODS if m != "deep"] + [deep]
    everything = combine_candidates(*groups, one_to_one=False)
    chosen = {c.key for c in combine_candidates(*groups, one_to_one=True)}
    weights = pattern_weights(global_patterns, top_n=cfg.filter_top_n, scale=cfg.filter_scale)
    verdicts = dict((c.key, v) for c, v in filter_pairs(
        [c for c in everything if c.key in chosen], loaded.records, weights, languages=languages,
        alpha=cfg.filter_alpha, threshold=cfg.filter_threshold,
        length_ratio=(cfg.length_ratio_low, cfg.length_ratio_high), check_structure=cfg.check_structure,
        max_dp=cfg.structure_max_dp))
    return [(c, verdicts.get(c.key)) for c in everything]


@transaction.atomic
def store_pairs(crawl_id: int, loaded, judged, variants, languages) -> None:
    """Upsert by (crawl, source URL, target URL); pairs the site no longer proposes are removed."""
    lock_site(crawl_id, loaded.site)
    existing = {(p.source_url, p.target_url): p for p in CandidatePair.objects.filter(crawl_id=crawl_id, site=loaded.site)}
    new, changed = [], []
    for cand, verdict in judged:
        row = existing.pop(cand.key, None) or CandidatePair(crawl_id=crawl_id, site=loaded.site,
                                                             source_url=cand.source_url, target_url=cand.target_url)
        _fill(row, cand, verdict, loaded, languages)
        (changed if row.pk else new).append(row)
    CandidatePair.objects.filter(pk__in=[p.pk for p in existing.values()]).delete()
    CandidatePair.objects.bulk_update(changed, FIELDS, batch_size=500)
    CandidatePair.objects.bulk_create(new, batch_size=500, ignore_conflicts=True)
    _store_variants(crawl_id, loaded, variants)


FIELDS = ["source_page", "target_page", "method", "methods", "pattern_source_unit", "pattern_target_unit",
          "has_pattern", "score", "evidence", "similarity", "sim_same", "sim_pattern", "scores", "kept", "reason",
          "source_language", "target_language", "languages_confirmed"]


def _fill(row: CandidatePair, cand, verdict, loaded, languages) -> None:
    source, target = loaded.page_by_url.get(cand.source_url), loaded.page_by_url.get(cand.target_url)
    row.source_page, row.target_page = source, target
    row.method, row.methods = cand.method, sorted(cand.methods)
    row.has_pattern = cand.pattern is not None
    row.pattern_source_unit, row.pattern_target_unit = (u[:200] for u in (cand.pattern or ("", "")))
    row.score, row.evidence = cand.score, cand.evidence[:500]
    row.source_language = source.language if source else ""
    row.target_language = target.language if target else ""
    row.languages_confirmed = (base_language(row.source_language), base_language(row.target_language)) == languages
    if verdict is None:
        row.kept, row.reason, row.scores = False, ONE_TO_ONE_REASON, {}
        row.similarity = row.sim_same = row.sim_pattern = None
        return
    row.kept, row.reason = verdict.keep, verdict.reason[:300]
    row.scores = {k: v for k, v in verdict.scores.items() if isinstance(v, (int, float, bool))}
    row.similarity, row.sim_same, row.sim_pattern = (verdict.scores.get(k) for k in ("sim", "sim_same", "sim_pattern"))


def _store_variants(crawl_id: int, loaded, variants) -> None:
    found = {(v.latin_url, v.cyrillic_url): v for v in variants}
    ScriptVariant.objects.filter(crawl_id=crawl_id, site=loaded.site).exclude(
        pk__in=[pk for pk, a, b in ScriptVariant.objects.filter(crawl_id=crawl_id, site=loaded.site)
                .values_list("pk", "latin_url", "cyrillic_url") if (a, b) in found]).delete()
    ScriptVariant.objects.bulk_create(
        [ScriptVariant(crawl_id=crawl_id, site=loaded.site, latin_url=a, cyrillic_url=b, evidence=v.evidence[:300],
                       latin_page=loaded.page_by_url.get(a), cyrillic_page=loaded.page_by_url.get(b))
         for (a, b), v in found.items()], ignore_conflicts=True)
