"""A heavy-tailed test web: site sizes and kinds drawn as on the real web (``size_distribution="heavy-tailed"``).

On the real web most sites have a handful of pages and a few have thousands; the default test web gives
every site the same number. Here the number of page slugs of a site follows a discrete Pareto law,
P(slugs >= k) = k ** -ALPHA, capped at ``pages_per_site`` (with ALPHA = 1: half the sites have one slug,
nine in ten at most ten, one in a thousand a thousand or more; every doubling of size holds about the
same share of all pages). About BILINGUAL_SHARE of the sites are Serbian-English bilingual.

Everything is drawn from seeded generators, so (seed, size, pages_per_site) still fixes the web, and the
plan stays linear in the number of sites: a web of 10,000 sites plans in well under a second (links
between sites are sampled, never chosen from a full list per site as the small default web does).
Pure: no Django.
"""
from __future__ import annotations

import random

UNIFORM = "uniform"
HEAVY_TAILED = "heavy-tailed"
SIZE_DISTRIBUTIONS = (UNIFORM, HEAVY_TAILED)

ALPHA = 1.0                # Pareto tail exponent of the slugs per site
BILINGUAL_SHARE = 0.12     # of the sites drawn after the mandatory ones
DIRECTORY_EVERY = 200      # one directory site per this many sites (the small web has one per 20)
DIRECTORY_EXTRA = 20       # sites each directory lists at random beyond its own share
HUB_TARGETS = 10           # sites a "partneri"/"links" page points to


def check_distribution(name: str) -> str:
    if name not in SIZE_DISTRIBUTIONS:
        raise ValueError(f"size_distribution must be one of {', '.join(SIZE_DISTRIBUTIONS)}, got {name!r}")
    return name


def slug_counts(seed: int, size: int, cap: int) -> list[int]:
    """Slugs of each of ``size`` sites: a discrete Pareto draw (inverse transform), capped at ``cap``."""
    rng = random.Random(f"testweb-sizes-{seed}")
    # 1 - random() lies in (0, 1]: the draw is always finite and at least 1.
    return [min(cap, int((1.0 - rng.random()) ** (-1.0 / ALPHA))) for _ in range(size)]


def kind_sequence(seed: int, size: int, mandatory: list[tuple[str, int]], kinds: dict[str, str],
                  variants: int) -> list[tuple[str, int]]:
    """(kind, bilingual variant) of each site: the mandatory ones first (every kind present, as in the
    small web), then one directory per DIRECTORY_EVERY sites and kinds drawn with the weights below.
    ``kinds`` names the site kinds of sites.py (passed in so this module does not import it)."""
    weights = ((kinds["bilingual"], BILINGUAL_SHARE), (kinds["mono_sr_latn"], 0.34),
               (kinds["mono_sr_cyrl"], 0.18), (kinds["mono_en"], 0.20), (kinds["mono_hr"], 0.10),
               (kinds["bilingual_en_de"], 0.03), (kinds["sr_both"], 0.03))
    names, shares = [k for k, _ in weights], [w for _, w in weights]
    rng = random.Random(f"testweb-kinds-{seed}")
    sequence = list(mandatory[:size])
    variant = 0
    while len(sequence) < size:
        if len(sequence) % DIRECTORY_EVERY == 0:
            sequence.append((kinds["directory"], 0))
            continue
        kind = rng.choices(names, shares)[0]
        if kind == kinds["bilingual"]:
            variant = (variant + 1) % variants
        sequence.append((kind, variant))
    return sequence


def _sample_others(rng: random.Random, content: list[int], exclude: int, count: int) -> tuple[int, ...]:
    """Up to ``count`` distinct content sites other than ``exclude``, sorted (rejection sampling: O(count))."""
    wanted = min(count, len(content) - (1 if exclude in content else 0))
    chosen: set[int] = set()
    while len(chosen) < wanted:
        pick = content[rng.randrange(len(content))]
        if pick != exclude:
            chosen.add(pick)
    return tuple(sorted(chosen))


def assign_links(sites: list, rng: random.Random, directory: str, special: str) -> None:
    """Footer partners, hub pages and directories, as sites._assign_links does, in time linear in the
    sites. Together the directories still list every content site, so directory homes reach them all."""
    content = [s.index for s in sites if s.kind not in (directory, special)]
    directories = [s for s in sites if s.kind == directory]
    for site in sites:
        if site.kind in (directory, special) or len(content) < 2:
            continue
        site.partners = _sample_others(rng, content, site.index, rng.randint(1, 2))
        if site.index % 4 == 1:
            site.links_page = True
            site.hub_targets = _sample_others(rng, content, site.index, HUB_TARGETS)
    for number, entry in enumerate(directories):
        listed = set(content[number::len(directories)])
        listed |= set(_sample_others(rng, content, -1, DIRECTORY_EXTRA))
        entry.hub_targets = tuple(sorted(listed))
