"""Filtering non-parallel pairs: Def. 9 bilingual similarity plus a content check.

Def. 9: Sim(wT, wS) = α·Sim_Same(LT, LS) + (1 − α)·Sim_Pattern(LT, LS), α = 0.5, with
- Sim_Same = 2·|LT ∩ LS| / (|LT| + |LS|)  (shared outlinks, counted in both sets);
- Sim_Pattern = Σ_π N(k, π)·C(k) / (|LT| + |LS|), N(k, π) = 2, over outlink pairs
  π = ⟨l, l′⟩ ∈ LS×LT that a pattern k among the top 30 by global credibility
  matches (Def. 1).  When several top patterns match one π, the most credible
  one counts (one term per outlink pair).
C(k) is whatever ``pattern_credibility`` holds: ``pattern_weights`` builds it on the
normalized, un-normalized or unit scale (the method's experiment used unit).
Pairs with Sim ≤ threshold (0) are filtered out.  When NEITHER page has an outlink,
Sim is 0/0: the method has no evidence either way, so by default (``no_links="keep"``)
such a pair skips the Def. 9 test and goes on to the content check; ``"filter"``
treats it as Sim = 0.

The content check is our addition (the method lacks it): both languages
confirmed, the pair is not two script variants of one Serbian text, a text-length
ratio within bounds, neither side left untranslated (untranslated.py: a body in the
other language under a translated menu), with a bilingual dictionary the two bodies saying the same
(body_coverage.py: not a body of its own under a translated frame, unless the two bodies' sentences align
as an adapted translation's do), and optionally STRAND structure
(dp ≤ max_dp), read from the pages' HTML or, in a crawl, from the tag signatures stored with the pages.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urldefrag

from evaluation.bodies.lexicon import Lexicon
from evaluation.bodies.page_body import SiteLines

from .body_coverage import MIN_ALIGNED, MIN_ALIGNMENT, MIN_COVERAGE, body_coverage_reason
from .patterns import GlobalPattern, mine_pairs, top_global_patterns
from .recent import RecentResults
from .records import DEFAULT_LANGUAGES, CandidatePair, PageRecord, Pattern, check_languages
from .scripts import cyrillic_share, is_script_variant_pair, transliteration_similarity
from .strand import MAX_TOKENS, linearize, signature_tokens, strand_scores_of_tokens, visible_text
from .untranslated import untranslated_reason

SCALES = ("normalized", "unnormalized", "unit")


@dataclass(frozen=True)
class SimilarityScores:
    sim: float
    sim_same: float
    sim_pattern: float
    shared_links: int
    pattern_link_pairs: int


@dataclass
class PairVerdict:
    keep: bool
    reason: str
    scores: dict = field(default_factory=dict)


def pattern_weights(global_patterns: Mapping[Pattern, GlobalPattern], *, top_n: int = 30,
                    scale: str = "normalized") -> dict[Pattern, float]:
    """C(k) of the top_n patterns by global credibility, on the chosen scale."""
    if scale not in SCALES:
        raise ValueError(f"unknown credibility scale {scale!r}; use one of {SCALES}")
    top = top_global_patterns(global_patterns, top_n)
    if scale == "unit":
        return {g.pattern: 1.0 for g in top}
    if scale == "unnormalized":
        return {g.pattern: g.credibility_unnormalized for g in top}
    return {g.pattern: g.credibility for g in top}


def _links(links: Iterable[str]) -> set[str]:
    return {urldefrag(link)[0] for link in links if link}


def bilingual_similarity(source_links: Iterable[str], target_links: Iterable[str],
                         pattern_credibility: Mapping[Pattern, float], *, alpha: float = 0.5) -> SimilarityScores:
    """Def. 9 for a pair (wS in languages[0], wT in languages[1]) from their outlinks."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    ls, lt = _links(source_links), _links(target_links)
    total = len(ls) + len(lt)
    if total == 0:
        return SimilarityScores(0.0, 0.0, 0.0, 0, 0)
    shared = len(ls & lt)
    sim_same = 2 * shared / total
    best: dict[tuple[str, str], float] = {}
    if pattern_credibility:
        found, _ = mine_pairs(sorted(ls), sorted(lt))
        for pattern, entry in found.items():
            weight = pattern_credibility.get(pattern)
            if weight is None:
                continue
            for pair in entry.pairs:
                best[pair] = max(best.get(pair, 0.0), weight)
    sim_pattern = sum(2 * w for w in best.values()) / total  # N(k, π) = 2
    sim = alpha * sim_same + (1 - alpha) * sim_pattern
    return SimilarityScores(sim, sim_same, sim_pattern, shared, len(best))


_untranslated_read = RecentResults(20_000)  # ~10 MB; a crawl of 78,000 pages had 14,000 candidate pairs


