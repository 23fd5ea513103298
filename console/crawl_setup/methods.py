"""A crawl's configuration as rows: each choice, its value, and the method (paper, section) behind it.

Pure (no Django): reads the crawl's attributes, so the crawl page and ``crawl start`` print the same
rows. The method lines name the source each implementation cites; details are in the README.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

BARBOSA = "Barbosa et al. 2011, Crawling Back and Forth"
STRATEGY_METHODS = {
    "bfs": "Combine focused crawler without its topic filter: every link, shallowest first",
    "fc": f"{BARBOSA}, Sec. 3 FC: forward links in (seeded) random order; BS Detector on every new site",
    "focc": f"{BARBOSA}, Sec. 3 FocC baseline, with Combine's topic filter (Combine doc Sec. 4.5)",
    "obfc": f"{BARBOSA}, Sec. 3 OBFC: backlinks of bilingual sites' pages, then those pages' outlinks",
    "cobfc": (f"{BARBOSA}, Sec. 3-4 COBFC: OBFC ordered by Naive Bayes backlink and forward-link "
              "classifiers learned during the crawl"),
}
MODULE_METHODS = {
    "M01": "Layered frontier, Language module M01: URL/anchor needles (Tables 2-3), TF-IDF weighted Hunspell test",
    "M03": "Layered frontier, Structure module M03: link-path graphs GT, GC, GB, GD and Structure rank",
}
PROVIDER_METHODS = {
    "graph": "links this crawl has seen (Barbosa et al. asked a search engine's link: query)",
    "edge_file": "a link-graph file (source, target)",
    "http": "a backlink service asked over HTTP",
}
EXTRA_METHODS = {
    "detector": f"{BARBOSA}, Sec. 2: BS Detector's minimum link likelihood and pages read per site",
    "queue_ratio": f"{BARBOSA}, Sec. 3: share of pages from the backlink and forward queues",
    "learning": f"{BARBOSA}, Sec. 4: classifiers retrained every N pages (paper: 20,000 of 100,000)",
    "random_seed": "FC's random order, seeded so a run can be repeated",
    "session_params": "Combine URL normalization: query parameters dropped as session ids",
    "host_aliases": "Combine serveralias: host names that are one server",
    "max_url_length": "Combine URL validation: longer URLs are not scheduled",
    "text_urls": "URLs written out in plain-text documents are followed",
    "priority": "Layered frontier: points per layer and rule (our combination; README, Layered frontier)",
    "backlinks": f"{BARBOSA}: backlink provider settings",
}


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    value: str
    method: str


def configuration_rows(crawl) -> list[Row]:
    config = crawl.config or {}
    rows = [Row("strategy", "Strategy", crawl.get_strategy_display(), STRATEGY_METHODS.get(crawl.strategy, "")),
            Row("pair", "Language pair", f"{crawl.source_language}-{crawl.target_language}",
                "Needles and dictionaries of frontier/layers/data/language_module.json; the BS Detector wants both")]
    modules = config.get("modules") or {}
    weights = (config.get("priority") or {}).get("module_weights", {})
    for code in modules:
        weight = f", weight {weights[code]:g}" if code in weights else ""
        rows.append(Row(f"modules.{code}", f"Module {code}", f"on{weight}", MODULE_METHODS.get(code, "")))
    if not modules:
        rows.append(Row("modules", "Frontier modules", "none (order by the strategy)",
                        "Layered frontier off: priority is the strategy's (breadth-first: -depth)"))
    providers = (config.get("backlinks") or {}).get("providers")
    if crawl.strategy in ("obfc", "cobfc"):
        kinds = providers or [{"kind": "graph"}]
        rows.append(Row("backlinks", "Backlink providers", ", ".join(_provider(p) for p in kinds),
                        "; ".join(PROVIDER_METHODS.get(p.get("kind"), "") for p in kinds)))
    topic = config.get("topic") or {}
    if crawl.strategy == "focc" or topic:
        lines = [line for line in topic.get("definition", "").splitlines() if line.strip() and not line.startswith("#")]
        rows.append(Row("topic", "Topic", f"{len(lines)} term lines, cut-off {topic.get('cutoff', 10):g}",
                        "Combine topic filter: weighted term triplets (Combine doc Sec. 4.5)"))
    if config.get("url_rules"):
        rows.append(Row("url_rules", "URL rules", f"{len(config['url_rules'].splitlines())} lines",
                        "Combine URL validation: allow and exclude rules on host and URL"))
    rows += _budget_rows(crawl, config)
    handled = {"modules", "backlinks", "topic", "url_rules", "host_interval", "address_policy"}
    for key in sorted(set(config) - handled):
        if key == "priority" and set(config[key]) == {"module_weights"}:
            continue  # shown with the modules
        rows.append(Row(key, key, json.dumps(config[key], ensure_ascii=False, sort_keys=True),
                        EXTRA_METHODS.get(key, "")))
    return rows


def _provider(provider: dict) -> str:
    detail = provider.get("path") or provider.get("url_template")
    return f"{provider.get('kind')} ({detail})" if detail else str(provider.get("kind"))


def _budget_rows(crawl, config: dict) -> list[Row]:
    interval = config.get("host_interval")
    limit = crawl.time_limit_seconds
    return [
        Row("host_interval", "Politeness", f"{interval:g} s between requests to a host" if interval is not None
            else "the site setting (CRAWLER_HOST_INTERVAL)",
            "Combine politeness: one request at a time per host; robots.txt Crawl-delay wins when larger"),
        Row("page_budget", "Budget", f"{crawl.page_budget} pages", "the crawl finishes when it has fetched this many"),
        Row("time_limit", "Time limit", f"{limit} s" if limit else "none",
            "the crawl finishes this long after it started, whatever is left"),
        Row("parallel_steps", "Parallel steps", str(crawl.parallel_steps), "crawl-step chains kept in flight"),
        Row("follow_out_of_site", "Out-of-site links", "followed" if crawl.follow_out_of_site else "not followed",
            "links that leave the site they were found on"),
    ] + ([Row("address_policy", "Address policy", config["address_policy"], "which IP addresses may be fetched")]
         if config.get("address_policy") else [])
