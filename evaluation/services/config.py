"""Parameters of the pairing method for a crawl.  Defaults are the method's values; each can be
overridden by a Django setting named PAIRS_<FIELD> (e.g. PAIRS_DISCOVERY_TOP_K = 100)."""
from __future__ import annotations

from dataclasses import dataclass, fields

from django.conf import settings


@dataclass(frozen=True)
class PairsSettings:
    local_threshold: float = 0.1          # method "local": C(k, w) ≥ 0.1
    min_frequency: int = 2                # our addition: a pattern seen once is no convention (1 = as published)
    theta_unnormalized: float = 500.0     # method "rescue_global": θ on the Σ N(k,wᵢ)·C(k,wᵢ) scale
    min_domain_credibility: float = 0.3   # method "rescue_domain": domains whose sites' mean C(w) reaches this...
    lowered_threshold: float = 0.03       # ...get this lower local threshold
    deep_top_n: int = 10                  # method "deep": top 10 patterns by global credibility
    deep_max_guesses: int = 200           # guesses recorded per site and scoring run
    deep_conventions: bool = True         # our addition: also guess with ⟨sr, en⟩, ⟨rs, en⟩, ⟨lat, en⟩, ⟨ε, en⟩, ⟨sr, ε⟩
    deep_checks: bool = True              # enqueue check_deep_pages (HEAD requests) after scoring
    deep_one_language_pages: int = 3      # our addition: a site showing one language of the pair is guessed
    #                                       from its home and this many shallowest pages, not every page
    deep_checks_per_job: int = 50
    deep_form_min_tries: int = 500        # our addition: a guess form (⟨ε, en⟩…) checked this many times in the crawl...
    deep_form_min_rate: float = 0.002     # ...that found a page at most this often is no longer checked, but for
    #                                       one guess in 20 (evaluation/pairing/guess_forms.py; 0 tries = always check)
    deep_rounds: int = 3                  # a finished crawl runs again this many times at most for the pages the
    #                                       guesses of the pass after its end found (0 = never: deep_rounds.py)
    content_pairing: bool = True          # our addition, method "content": pages no URL method paired, by shared
    content_threshold: float = 0.25       # numbers, names and length (evaluation/pairing/content.py)
    content_lexicon_threshold: float = 0.25  # ...and what the bodies say, with the bilingual dictionary
    filter_top_n: int = 30                # Def. 9: top 30 patterns by global credibility
    filter_scale: str = "normalized"      # C(k) scale in Sim_Pattern: normalized, unnormalized or unit
    filter_alpha: float = 0.5
    filter_threshold: float = 0.0         # Sim ≤ threshold is filtered out
    length_ratio_low: float = 0.33
    length_ratio_high: float = 3.0
    min_body_coverage: float = 0.45       # our addition: with a dictionary, bodies it finds less translated are
                                          # removed (evaluation/pairing/body_coverage.py; 0 = off)
    min_aligned_share: float = 0.3       # ...and so are bodies whose lines it finds too little aligned (0 = off)
    min_sentence_alignment: float = 0.67  # ...unless this share of their sentences align: an adapted translation
                                          # (evaluation/bodies/sentence_alignment.py; 0 = off)
    copies_rule: bool = True              # copies of one page in a language keep one pair with the other language's
                                          # distinct pages, the best-aligned (evaluation/pairing/copies.py)
    check_structure: bool = False         # STRAND over the pages' stored tag signatures (Page.tag_signature)
    structure_max_dp: float = 0.5         # ...a pair whose difference percentage dp exceeds this is filtered
    discovery_top_k: int = 500
    discovery_measure: str = "wpr"
    discovery_iterations: int = 1         # rankings; between two, the crawl fetches the new seeds and re-scores
    discovery_pages_per_site: int = 50    # a discovery round raises the crawl's budget to fetch this many per new seed
    rescore_growth: float = 2.0           # score_crawl during the crawl each time its pages grow this many times...
    rescore_min_pages: int = 100          # ...from this many pages on (0 growth: only when the crawl finishes)
    site_rescore_growth: float = 2.0      # score_site when a site has grown this many times since its last scoring...
    site_rescore_from_pages: int = 8      # ...to at least this many pages (0: its first page is scored at once)...
    site_quiet_seconds: float = 60.0      # ...or when pages no scoring saw have waited this long (site stopped growing)
    site_quiet_growth: float = 1.25       # ...and a site scored before has grown this many times since (1: any page)
    site_first_delay_seconds: float = 0.0  # ...a site never scored, this long after its first page (0: at once)
    group_max_sites: int = 20             # hosts of one registrable domain form one site, unless there are more

    @classmethod
    def current(cls) -> PairsSettings:
        values = {}
        for f in fields(cls):
            name = f"PAIRS_{f.name.upper()}"
            if hasattr(settings, name):
                values[f.name] = type(f.default)(getattr(settings, name))
        return cls(**values)


def crawl_languages(crawl) -> tuple[str, str]:
    """(source, target) language of the crawl; the library is always called with this order."""
    return (crawl.source_language or "sr", crawl.target_language or "en")