def filter_pair(source: PageRecord, target: PageRecord, pattern_credibility: Mapping[Pattern, float], *,
                languages=DEFAULT_LANGUAGES, alpha: float = 0.5, threshold: float = 0.0,
                check_content: bool = True, length_ratio: tuple[float, float] = (0.33, 3.0),
                check_structure: bool = False, max_dp: float = 0.5,
                max_transliteration_similarity: float = 0.8, no_links: str = "keep",
                check_untranslated: bool = True, lexicon: Lexicon | None = None,
                site_lines: SiteLines | None = None, min_body_coverage: float = MIN_COVERAGE,
                min_aligned_share: float = MIN_ALIGNED, min_sentence_alignment: float = MIN_ALIGNMENT) -> PairVerdict:
    """Verdict on one candidate pair: keep or filter, with the reason and all scores (``lexicon``: a
    dictionary of the two languages, ``site_lines``: the site's line counts, for the body check)."""
    first, second = check_languages(languages)
    low, high = length_ratio
    if not 0 < low <= 1 <= high:
        raise ValueError(f"length_ratio must be (low ≤ 1 ≤ high) with low > 0, got {length_ratio}")
    if no_links not in ("keep", "filter"):
        raise ValueError(f"no_links must be 'keep' or 'filter', got {no_links!r}")
    sim = bilingual_similarity(source.outlinks, target.outlinks, pattern_credibility, alpha=alpha)
    scores: dict = {"sim": sim.sim, "sim_same": sim.sim_same, "sim_pattern": sim.sim_pattern}
    undefined = not source.outlinks and not target.outlinks
    scores["sim_undefined"] = undefined
    if sim.sim <= threshold and not (undefined and no_links == "keep"):
        return PairVerdict(False, f"bilingual similarity {sim.sim:.3f} ≤ {threshold} (Def. 9)", scores)
    if not check_content:
        return PairVerdict(True, "bilingual similarity above threshold", scores)
    if is_script_variant_pair(source.lang, target.lang):
        return PairVerdict(False, "script variants of one Serbian page, not a translation", scores)
    if (source.base_lang, target.base_lang) != (first, second):
        return PairVerdict(False, f"languages not confirmed: {source.lang or '?'}–{target.lang or '?'}, "
                                  f"expected {first}–{second}", scores)
    if source.text_length and target.text_length:
        ratio = target.text_length / source.text_length
        scores["length_ratio"] = ratio
        if not low <= ratio <= high:
            return PairVerdict(False, f"text-length ratio {ratio:.2f} outside [{low}, {high}]", scores)
    elif source.text_length or target.text_length:
        return PairVerdict(False, "one page has no text", scores)
    texts = _text(source), _text(target)
    if all(texts) and max(cyrillic_share(texts[0]), cyrillic_share(texts[1])) > 0.3:
        translit = transliteration_similarity(*texts)
        scores["transliteration_similarity"] = translit
        if translit >= max_transliteration_similarity:
            return PairVerdict(False, "one page is the other transliterated (script variants)", scores)
    if check_untranslated:  # it reads the two texts only: remembered under them (a re-scored site's pairs)
        reason, figures = _untranslated_read.get((hash(texts[0]), hash(texts[1]), first, second),
                                                 lambda: untranslated_reason(source, target, texts, (first, second)))
        scores.update(figures)
        if reason:
            return PairVerdict(False, reason, scores)
    dictionary = lexicon.read_from(first, second) if lexicon is not None else None
    if dictionary is not None and (min_body_coverage > 0 or min_aligned_share > 0) and all(texts):
        reason, figures = body_coverage_reason(*texts, site_lines, dictionary, min_body_coverage,
                                               min_aligned=min_aligned_share, min_alignment=min_sentence_alignment)
        scores.update(figures)
        if reason:
            return PairVerdict(False, reason, scores)
    if check_structure:
        structures = _structure(source), _structure(target)
        scores["structure_checked"] = all(structures)
        if all(structures):  # a page stored without its signature is not judged on structure
            strand = strand_scores_of_tokens(*structures)
            scores.update(dp=strand.dp, n=strand.n, r=strand.r)
            if strand.dp > max_dp:
                return PairVerdict(False, f"structure differs: STRAND dp {strand.dp:.2f} > {max_dp}", scores)
    return PairVerdict(True, "bilingual similarity and content check passed", scores)


def _text(page: PageRecord) -> str:
    return page.text or (visible_text(page.html) if page.html else "")


def _structure(page: PageRecord) -> list | None:
    """STRAND tokens of a page: from its stored signature, else from its HTML."""
    if page.structure:
        return signature_tokens(page.structure)
    return linearize(page.html, MAX_TOKENS) if page.html else None


def filter_pairs(candidates: Iterable[CandidatePair], pages: Mapping[str, PageRecord],
                 pattern_credibility: Mapping[Pattern, float], **options) -> list[tuple[CandidatePair, PairVerdict]]:
    """filter_pair for every candidate; pages missing from ``pages`` are filtered with that reason.
    With a ``lexicon``, ``pages`` is the site's pages: their lines tell its template from the bodies."""
    if options.get("lexicon") is not None and "site_lines" not in options:
        options["site_lines"] = SiteLines.from_pages((url, _text(page)) for url, page in pages.items())
    out = []
    for cand in candidates:
        source, target = pages.get(cand.source_url), pages.get(cand.target_url)
        if source is None or target is None:
            missing = cand.source_url if source is None else cand.target_url
            out.append((cand, PairVerdict(False, f"page not available: {missing}")))
            continue
        out.append((cand, filter_pair(source, target, pattern_credibility, **options)))
    return out
