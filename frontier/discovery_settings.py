"""The discovery keys of a crawl's config, parsed and validated (crawl_config.py calls ``errors``).

  backlinks    {"providers": [{"kind": "graph"} | {"kind": "edge_file", "path": ...} |
                              {"kind": "http", "url_template": ".../?url={url}"}], "rate": calls/s}
  queue_ratio  {"backlink": 1, "forward": 3}: of every 4 pages, 1 from the backlink queue
  detector     {"min_likelihood": 0.8, "max_fetches": 5, "render_pages": n}  (paper default 0.8 for crawling;
               render_pages: pages per site rendered in Chromium when its links hint at a script-built
               switch, default 2 for COBFC and 0 for the others; docs/script-switches.md)
  learning     {"every": pages between learning iterations (default budget/5), "primary": 0.8,
                "secondary": 0.5}
  topic        {"definition": "50: term=class ...", "cutoff": 10, "algorithm": "plain|position"}
  random_seed  integer for FC's random order
"""
from __future__ import annotations

from dataclasses import dataclass, field

DISCOVERY_KEYS = ("backlinks", "queue_ratio", "detector", "learning", "topic", "random_seed")
PROVIDER_KINDS = ("graph", "edge_file", "http")
# Pages per site the BS Detector renders in Chromium (docs/script-switches.md): on for COBFC, the
# preset an operator runs to find sites; a crawl's detector.render_pages overrides it.
DEFAULT_RENDER_PAGES = {"cobfc": 2}
MAX_RENDER_PAGES = 10


# Sites one detector job decides: the job reads the crawl, its strategy and the promoted models once for
# them all (a job per site spent as long on that as on a small site's decision), and a step's new sites
# wait for one job, not for as many as there are sites; 10 keeps a job to seconds when pages are rendered.
# Here, below both, so the refill (frontier.strategies.refill) can reckon what pending jobs may fetch.
SITES_PER_DETECTOR_JOB = 10


