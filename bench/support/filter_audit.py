"""The filter of non-parallel pairs measured as the method measured it: of the pairs it removes,
how many are truly non-parallel (Pupsniffer: 85.40 %).

The methods at their settings propose almost only true pairs, so the filter has little to remove.
Here it judges a pool that holds many wrong ones: every Def. 1 candidate pair of every site
(the "local" method with threshold 0 and minimum frequency 1, i.e. every weak pattern kept),
the declared pairs (hreflang, switchers) and the confirmed deep guesses, each judged on its own
(no one-to-one choice, which is a filter of its own).  The filter runs exactly as in a crawl
(Def. 9 with the top 30 global patterns, then languages, text length, script variants and,
when the pages' HTML or signatures are at hand, STRAND structure).  A pair is truly parallel
when the ground truth lists it (truth.json, or the test web's truth).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from evaluation.pairing.deep import confirm_deep_pair
from evaluation.pairing.methods import combine_candidates
from evaluation.pairing.pipeline import PairingConfig, run_pairing
from evaluation.pairing.similarity import filter_pairs, pattern_weights

WEAK = PairingConfig(local_threshold=0.0, min_frequency=1, lowered_threshold=0.0)


@dataclass
class Audit:
    candidates: int
    true_candidates: int
    filtered: int
    filtered_non_parallel: int
    true_lost: int
    kept: int
    kept_true: int
    reasons: Counter  # (reason, truly parallel?) → pairs

    @property
    def share_non_parallel(self) -> float:
        """Of the pairs the filter removed, the share that is truly non-parallel (nan: it removed none)."""
        return self.filtered_non_parallel / self.filtered if self.filtered else float("nan")


def _reason(text: str) -> str:
    return text.split(":")[0].split(" ≤")[0].split(" 0.")[0].split(" [")[0]


def audit(inputs, truth: set, exists: set, langs: dict, *, check_structure: bool = True) -> Audit:
    result = run_pairing(inputs, WEAK)
    deep = [c for g in result.deep_guesses
            if (c := confirm_deep_pair(g, g.guessed_url in exists, langs.get(g.guessed_url, "")))]
    pool = combine_candidates(*result.by_method.values(), deep, one_to_one=False)
    pages = {p.url: p for s in inputs for p in s.pages}
    weights = pattern_weights(result.global_patterns, top_n=30)
    verdicts = filter_pairs(pool, pages, weights, check_structure=check_structure)
    reasons: Counter = Counter()
    filtered = filtered_non_parallel = true_lost = kept_true = 0
    for cand, verdict in verdicts:
        is_true = frozenset(cand.key) in truth
        if verdict.keep:
            kept_true += is_true
            continue
        filtered += 1
        filtered_non_parallel += not is_true
        true_lost += is_true
        reasons[(_reason(verdict.reason), is_true)] += 1
    true_candidates = sum(frozenset(c.key) in truth for c in pool)
    return Audit(len(pool), true_candidates, filtered, filtered_non_parallel, true_lost,
                 len(pool) - filtered, kept_true, reasons)


def report(figures: Audit, label: str) -> None:
    f = figures
    print(f"\n== filter audit, {label}: {f.candidates} candidate pairs from weak patterns, declarations and "
          f"deep guesses ({f.true_candidates} truly parallel)")
    share = f"{f.share_non_parallel:.2%}" if f.filtered else "n/a (nothing filtered)"
    print(f"  filtered {f.filtered}: {f.filtered_non_parallel} truly non-parallel = {share} (the method: 85.40%); "
          f"true pairs lost: {f.true_lost}")
    wrong = f.candidates - f.true_candidates
    removed = f"{f.filtered_non_parallel / wrong:.2%}" if wrong else "-"
    print(f"  kept {f.kept}: {f.kept_true} true (precision {f.kept_true / f.kept if f.kept else 0:.3f}); "
          f"non-parallel pairs removed: {removed} of {wrong}")
    for (reason, was_true), n in sorted(f.reasons.items(), key=lambda item: (-item[1], item[0])):
        print(f"    {n:>5}  {'true' if was_true else 'non-parallel':<13} {reason}")
