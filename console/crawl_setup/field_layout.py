"""Which of the New crawl form's fields apply to the method being chosen, and which it requires.

The form holds every field of every strategy (its checks refuse a value the strategy would ignore);
the dashboard shows only those of the chosen strategy and backlink providers, and marks the ones it
needs. Pure: it reads the form's current values (a dict of field name -> value)."""
from __future__ import annotations

BACK_AND_FORTH = ("obfc", "cobfc")
ALWAYS_REQUIRED = ("name", "strategy", "pair", "page_budget", "parallel_steps")


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def hidden_fields(values: dict) -> set[str]:
    """Fields that do not apply to the strategy, backlink providers and modules in ``values``."""
    strategy = values.get("strategy") or "bfs"
    providers = _as_list(values.get("backlink_providers"))
    hidden = set()
    if strategy not in BACK_AND_FORTH:
        hidden |= {"backlink_providers", "edge_file", "backlink_url_template"}
    else:
        hidden |= {name for kind, name in (("edge_file", "edge_file"), ("http", "backlink_url_template"))
                   if kind not in providers}
    if strategy != "focc":
        hidden |= {"topic_definition", "topic_cutoff"}
    return hidden


def required_fields(values: dict) -> set[str]:
    """Fields the crawl cannot start without, given the method in ``values``."""
    required = set(ALWAYS_REQUIRED)
    if (values.get("strategy") or "") == "focc":
        required.add("topic_definition")
    providers = _as_list(values.get("backlink_providers"))
    if "edge_file" in providers:
        required.add("edge_file")
    if "http" in providers:
        required.add("backlink_url_template")
    return required
