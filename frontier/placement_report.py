"""What the dashboard shows of the layered frontier: a Target's placements with its priority term by
term, and a crawl's Targets per module, layer and rule (traceable to LayerPlacement rows)."""
from __future__ import annotations

import json

from django.db.models import Count

from crawlweb.crawler.scriptlinks import is_script_url
from crawlweb.models import Crawl
from frontier.layers.base import LAYER_NAMES
from frontier.models import LayerPlacement, Target
from frontier.placement import as_placement, frontier_settings, layered_priority, priority_terms


def explain_target(target: Target) -> dict:
    """Per module: layer, rule, evidence, rank; and the priority recomputed term by term."""
    rows = list(target.placements.order_by("module"))
    frontier = frontier_settings(target.crawl.config)
    shown = [{"module": row.module, "layer_id": row.layer_id, "layer_name": LAYER_NAMES.get(row.layer, row.layer),
              "rule": row.rule, "evidence": json.dumps(row.evidence, ensure_ascii=False, sort_keys=True),
              "rank": row.rank} for row in rows]
    explained = {"placements": shown, "terms": [], "computed": None}
    if frontier is not None and rows:
        by_module = {row.module: as_placement(row) for row in rows if row.module in frontier.modules}
        script = is_script_url(target.url)
        explained["terms"] = priority_terms(by_module, target.depth, frontier.priority, script)
        explained["computed"] = layered_priority(by_module, target.depth, frontier.priority, script)
    return explained


def layer_counts(crawl: Crawl) -> list[dict]:
    """Per module: Targets per layer (and how many were fetched), and per rule; traceable to LayerPlacement rows."""
    by_module: dict[str, dict] = {}
    counts = (LayerPlacement.objects.filter(target__crawl=crawl)
              .values("module", "layer", "layer_id", "rule", "target__state").annotate(n=Count("id")))
    for row in counts:
        module = by_module.setdefault(row["module"], {"module": row["module"], "layers": {}, "rules": {}})
        layer = module["layers"].setdefault(row["layer"], {
            "layer": row["layer"], "layer_id": row["layer_id"], "name": LAYER_NAMES[row["layer"]],
            "targets": 0, "fetched": 0})
        layer["targets"] += row["n"]
        layer["fetched"] += row["n"] if row["target__state"] == Target.State.DONE else 0
        key = (row["layer_id"], row["rule"])
        module["rules"][key] = module["rules"].get(key, 0) + row["n"]
    table = []
    for code in sorted(by_module):
        module = by_module[code]
        table.append({"module": code, "layers": [module["layers"][k] for k in sorted(module["layers"])],
                      "rules": [{"layer_id": lid, "rule": rule, "targets": n}
                                for (lid, rule), n in sorted(module["rules"].items())]})
    return table
