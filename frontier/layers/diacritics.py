"""Bounded diacritic restoration for tokens of URLs that dropped diacritics.

Serbian URLs usually write "uredjaj" for "uređaj" and "pec" for "peć". A token is split into
slots: a letter (or digraph, e.g. "dj") with restorations, or plain text. Variants are produced
with the FEWEST substitutions first (one changed slot, then two, ...), because a word rarely
lost every diacritic it could have had, and stop at ``max_variants``: a long token with many
c/s/z/d letters would otherwise have thousands of variants (3^k for k letters c).
"""
from __future__ import annotations

from itertools import combinations, product


def split_slots(token: str, restorations: dict[str, list[str]]) -> list[tuple[str, tuple[str, ...]]]:
    """[(original text, alternatives)] covering ``token``; longest restoration key wins ("dj" before "d")."""
    keys = sorted(restorations, key=len, reverse=True)
    slots: list[tuple[str, tuple[str, ...]]] = []
    i = 0
    while i < len(token):
        for key in keys:
            if token.startswith(key, i):
                slots.append((key, tuple(restorations[key])))
                i += len(key)
                break
        else:
            slots.append((token[i], ()))
            i += 1
    return slots


def restored_variants(token: str, restorations: dict[str, list[str]], max_variants: int) -> list[str]:
    """Up to ``max_variants`` spellings of ``token`` with diacritics restored (token itself excluded)."""
    if max_variants <= 0:
        return []
    slots = split_slots(token, restorations)
    open_slots = [i for i, (_, alternatives) in enumerate(slots) if alternatives]
    variants: list[str] = []
    seen = {token}
    for changed in range(1, len(open_slots) + 1):
        for positions in combinations(open_slots, changed):
            for choice in product(*(slots[p][1] for p in positions)):
                texts = [text for text, _ in slots]
                for position, replacement in zip(positions, choice):
                    texts[position] = replacement
                variant = "".join(texts)
                if variant not in seen:
                    seen.add(variant)
                    variants.append(variant)
                    if len(variants) >= max_variants:
                        return variants
    return variants