@dataclass(frozen=True)
class DiscoverySettings:
    providers: tuple = ({"kind": "graph"},)
    rate: float = 5.0
    queue_ratio: dict = field(default_factory=lambda: {"backlink": 1, "forward": 3})
    min_likelihood: float = 0.8
    max_fetches: int = 5
    render_pages: int | None = None  # None: the strategy's default (DEFAULT_RENDER_PAGES)
    learning_every: int | None = None
    primary: float = 0.8
    secondary: float = 0.5
    topic_definition: str = ""
    topic_cutoff: float = 10.0
    topic_algorithm: str = "plain"
    random_seed: int = 0

    @classmethod
    def of(cls, crawl) -> DiscoverySettings:
        return cls.from_dict(crawl.config or {})

    @classmethod
    def from_dict(cls, config: dict) -> DiscoverySettings:
        problems = errors(config)
        if problems:
            raise ValueError("; ".join(f"{k}: {v}" for k, v in problems.items()))
        backlinks = config.get("backlinks", {})
        detector, learning, topic = config.get("detector", {}), config.get("learning", {}), config.get("topic", {})
        return cls(
            providers=tuple(backlinks.get("providers", [{"kind": "graph"}])),
            rate=float(backlinks.get("rate", 5.0)),
            queue_ratio=dict(config.get("queue_ratio", {"backlink": 1, "forward": 3})),
            min_likelihood=float(detector.get("min_likelihood", 0.8)),
            max_fetches=int(detector.get("max_fetches", 5)),
            render_pages=detector.get("render_pages"),
            learning_every=learning.get("every"),
            primary=float(learning.get("primary", 0.8)), secondary=float(learning.get("secondary", 0.5)),
            topic_definition=topic.get("definition", ""), topic_cutoff=float(topic.get("cutoff", 10.0)),
            topic_algorithm=topic.get("algorithm", "plain"), random_seed=int(config.get("random_seed", 0)),
        )

    def pages_to_render(self, strategy: str) -> int:
        return self.render_pages if self.render_pages is not None else DEFAULT_RENDER_PAGES.get(strategy, 0)

    def learning_interval(self, budget: int) -> int:
        """Pages between learning iterations: the paper used 20,000; we scale to the budget."""
        return int(self.learning_every) if self.learning_every else max(10, budget // 5)


def _number(value, low=None, high=None) -> bool:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return ok and (low is None or value >= low) and (high is None or value <= high)


def errors(config: dict) -> dict[str, str]:
    """One message per bad discovery key (empty when all are fine)."""
    found: dict[str, str] = {}
    backlinks = config.get("backlinks", {})
    if not isinstance(backlinks, dict):
        found["backlinks"] = "must be an object {providers: [...], rate: n}"
    else:
        providers = backlinks.get("providers", [])
        if not isinstance(providers, list) or not all(isinstance(p, dict) for p in providers):
            found["backlinks"] = "providers must be a list of objects with a 'kind'"
        else:
            for p in providers:
                if p.get("kind") not in PROVIDER_KINDS:
                    found["backlinks"] = f"provider kind must be one of {', '.join(PROVIDER_KINDS)}, not {p.get('kind')!r}"
                elif p["kind"] == "edge_file" and not isinstance(p.get("path"), str):
                    found["backlinks"] = "an edge_file provider needs a 'path'"
                elif p["kind"] == "http" and "{url}" not in str(p.get("url_template", "{url}")):
                    found["backlinks"] = "an http provider's url_template must contain {url}"
        if "rate" in backlinks and not _number(backlinks["rate"], 0.001):
            found["backlinks"] = f"rate must be a number of calls per second > 0, not {backlinks['rate']!r}"
    ratio = config.get("queue_ratio", {"backlink": 1, "forward": 1})
    if not (isinstance(ratio, dict) and set(ratio) <= {"backlink", "forward"}
            and all(_number(v, 0) for v in ratio.values()) and sum(ratio.values()) > 0):
        found["queue_ratio"] = "must be {\"backlink\": n, \"forward\": m} with numbers >= 0, not both 0"
    detector = config.get("detector", {})
    if not (isinstance(detector, dict) and _number(detector.get("min_likelihood", 0.8), 0, 1)
            and isinstance(detector.get("max_fetches", 5), int) and detector.get("max_fetches", 5) >= 0):
        found["detector"] = "must be {min_likelihood: 0..1, max_fetches: integer >= 0}"
    elif "render_pages" in detector and not (isinstance(detector["render_pages"], int)
                                             and not isinstance(detector["render_pages"], bool)
                                             and 0 <= detector["render_pages"] <= MAX_RENDER_PAGES):
        found["detector"] = f"render_pages must be an integer 0..{MAX_RENDER_PAGES}, not {detector['render_pages']!r}"
    learning = config.get("learning", {})
    if not (isinstance(learning, dict) and (learning.get("every") is None or
                                            (isinstance(learning["every"], int) and learning["every"] > 0))
            and _number(learning.get("secondary", 0.5), 0, 1) and _number(learning.get("primary", 0.8), 0, 1)
            and learning.get("secondary", 0.5) <= learning.get("primary", 0.8)):
        found["learning"] = "must be {every: pages > 0, primary: 0..1, secondary: 0..primary}"
    topic = config.get("topic", {})
    if not isinstance(topic, dict) or not isinstance(topic.get("definition", ""), str) \
            or not _number(topic.get("cutoff", 10.0)) or topic.get("algorithm", "plain") not in ("plain", "position"):
        found["topic"] = "must be {definition: text, cutoff: number, algorithm: plain|position}"
    elif topic.get("definition"):
        from frontier.topic_filter import TopicDefinition, TopicDefinitionError
        try:
            TopicDefinition.parse(topic["definition"])
        except TopicDefinitionError as error:
            found["topic"] = str(error)
    if not isinstance(config.get("random_seed", 0), int):
        found["random_seed"] = "must be an integer"
    return found
