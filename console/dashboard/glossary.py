"""Short explanations of the crawl page's jargon, shown as <abbr title> and in its "What these words
mean" list: layer ids (M01.L01, NB.L03), frontier queues (Target origins) and the crawl's actions."""
from __future__ import annotations

from frontier.layers.base import LAYER_NAMES

MODULES = {
    "M01": "Language module M01: URL and anchor tokens, language needles, a dictionary test of the words",
    "M03": "Structure module M03: link-path graphs of a site and their Structure rank",
    "NB": "COBFC's link classifiers (Naive Bayes, Barbosa et al. 2011): their probability picks the layer",
}
LAYER_ROLES = {1: "fetched first", 2: "fetched after Primary", 3: "fetched last"}
ORIGINS = {
    "seed": "a start URL of the seed list",
    "forward": "a link found in a fetched page (forward link)",
    "backlink": "a page that links to a bilingual site, found through a backlink provider",
    "recycled": "a URL fetched again (URL recycling)",
    "redirect": "the destination of a redirect",
    "deep": "a page guessed from a site's pairing pattern (Pupsniffer's deep page detection)",
    "detector": "a page the BS Detector fetched to decide whether a site is bilingual",
    "refill": "added when both queues of a back/forward crawl (forward links and backlinks) ran out of "
              "Targets while budget was left: more pages of the sites already found",
    "sitemap": "an entry of a bilingual site's sitemap",
}


def layer_title(layer_id: str) -> str:
    """"M01.L01" -> "Language module M01 …: layer L01, Primary (fetched first)"."""
    module, _, layer = layer_id.partition(".")
    number = int(layer[1:]) if layer[1:].isdigit() else 0
    name = LAYER_NAMES.get(number, "")
    role = f", {name} ({LAYER_ROLES[number]})" if name else ""
    return f"{MODULES.get(module, f'module {module}')}; layer {layer}{role}"
