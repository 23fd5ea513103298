"""bench/realweb.py's two parts: which sites are dev-train and which dev-test, and each part's figures.

A part's figures come from the same crawls as the whole web's (one COBFC crawl per strategy and one
full crawl over every site: the hubs link all sites, so a crawl of one part alone would be a
different crawl), restricted to the part's sites, pairs and pages:
- site P/R: the crawl's stored verdicts ({site name: bilingual}) of the part's sites against truth;
- pair P/R: the kept sr–en pairs whose pages are on the part's sites; P against every truth pair of
  those sites, R against their translated ones (as bench/realweb.py counts them for the whole web);
- lid_acc and lid_sr_vs_hbs: crawlweb.language.page_accuracy over the part's labelled pages.

Parts come from the committed record data/realweb/split.json; a host it does not hold (a manifest
added since, or the shared real-sites' hosts) gets its part by the same seeded rule
(crawlweb/testweb/realweb_split.py), the recorded hosts kept where they are. Pure: no Django.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bench.support.realweb_truth import TruthSite, precision_recall, site_name
from crawlweb.language.page_accuracy import page_language_scores
from crawlweb.testweb.realweb_split import PARTS, TRAIN, assign_parts, recorded_parts, stratum

SPLIT_FILE = Path(__file__).resolve().parents[2] / "data" / "realweb" / "split.json"


def site_parts(sites: Iterable[TruthSite], split_file: Path = SPLIT_FILE) -> dict[str, str]:
    """{host: dev-train | dev-test} for every site: the record's part, else the seeded rule's."""
    record = json.loads(split_file.read_text(encoding="utf-8")) if split_file.exists() else {}
    strata = {s.host: stratum(s.bilingual, s.site_languages) for s in sites}
    return assign_parts(strata, recorded_parts(record) if record else {},
                        **({"seed": int(record["seed"]), "train_share": float(record["train_share"])}
                           if record else {}))


def by_part(sites: Iterable[TruthSite], parts: Mapping[str, str]) -> dict[str, list[TruthSite]]:
    out: dict[str, list[TruthSite]] = {part: [] for part in PARTS}
    for site in sites:
        out[parts[site.host]].append(site)
    return out


@dataclass
class PartFigures:
    sites: int
    sr_en_sites: int
    site_p: float
    site_r: float
    pair_p: float
    pair_r: float
    kept_pairs: int
    translated_pairs: int
    lid_acc: float
    lid_sr_vs_hbs: float
    pages: int


def site_scores(verdicts: Mapping[str, bool], sites: list[TruthSite]) -> tuple[float, float]:
    """Site P/R of the stored verdicts ({site name: bilingual}) over these sites."""
    names = {site_name(s.host) for s in sites}
    found = {name for name, bilingual in verdicts.items() if bilingual and name in names}
    return precision_recall(found, {site_name(s.host) for s in sites if s.bilingual})


def pair_scores(kept: set[frozenset], sites: list[TruthSite]) -> tuple[float, float, int, int]:
    """(P over every truth pair, R over the translated ones, kept pairs, translated pairs) of the
    kept pairs on these sites."""
    hosts = {s.host for s in sites}
    mine = {pair for pair in kept if urlsplit(next(iter(pair))).hostname in hosts}
    every = set().union(*(s.pairs for s in sites)) if sites else set()
    translated = set().union(*(s.translated for s in sites)) if sites else set()
    p, _ = precision_recall(mine, every)
    _, r = precision_recall(mine, translated)
    return p, r, len(mine), len(translated)


def part_figures(sites: list[TruthSite], verdicts: Mapping[str, bool], kept: set[frozenset],
                 predicted: Mapping[str, str] | None) -> PartFigures:
    """One part's figures; ``predicted`` (page key → stored label) None when no full crawl ran."""
    site_p, site_r = site_scores(verdicts, sites)
    pair_p, pair_r, n_kept, n_translated = pair_scores(kept, sites)
    scores = page_language_scores(predicted or {}, {u: label for s in sites for u, label in s.labels.items()})
    return PartFigures(len(sites), sum(s.bilingual for s in sites), site_p, site_r, pair_p, pair_r, n_kept,
                       n_translated, scores["lid_acc"], scores["lid_sr_vs_hbs"], scores["pages"])


# render_ms_per_page: the cost of rendering a page whose language switch is built by script (Issue 31,
# item 2, headless Chromium). Nothing renders pages yet, so no page is rendered and the figure is 0.
RENDER_MS_PER_PAGE = 0.0


def result_line(test: PartFigures, train: PartFigures, *, sites_per_100: float, budget: int,
                render_ms_per_page: float = RENDER_MS_PER_PAGE) -> str:
    """The RESULT line: unprefixed keys are dev-test's, ``train_`` keys dev-train's."""
    figures = {"site_p": test.site_p, "site_r": test.site_r, "pair_p": test.pair_p, "pair_r": test.pair_r,
               "lid_acc": test.lid_acc, "lid_sr_vs_hbs": test.lid_sr_vs_hbs,
               "train_site_p": train.site_p, "train_site_r": train.site_r, "train_pair_p": train.pair_p,
               "train_pair_r": train.pair_r, "train_lid_acc": train.lid_acc,
               "train_lid_sr_vs_hbs": train.lid_sr_vs_hbs, "render_ms_per_page": render_ms_per_page,
               "cobfc_sites_per_100": sites_per_100}
    return "RESULT " + " ".join(f"{key}={value:.4f}" for key, value in figures.items()) + f" budget={budget}"


def one_part(line: str, part: str) -> str:
    """The RESULT line of a run over one part's sites (bench/realweb.py --part): that part's keys only
    (``train_…`` of dev-train, the unprefixed of dev-test), then whatever belongs to no part."""
    words = line.split()
    keys = [w for w in words[1:] if w.partition("=")[0] in _PART_FREE]
    mine = [w for w in words[1:] if w.partition("=")[0] not in _PART_FREE
            and w.startswith("train_") == (part == TRAIN)]
    return " ".join([words[0], *mine, *keys])


_PART_FREE = ("render_ms_per_page", "cobfc_sites_per_100", "budget")


def describe(name: str, figures: PartFigures) -> str:
    return (f"  {name:9} {figures.sites:3} sites ({figures.sr_en_sites} sr–en): site P {figures.site_p:.3f} "
            f"R {figures.site_r:.3f} · pairs kept {figures.kept_pairs}, P {figures.pair_p:.3f} R {figures.pair_r:.3f} "
            f"of {figures.translated_pairs} translated · page language {figures.lid_acc:.3f} on {figures.pages} pages, "
            f"sr vs hr/bs/cnr {figures.lid_sr_vs_hbs:.3f}")

