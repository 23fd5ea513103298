"""One pass of the pairing methods over a set of candidate sites (pure).

``run_pairing`` mines every site (Def. 1–3), computes global credibility (Def. 4)
and site credibility (Def. 5), and returns each method's proposals separately
("local", "rescue_global", "rescue_domain", "hreflang", "switch", "content"), the "deep" guesses to
check, and the script variants.  After the fetcher has checked the guesses, the
lead turns them into pairs with ``confirm_deep_pair`` and calls
``combine_candidates`` on everything.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from evaluation.bodies.lexicon import Lexicon

from .content import LEXICON_THRESHOLD as CONTENT_LEXICON_THRESHOLD, THRESHOLD as CONTENT_THRESHOLD, content_pairs
from .declared import hreflang_pairs
from .deep import DeepGuess, conventional_patterns, credible_site_patterns, deep_guesses
from .methods import (LOCAL_THRESHOLD, THETA_UNNORMALIZED, combine_candidates, domain_credibility,
                      local_pairs, rescue_domain_pairs, rescue_global_pairs)
from .patterns import GlobalPattern, SitePatterns, global_credibility, mine_site_patterns
from .records import DEFAULT_LANGUAGES, CandidatePair, PageRecord, Pattern, check_languages
from .scripts import ScriptVariant, script_variant_pairs, serbian_scripts, split_script_variants
from .switch import SwitchLink, switch_pairs


@dataclass
class SiteInput:
    site: str
    pages: list[PageRecord]
    domain: str | None = None  # registrable domain or public suffix (gov.rs) for "rescue_domain"
    alternates: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # url → {hreflang: url}
    switch_links: list[SwitchLink] = field(default_factory=list)


@dataclass
class PairingConfig:
    languages: tuple[str, str] = DEFAULT_LANGUAGES
    local_threshold: float = LOCAL_THRESHOLD
    min_frequency: int = 2
    theta_unnormalized: float = THETA_UNNORMALIZED
    min_domain_credibility: float = 0.3
    lowered_threshold: float = 0.03
    deep_top_n: int = 10
    deep_conventions: bool = True  # also guess with ⟨sr, en⟩, ⟨rs, en⟩, ⟨ε, en⟩ … (deep.conventional_patterns)
    max_bucket_pairs: int | None = 1024
    content_pairing: bool = True  # our addition: method "content" for the pages no other method paired
    content_threshold: float = CONTENT_THRESHOLD
    lexicon: Lexicon | None = None  # method "content" reads what the bodies say with it (evaluation.bodies.lexicon)
    content_lexicon_threshold: float = CONTENT_LEXICON_THRESHOLD


@dataclass
class PairingResult:
    site_patterns: dict[str, SitePatterns]
    global_patterns: dict[Pattern, GlobalPattern]
    by_method: dict[str, list[CandidatePair]]
    deep_guesses: list[DeepGuess]
    script_variants: list[ScriptVariant]
    scripts: dict[str, str] = field(default_factory=dict)  # Serbian page url → latn / cyrl

    def combined(self, extra: Iterable[CandidatePair] = (), one_to_one: bool = True) -> list[CandidatePair]:
        return combine_candidates(*self.by_method.values(), extra, one_to_one=one_to_one, scripts=self.scripts)


def run_pairing(sites: Iterable[SiteInput], config: PairingConfig | None = None) -> PairingResult:
    config = config or PairingConfig()
    languages = check_languages(config.languages)
    sites = list(sites)
    mined = {s.site: mine_site_patterns(s.site, [(p.url, p.lang) for p in s.pages], languages=languages,
                                        max_bucket_pairs=config.max_bucket_pairs) for s in sites}
    global_patterns = global_credibility(mined.values())
    domains = {s.site: s.domain for s in sites if s.domain}
    domain_cred = domain_credibility(mined.values(), domains)
    by_method: dict[str, list[CandidatePair]] = {m: [] for m in
                                                 ("local", "rescue_global", "rescue_domain", "hreflang", "switch",
                                                  "content")}
    guesses: list[DeepGuess] = []
    conventions = conventional_patterns(languages) if config.deep_conventions else []
    variants: list[ScriptVariant] = []
    for s in sites:
        sp = mined[s.site]
        languages_of = {p.url: p.lang for p in s.pages}
        by_method["local"] += local_pairs(sp, threshold=config.local_threshold, min_frequency=config.min_frequency)
        by_method["rescue_global"] += rescue_global_pairs(sp, global_patterns, local_threshold=config.local_threshold,
                                                          theta_unnormalized=config.theta_unnormalized)
        by_method["rescue_domain"] += rescue_domain_pairs(
            sp, s.domain, domain_cred, min_domain_credibility=config.min_domain_credibility,
            lowered_threshold=config.lowered_threshold, local_threshold=config.local_threshold,
            min_frequency=config.min_frequency)
        kept, same_language = split_script_variants(hreflang_pairs(languages_of, s.alternates, languages=languages),
                                                    languages_of)
        switched, same_script = split_script_variants(switch_pairs(languages_of, s.switch_links, languages=languages),
                                                      languages_of)
        by_method["hreflang"] += kept
        by_method["switch"] += switched
        same_language += same_script
        declared_scripts = [(a, b) for a, alts in s.alternates.items() for b in alts.values()]
        variants += script_variant_pairs(s.pages, declared=declared_scripts) + same_language
        paired = {u for group in by_method.values() for c in group for u in c.key}
        if config.content_pairing:
            by_method["content"] += content_pairs(s.pages, paired, languages=languages,
                                                  threshold=config.content_threshold, lexicon=config.lexicon,
                                                  lexicon_threshold=config.content_lexicon_threshold)
        own = credible_site_patterns(sp, threshold=config.local_threshold, min_frequency=config.min_frequency)
        guesses += deep_guesses(languages_of, paired, global_patterns, top_n=config.deep_top_n, languages=languages,
                                site_patterns=own, conventions=conventions)
    scripts = {url: code for s in sites for url, code in serbian_scripts(s.pages).items()}
    return PairingResult(mined, global_patterns, by_method, guesses, variants, scripts)
