"""Presets named for the methods this project implements: each fills the New crawl form's method fields.

Pure data (no Django): the dashboard's preset select and ``crawl start --preset NAME`` read it. A
preset sets only the fields that choose the method (strategy, modules and weights, backlink
providers, topic); name, seeds, budget, time limit and politeness stay as the operator set them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Combine's topic filter needs a topic; for a crawl that looks for bilingual sites the "topic" is
# a page that offers or names its other language: switch words in both languages of sr-en, in
# Combine's "weight: term=class" triplets (Combine doc Sec. 4.5.2). Menu words count on every page
# of a site, so the cut-off asks for two of them, or one in the title.
BILINGUAL_TOPIC = """\
# A page that names its language versions (sr-en): switch words in both languages
10: english=LANG
10: engleski=LANG
10: srpski=LANG
10: српски=LANG
10: serbian=LANG
10: latinica=LANG
10: ћирилица=LANG
5: language=LANG
5: jezik=LANG
"""


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    summary: str  # what it does, one line, shown beside the select and in the README
    values: dict = field(default_factory=dict)  # form field -> value


# Fields every preset sets, so picking one after another leaves nothing of the first behind.
_CLEAN = {"strategy": "bfs", "modules": [], "weight_m01": 3.0, "weight_m03": 1.0, "backlink_providers": [],
          "edge_file": "", "backlink_url_template": "", "topic_definition": "", "topic_cutoff": 10.0}

PRESETS: tuple[Preset, ...] = (
    Preset("barbosa-cobfc", "Barbosa COBFC",
           "Barbosa et al. 2011: back/forward crawl with the BS Detector and Naive Bayes backlink and "
           "forward-link classifiers learned during the crawl; backlinks from the crawl's own link graph",
           {**_CLEAN, "strategy": "cobfc", "backlink_providers": ["graph"]}),
    Preset("layered-m01-m03", "Layered M01+M03",
           "Layered frontier: Language module M01 (needles, TF-IDF Hunspell test) and Structure module M03 "
           "(link-path graphs) place every Target, weights 3 and 1; crawl order by layer, then depth",
           {**_CLEAN, "modules": ["M01", "M03"]}),
    Preset("combine-focused", "Combine focused",
           "FocC: Combine's topic filter (weighted term triplets) keeps the crawl on pages that name their "
           "other language; only links of relevant pages are followed",
           {**_CLEAN, "strategy": "focc", "topic_definition": BILINGUAL_TOPIC, "topic_cutoff": 10.0}),
    Preset("breadth-first", "Breadth-first",
           "Combine's plain crawl: every link, shallowest first; no modules, no detector",
           dict(_CLEAN)),
)


def preset_named(name: str) -> Preset | None:
    """The preset by its name ("Barbosa COBFC") or slug ("barbosa-cobfc"), any case."""
    wanted = name.strip().lower()
    return next((p for p in PRESETS if wanted in (p.slug, p.name.lower())), None)


def preset_names() -> str:
    return ", ".join(f'"{p.name}"' for p in PRESETS)
