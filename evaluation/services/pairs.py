"""Pairs of one site: every method's proposals, the Def. 9 + content filter, stored idempotently.

After the filter, the copies rule (evaluation/pairing/copies.py): copies of one page within a
language keep one pair, the best-aligned, with the other language's distinct pages.

The methods are the library's (evaluation/pairing), run the way pipeline.run_pairing runs them
but with the crawl's stored global patterns (Def. 4 over all scored sites) and stored domain
credibility instead of recomputing them from this one site.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from crawlweb.services.bulk_rows import update_columns
from evaluation.models import CandidatePair, DeepCheck, ScriptVariant
from evaluation.pairing.content import content_pairs
from evaluation.pairing.copies import CopyPage, copies_to_remove, copy_groups
from evaluation.pairing.declared import hreflang_pairs
from evaluation.pairing.switch import switch_pairs
from evaluation.pairing.deep import (
    DeepGuess,
    confirm_deep_pair,
    conventional_patterns,
    credible_site_patterns,
    dead_link_guesses,
    deep_guesses,
    entry_pages,
    home_pages,
    language_unit_forms,
    unit_less_forms,
)
from evaluation.pairing.methods import (
    combine_candidates,
    local_pairs,
    one_to_one_among_kept,
    rescue_domain_pairs,
    rescue_global_pairs,
)
from evaluation.pairing.records import base_language, script_of
from evaluation.pairing.scripts import script_variant_pairs, serbian_scripts, split_script_variants
from evaluation.pairing.similarity import PairVerdict, filter_pairs, pattern_weights
from evaluation.services.patterns import lock_sites
from frontier.models import Target
from evaluation.bodies.page_body import SiteLines, bodies
from evaluation.bodies.sentence_alignment import align
from evaluation.lexicon_in_use import lexicon_in_use
from evaluation.trained_models import pair_deciders

DEAD_STATUS = (404, 410)  # a site's own link that answered this is a dead link (deep.dead_link_guesses)
MAX_DEAD_LINKS = 100  # dead links of a site guessed in one scoring (two guesses each)
METHODS = ("hreflang", "switch", "local", "rescue_global", "rescue_domain", "deep", "content")
ONE_TO_ONE_REASON = "one-to-one: a page of this pair is paired with a better candidate"


@dataclass
class SitePairs:
    by_method: dict[str, list] = field(default_factory=dict)
    guesses: list[DeepGuess] = field(default_factory=list)
    variants: list = field(default_factory=list)


def propose(loaded, mined, global_patterns, domain_credibilities, cfg, languages,
            convention_patterns=frozenset(), crawl_id: int | None = None) -> SitePairs:
    """Each method's candidate pairs for one site (pipeline.run_pairing, for one site); with ``crawl_id``,
    also the guesses of the site's dead links (deep.dead_link_guesses, which read the crawl's Targets)."""
    out = SitePairs()
    out.by_method["local"] = local_pairs(mined, threshold=cfg.local_threshold, min_frequency=cfg.min_frequency)
    out.by_method["rescue_global"] = rescue_global_pairs(mined, global_patterns, local_threshold=cfg.local_threshold,
                                                         theta_unnormalized=cfg.theta_unnormalized)
    out.by_method["rescue_domain"] = rescue_domain_pairs(
        mined, loaded.domain, domain_credibilities, min_domain_credibility=cfg.min_domain_credibility,
        lowered_threshold=cfg.lowered_threshold, local_threshold=cfg.local_threshold, min_frequency=cfg.min_frequency)
    s = loaded.site_input
    kept, same_language = split_script_variants(hreflang_pairs(loaded.languages_of, s.alternates, languages=languages),
                                                loaded.languages_of)
    switched, same_script = split_script_variants(switch_pairs(loaded.languages_of, s.switch_links, languages=languages),
                                                  loaded.languages_of)
    out.by_method["hreflang"], out.by_method["switch"] = kept, switched
    same_language += same_script
    declared_scripts = [(a, b) for a, alts in s.alternates.items() for b in alts.values()]
    out.variants = script_variant_pairs(s.pages, declared=declared_scripts) + same_language
    paired = {u for group in out.by_method.values() for c in group for u in c.key}
    # Our addition: only a site's convention guesses URLs, i.e. a pattern that pairs at least
    # min_frequency pages within one site.  Coincidences (⟨6, 5⟩ from izvestaj-6 ↔ izvestaj-5,
    # ⟨kontakt, usluge⟩ once on each of many sites) would otherwise sit among the top 10.
    conventions = {k: g for k, g in global_patterns.items() if k in convention_patterns}
    # Every unpaired page of a site with a credible pattern of its own gets that pattern's guess
    # (not only when the pattern is among the crawl's top N), and the globally conventional ones.
    own = credible_site_patterns(mined, threshold=cfg.local_threshold, min_frequency=cfg.min_frequency)
    # The conventional guesses only on a site that shows both languages: on a monolingual site (a web
    # directory, a Croatian shop) each of its pages cost five HEAD requests for nothing.
    both = set(languages) <= set(loaded.languages_of.values())
    common = conventional_patterns(languages) if cfg.deep_conventions and both else []
    # Guess from every URL of a page, not only the one it is stored under: the home stored as /
    # is also /index.html, whose -sr twin (/index-sr.html) only that URL can guess.
    by_any_url = {u: loaded.languages_of[p.url] for u, p in loaded.page_by_url.items() if p.url in loaded.languages_of}
    paired = {u for u, p in loaded.page_by_url.items() if p.url in paired} | paired
    # A site that shows one language (most of a national web) is guessed from its entrance only: each
    # page's guess cost a HEAD request, and 99.7 % of them answered 404. Once an entrance guess finds
    # the other language the site shows both, and its next scoring guesses from every page.
    guessed_from = by_any_url if both else entry_pages(by_any_url, cfg.deep_one_language_pages)
    guesses = deep_guesses(guessed_from, paired, conventions, top_n=cfg.deep_top_n, languages=languages,
                           site_patterns=own, conventions=common)
    shown = set(languages) & {base_language(lang) for lang in loaded.languages_of.values()}
    if cfg.deep_conventions and shown and not both:
        # A site that shows one language of the pair may hide the other behind a switch built by an
        # external script, or link it from nowhere (a home index.html with an unlinked index-sr.html):
        # its home page alone gets the conventional guesses (a few HEAD requests per site).
        known = {(g.page_url, g.guessed_url) for g in guesses}
        guesses += [g for g in deep_guesses(home_pages(by_any_url), paired, {}, top_n=0, languages=languages,
                                            conventions=conventional_patterns(languages))
                    if (g.page_url, g.guessed_url) not in known]
    if cfg.deep_conventions and both and crawl_id is not None:
        # the site's own credible patterns, and the conventional ones it shows even once (index_sr ↔ index_en)
        conventional = set(conventional_patterns(languages))
        shown = [g for g in credible_site_patterns(mined, threshold=0.0, min_frequency=1) if g.pattern in conventional]
        guesses += _dead_link_guesses(crawl_id, loaded, own + shown, languages,
                                      {(g.page_url, g.guessed_url) for g in guesses})
    out.guesses = guesses[:cfg.deep_max_guesses]
    return out


def _dead_link_guesses(crawl_id: int, loaded, own, languages, known) -> list[DeepGuess]:
    """deep.dead_link_guesses for a site whose pages carry a language unit its links leave out: two
    queries, and only when one of its own patterns has a unit-less form to look for among its links."""
    bases = unit_less_forms(own)
    if not bases:
        return []
    linked = set(Target.objects.filter(crawl_id=crawl_id, url__in=sorted(bases)).values_list("url", flat=True))
    if not language_unit_forms(own, linked, languages):
        return []
    dead = Target.objects.filter(crawl_id=crawl_id, host__site__in=loaded.group, state=Target.State.FAILED,
                                 status_code__in=DEAD_STATUS).order_by("id").values_list("url", flat=True)
    return [g for g in dead_link_guesses(dead[:MAX_DEAD_LINKS], own, linked, languages)
            if (g.page_url, g.guessed_url) not in known]


def confirmed_deep_pairs(crawl_id: int, proposed: list, languages) -> list[list]:
    """Method "deep" for each (loaded, proposals) of ``proposed``: record the guesses; a guess whose URL
    is a stored page in the expected language is a pair (the crawl's own fetch and language
    identification confirm it). Returns each site's pairs, in order; every site's guesses are read and
    written together."""
    stored = DeepCheck.objects.filter(crawl_id=crawl_id, site_id__in=[loaded.site.pk for loaded, _ in proposed])
    checks_of: dict[int, list[DeepCheck]] = defaultdict(list)
    for check in stored:
        checks_of[check.site_id].append(check)
    new = []
    for loaded, proposals in proposed:
        # A site scored again guesses what it guessed before: insert (and read back) only new guesses.
        known = {(check.page_url, check.guessed_url) for check in checks_of[loaded.site.pk]}
        new += [row for row in deep_check_rows(crawl_id, loaded.site, proposals.guesses)
                if (row.page_url, row.guessed_url) not in known]
    if new:
        DeepCheck.objects.bulk_create(new, ignore_conflicts=True, batch_size=500)
        grown = {row.site_id for row in new}
        for site_id in grown:
            checks_of[site_id] = []
        for check in stored.filter(site_id__in=grown):
            checks_of[check.site_id].append(check)
    pairs_of, fetched = [], []
    for loaded, _ in proposed:
        pairs = []
        for check in checks_of[loaded.site.pk]:
            page, own = loaded.page_by_url.get(check.guessed_url), loaded.page_by_url.get(check.page_url)
            if page is None or own is None or own.url not in loaded.records:
                continue
            if check.checked_at is None:  # the crawl fetched it: no HEAD request needed
                fetched.append(check.pk)
            forward = base_language(loaded.languages_of.get(own.url)) == languages[0]
            guess = DeepGuess(own.url, page.url, (check.source_unit, check.target_unit),
                              loaded.languages_of.get(own.url, ""), check.expected_language,
                              check.pattern_credibility, forward)
            pair = confirm_deep_pair(guess, True, page.language)
            if pair is not None:
                pairs.append(pair)
        pairs_of.append(pairs)
    if fetched:  # one statement, not one per guess: a big site's guesses are fetched by the crawl in hundreds
        DeepCheck.objects.filter(pk__in=fetched).update(exists=True, outcome="stored page of the crawl",
                                                        checked_at=timezone.now())
    return pairs_of


def deep_check_rows(crawl_id: int, site, guesses: list[DeepGuess]) -> list[DeepCheck]:
    """The unsaved DeepCheck row of each guess (a guess already stored is kept as it is: ignore_conflicts)."""
    return [DeepCheck(crawl_id=crawl_id, site=site, page_url=g.page_url[:2000], guessed_url=g.guessed_url[:2000],
                      source_unit=g.pattern[0][:200], target_unit=g.pattern[1][:200],
                      expected_language=g.expected_language, pattern_credibility=g.credibility)
            for g in guesses]


def judge(loaded, proposals: SitePairs, deep: list, global_patterns, cfg, languages):
    """All proposals merged; the one-to-one choice; the filter's verdict on every candidate.

    Returns (candidate, verdict, chosen) triples. The one-to-one choice is made among the candidates
    the filter keeps. The candidates it drops are read by the filter too (and stored removed, with the
    filter's scores), so a promoted pair classifier can decide among them and the evaluation's
    "removed" stratum shows what they were."""
    groups = [proposals.by_method.get(m, []) for m in METHODS if m not in ("deep", "content")] + [deep]
    lexicon = lexicon_in_use()
    site_lines = (SiteLines.from_pages((r.url, r.text) for r in loaded.records.values())  # content and filter read bodies
                  if cfg.content_pairing or lexicon is not None else None)
    if cfg.content_pairing:  # last: only pages every URL method left alone
        paired = {u for group in groups for c in group for u in c.key}
        groups.append(content_pairs(loaded.records.values(), paired, languages=languages,
                                    threshold=cfg.content_threshold, lexicon=lexicon,
                                    lexicon_threshold=cfg.content_lexicon_threshold, site_lines=site_lines))
    everything = combine_candidates(*groups, one_to_one=False)
    weights = pattern_weights(global_patterns, top_n=cfg.filter_top_n, scale=cfg.filter_scale)
    verdicts = dict((c.key, v) for c, v in filter_pairs(
        everything, loaded.records, weights, languages=languages,
        alpha=cfg.filter_alpha, threshold=cfg.filter_threshold,
        length_ratio=(cfg.length_ratio_low, cfg.length_ratio_high), check_structure=cfg.check_structure,
        max_dp=cfg.structure_max_dp, lexicon=lexicon, site_lines=site_lines,
        min_body_coverage=cfg.min_body_coverage, min_aligned_share=cfg.min_aligned_share,
        min_sentence_alignment=cfg.min_sentence_alignment))
    if cfg.copies_rule:
        _apply_copies_rule(loaded, everything, verdicts, lexicon, languages)
    scripts = serbian_scripts(loaded.records.values())
    chosen = one_to_one_among_kept(groups, lambda c: verdicts[c.key].keep, scripts)
    return [(c, verdicts.get(c.key), c.key in chosen) for c in everything]


def _apply_copies_rule(loaded, everything, verdicts, lexicon, languages) -> None:
    """Copies of one page within a language keep one pair with the other language's distinct pages
    (evaluation/pairing/copies.py): the others' verdicts become removals naming the copy."""
    groups = copy_groups(CopyPage(page.url, page.language, page.text or "") for page in loaded.pages)
    if not groups:
        return
    texts = {page.url: page.text or "" for page in loaded.pages}
    dictionary = lexicon.read_from(*languages) if lexicon is not None else None

    def rank(cand) -> float:
        return align(*bodies(texts.get(cand.source_url, ""), texts.get(cand.target_url, ""), None), dictionary).score

    kept = [c for c in everything if verdicts.get(c.key) is not None]
    for key, reason in copies_to_remove(kept, lambda c: verdicts[c.key].keep, groups, rank).items():
        verdicts[key] = PairVerdict(False, reason, {**verdicts[key].scores, "copies": True})


@transaction.atomic
def store_sites_pairs(crawl_id: int, judged_sites: list, languages) -> None:
    """Each (loaded, judged, variants) of ``judged_sites``: upsert its site's pairs by (crawl, source
    URL, target URL), remove the pairs the site no longer proposes, and its script variants; every
    site's rows read and written together, under their claim locks."""
    ids = [loaded.site.pk for loaded, _, _ in judged_sites]
    lock_sites(crawl_id, ids)
    existing_of: dict[int, dict] = defaultdict(dict)
    for row in CandidatePair.objects.filter(crawl_id=crawl_id, site_id__in=ids):
        existing_of[row.site_id][(row.source_url, row.target_url)] = row
    deciders = pair_deciders(crawl_id, ids) or {}  # a promoted pair classifier decides kept; none: the filter
    new, stored, gone, before = [], [], [], {}
    for loaded, judged, _ in judged_sites:
        existing, read = existing_of[loaded.site.pk], []
        for cand, verdict, chosen in judged:
            row = existing.pop(cand.key, None) or CandidatePair(crawl_id=crawl_id, site=loaded.site,
                                                                 source_url=cand.source_url, target_url=cand.target_url)
            if row.pk:
                before[row.pk] = _stored_values(row)
            _fill(row, cand, verdict, chosen, loaded, languages)
            if verdict is not None:
                read.append(row)
            (stored if row.pk else new).append(row)
        decide = deciders.get(loaded.site.pk)
        if decide is not None:
            decide(read, SiteLines.from_pages((page.url, page.text or "") for page in loaded.pages))
        gone += [row.pk for row in existing.values()]
    if gone:
        CandidatePair.objects.filter(pk__in=gone).delete()
    # A site is scored again after every crawl step that adds pages to it: most of its pairs change in
    # a few columns (Def. 9's global part, the body cover as the site's boilerplate is learnt), if at all.
    update_columns(CandidatePair, _changed_columns(stored, before))
    CandidatePair.objects.bulk_create(new, batch_size=500, ignore_conflicts=True)
    _store_variants(crawl_id, [(loaded, variants) for loaded, _, variants in judged_sites])


FIELDS = ["source_page", "target_page", "method", "methods", "pattern_source_unit", "pattern_target_unit",
          "has_pattern", "score", "evidence", "similarity", "sim_same", "sim_pattern", "scores", "kept", "reason",
          "source_language", "target_language", "languages_confirmed"]


def _stored_values(row: CandidatePair) -> tuple:
    """The row's values in FIELDS, by column (a page is its id), to tell what scoring changed."""
    return tuple(getattr(row, attname) for attname in _ATTNAMES)


_ATTNAMES = [CandidatePair._meta.get_field(name).attname for name in FIELDS]


def _changed_columns(rows: list[CandidatePair], before: dict[int, tuple]) -> dict[str, dict[int, object]]:
    """{field name: {row id: new value}} for the values that differ from ``before`` (by row id)."""
    columns: dict[str, dict[int, object]] = {}
    for row in rows:
        for name, old, new in zip(FIELDS, before[row.pk], _stored_values(row)):
            if old != new:
                columns.setdefault(name, {})[row.pk] = new
    return columns


def _fill(row: CandidatePair, cand, verdict, chosen: bool, loaded, languages) -> None:
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
    row.scores["filter_kept"] = verdict.keep
    if verdict.keep and not chosen:
        row.kept, row.reason = False, f"{ONE_TO_ONE_REASON} (filter: kept)"
        row.scores["one_to_one_dropped"] = True
    script = _serbian_script(source, target)
    if script:  # a Latin and a Cyrillic page may each pair with one English page: say which this is
        row.scores["script"] = script
    row.similarity, row.sim_same, row.sim_pattern = (verdict.scores.get(k) for k in ("sim", "sim_same", "sim_pattern"))


def _serbian_script(*pages) -> str:
    """"latn" / "cyrl" of the pair's Serbian page, when known."""
    for page in pages:
        if page is not None and base_language(page.language) == "sr":
            code = script_of(page.language, page.script)
            if code in ("latn", "cyrl"):
                return code
    return ""


def _store_variants(crawl_id: int, sites: list) -> None:
    """The script variants of each (loaded, variants): stale ones removed, new ones added."""
    found = {loaded.site.pk: {(v.latin_url, v.cyrillic_url): v for v in variants} for loaded, variants in sites}
    stale = [pk for pk, site_id, a, b in ScriptVariant.objects.filter(crawl_id=crawl_id, site_id__in=list(found))
             .values_list("pk", "site_id", "latin_url", "cyrillic_url") if (a, b) not in found[site_id]]
    if stale:  # most sites have none, before and after: no DELETE of nothing
        ScriptVariant.objects.filter(pk__in=stale).delete()
    rows = [ScriptVariant(crawl_id=crawl_id, site=loaded.site, latin_url=a, cyrillic_url=b, evidence=v.evidence[:300],
                          latin_page=loaded.page_by_url.get(a), cyrillic_page=loaded.page_by_url.get(b))
            for loaded, _ in sites for (a, b), v in found[loaded.site.pk].items()]
    if rows:
        ScriptVariant.objects.bulk_create(rows, ignore_conflicts=True)
