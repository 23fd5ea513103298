"""Candidate pairs from mined patterns: methods "local", "rescue_global", "rescue_domain".

Each function returns CandidatePair objects tagged with the method's name, with
source_url in languages[0] (see records.py).  ``combine_candidates`` merges the
output of all methods (including "deep", "hreflang" and "switch") and, optionally, keeps a
one-to-one pairing (one counterpart per page and script: see ``combine_candidates``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from .patterns import GlobalPattern, PatternStats, SitePatterns
from .records import CandidatePair, Pattern, pattern_label

LOCAL_THRESHOLD = 0.1  # the method's local credibility threshold
THETA_UNNORMALIZED = 500.0  # the method's θ, on the Σ N(k,wᵢ)·C(k,wᵢ) scale
METHOD_PRIORITY = {"hreflang": 0, "switch": 1, "local": 2, "rescue_global": 3, "rescue_domain": 4, "deep": 5,
                   "content": 6}


def _pairs(entry: PatternStats, method: str, score: float) -> list[CandidatePair]:
    return [CandidatePair(src, tgt, method, entry.pattern, score,
                          evidence=f"{pattern_label(entry.pattern)} p={entry.frequency} "
                                   f"C(k,w)={entry.local_credibility:.3f}")
            for src, tgt in sorted(entry.pairs)]


def local_pairs(site: SitePatterns, *, threshold: float = LOCAL_THRESHOLD,
                min_frequency: int = 2) -> list[CandidatePair]:
    """Method "local": patterns with C(k, w) ≥ threshold give their pairs in w.

    ``min_frequency`` is our addition (the method has none): on a small site one
    accidental pair (⟨kontakt, about⟩, p = 1) already passes C ≥ 0.1 when |w| ≤ 20;
    a pattern seen once is not yet a convention.  Set 1 for the method as published.
    """
    out = []
    for entry in site.ranked():
        if entry.local_credibility >= threshold and entry.frequency >= min_frequency:
            out += _pairs(entry, "local", entry.local_credibility)
    return out


def rescue_global_pairs(site: SitePatterns, global_patterns: Mapping[Pattern, GlobalPattern], *,
                        local_threshold: float = LOCAL_THRESHOLD,
                        theta_unnormalized: float = THETA_UNNORMALIZED) -> list[CandidatePair]:
    """Method "rescue_global": patterns below the local threshold kept because their
    global credibility Σ N(k,wᵢ)·C(k,wᵢ) (UN-normalized, Def. 4 without 1/N) ≥ θ."""
    out = []
    for entry in site.ranked():
        g = global_patterns.get(entry.pattern)
        if entry.local_credibility < local_threshold and g and g.credibility_unnormalized >= theta_unnormalized:
            out += _pairs(entry, "rescue_global", entry.local_credibility)
    return out


def domain_credibility(sites: Iterable[SitePatterns], site_domains: Mapping[str, str]) -> dict[str, float]:
    """Credibility of a domain (registrable domain or a public suffix such as gov.rs,
    given per site): the mean site credibility C(w) (Def. 5) of its sites."""
    totals: dict[str, list[float]] = {}
    for site in sites:
        domain = site_domains.get(site.site)
        if domain:
            totals.setdefault(domain, []).append(site.credibility)
    return {d: sum(v) / len(v) for d, v in totals.items()}


def rescue_domain_pairs(site: SitePatterns, domain: str | None, domain_credibilities: Mapping[str, float], *,
                        min_domain_credibility: float = 0.3, lowered_threshold: float = 0.03,
                        local_threshold: float = LOCAL_THRESHOLD, min_frequency: int = 2) -> list[CandidatePair]:
    """Method "rescue_domain": in a site whose domain has credibility ≥
    ``min_domain_credibility``, patterns with lowered_threshold ≤ C(k, w) < local_threshold
    are kept (such domains, e.g. gov.rs, tend to hold many bilingual pairs)."""
    if not domain or domain_credibilities.get(domain, 0.0) < min_domain_credibility:
        return []
    if lowered_threshold > local_threshold:
        raise ValueError("lowered_threshold must not exceed local_threshold")
    out = []
    for entry in site.ranked():
        if lowered_threshold <= entry.local_credibility < local_threshold and entry.frequency >= min_frequency:
            out += _pairs(entry, "rescue_domain", entry.local_credibility)
    return out


def combine_candidates(*groups: Iterable[CandidatePair], one_to_one: bool = True,
                       scripts: Mapping[str, str] | None = None) -> list[CandidatePair]:
    """Merge proposals of several methods.  The same pair proposed twice keeps the
    best-priority method and records all in ``methods``.  With ``one_to_one`` each
    page keeps one counterpart: declared pairs first, then higher pattern score.

    ``scripts`` (url → "latn"/"cyrl" of the Serbian pages, scripts.serbian_scripts) lets one
    page keep one counterpart *per script*: an English page may pair with both the Latin and
    the Cyrillic Serbian page, which are two translations of it (two pairs), while each
    Serbian page still keeps one English page."""
    scripts = scripts or {}
    merged: dict[tuple[str, str], CandidatePair] = {}
    for group in groups:
        for cand in group:
            old = merged.get(cand.key)
            if old is None:
                merged[cand.key] = CandidatePair(cand.source_url, cand.target_url, cand.method, cand.pattern,
                                                 cand.score, cand.evidence, set(cand.methods))
                continue
            old.methods |= cand.methods
            if METHOD_PRIORITY.get(cand.method, 9) < METHOD_PRIORITY.get(old.method, 9):
                old.method, old.pattern, old.score, old.evidence = cand.method, cand.pattern, cand.score, cand.evidence
    ordered = sorted(merged.values(), key=lambda c: (METHOD_PRIORITY.get(c.method, 9), -len(c.methods),
                                                     -c.score, c.key))
    if not one_to_one:
        return ordered
    used: set[tuple[str, str]] = set()  # (page, script of its counterpart)
    kept = []
    for cand in ordered:
        slots = ((cand.source_url, scripts.get(cand.target_url, "")), (cand.target_url, scripts.get(cand.source_url, "")))
        if used & set(slots):
            continue
        used.update(slots)
        kept.append(cand)
    return kept


def one_to_one_among_kept(groups: Iterable[Iterable[CandidatePair]], keeps: Callable[[CandidatePair], bool],
                          scripts: Mapping[str, str] | None = None) -> set[tuple[str, str]]:
    """The keys of the one-to-one choice (combine_candidates) among the candidates ``keeps`` accepts:
    a candidate the filter removes takes no page from another (a "cart" page paired by a URL pattern
    with the English home page must not cost the Serbian home page its deep-guessed counterpart)."""
    return {c.key for c in combine_candidates(*([c for c in group if keeps(c)] for group in groups),
                                              one_to_one=True, scripts=scripts)}

