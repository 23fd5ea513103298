"""Learning iterations of COBFC (Barbosa et al. 2011, Sec. 2.2, "Backlink and Forward-Link Classifiers").

The crawl starts with no prioritization. Every ``learning_interval`` fetched pages the `train`
job collects the neighborhoods (URL, anchor, text around) of the links that led to fetched pages:
- Forward-Link Classifier: a forward link is relevant when its target site has a bilingual
  verdict (immediate benefit); not relevant when the verdict says not bilingual.
- Backlink Classifier: a backlink is relevant when its page has outlinks to more bilingual sites
  (other than the one it was collected for) than the median backlink page fetched so far
  (delayed benefit: it leads to new bilingual sites; see ``backlink_bar``).
It trains both Naive Bayes models, stores them as versioned ClassifierModel rows and re-scores
every open Target of the two queues. Placement is a module with layers: probability >= primary
(0.8) Primary, >= secondary (0.5) Secondary, else Reserve; the probability is the rank within a
layer, so priority = (3 - layer) + probability.
"""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.db import IntegrityError, transaction

from crawlweb.crawler.urls import site_name
from crawlweb.models import Crawl, Link, Site
from crawlweb.services.bulk_rows import write_target_priorities
from frontier.classifiers.link_classifier import (
    LinkClassifier,
    LinkNeighborhood,
    ModelBytesError,
    layer_for_probability,
)
from frontier.models import ClassifierModel, LayerPlacement, SiteVerdict, Target
from frontier.discovery_settings import DiscoverySettings

log = logging.getLogger(__name__)
MODULE = "NB"  # LayerPlacement.module of the link classifiers
# (crawl id, kind) -> ((row id, created_at), the model or None when its data was refused): only the
# latest model of each queue is kept, since a crawl retrains every learning interval and a superseded
# model (its vectorizer's vocabulary, its word cache) is never read again; keeping up to 64 of them made
# a worker's memory grow with the crawl. The time is part of the row's key because an id can come back
# after a rollback (SQLite reuses it), and a refused row must not hide its successor.
_loaded: dict[tuple[int, str], tuple[tuple, LinkClassifier | None]] = {}
MAX_LOADED = 16  # queues of crawls running at once in one worker; more is a worker serving many crawls


def neighborhood(candidate) -> LinkNeighborhood:
    url = getattr(candidate, "url", None) or candidate.url_as_linked
    return LinkNeighborhood(url=url, anchor_text=candidate.anchor_text or "", text_around=candidate.text_around or "")


def placement(p: float, settings: DiscoverySettings) -> tuple[int, float]:
    layer = layer_for_probability(float(p), settings.primary, settings.secondary)
    return layer, (3 - layer) + float(p)


class ClassifierSet:
    """The latest Backlink and Forward-Link classifiers of a crawl (either may be missing)."""

    def __init__(self, models: dict[str, LinkClassifier], settings: DiscoverySettings):
        self.models = models
        self.settings = settings

    @classmethod
    def latest(cls, crawl, settings: DiscoverySettings) -> ClassifierSet:
        models = {}
        for kind in ClassifierModel.Kind.values:
            row = (ClassifierModel.objects.filter(crawl=crawl, kind=kind).order_by("-version")
                   .values_list("id", "created_at").first())
            if row is None:
                continue
            model = _latest_loaded(crawl.pk, kind, row)
            if model is not None:
                models[kind] = model
        return cls(models, settings)

    def priorities(self, kind: str, candidates) -> list[float]:
        """Priority per candidate; 0 (no prioritization) while the queue has no classifier yet."""
        model = self.models.get(kind)
        if model is None or not candidates:
            return [0.0 for _ in candidates]
        probabilities = model.predict_proba([neighborhood(c) for c in candidates])
        return [placement(p, self.settings)[1] for p in probabilities]


def _latest_loaded(crawl_id: int, kind: str, row: tuple) -> LinkClassifier | None:
    """The model of ``row``, loaded once per process (not once per page); it replaces the queue's older one."""
    key = (crawl_id, kind)
    held = _loaded.get(key)
    if held is not None and held[0] == row:
        return held[1]
    if key not in _loaded and len(_loaded) >= MAX_LOADED:
        _loaded.clear()
    try:
        model = LinkClassifier.from_bytes(ClassifierModel.objects.get(pk=row[0]).bytes)
    except ModelBytesError as exc:  # e.g. a pickle stored by an older version: never loaded
        log.error("crawl %s: %s classifier #%s refused: %s", crawl_id, kind, row[0], exc)
        model = None  # said once; the queue goes on without it until the next one is trained
    _loaded[key] = (row, model)
    return model


def _bilingual_sites(crawl) -> tuple[set[int], set[int]]:
    verdicts = SiteVerdict.objects.filter(crawl=crawl).values_list("site_id", "bilingual")
    return {s for s, b in verdicts if b}, {s for s, b in verdicts if not b}


def training_sets(crawl) -> dict[str, tuple[list[LinkNeighborhood], list[int]]]:
    """(neighborhoods, labels) per classifier kind, from the links that led to fetched pages."""
    bilingual, monolingual = _bilingual_sites(crawl)
    fetched = Target.objects.filter(crawl=crawl, state=Target.State.DONE, page__isnull=False)
    forward = ([], [])
    for t in fetched.filter(origin=Target.Origin.FORWARD).only("url", "anchor_text", "text_around", "site_id"):
        if t.site_id in bilingual or t.site_id in monolingual:
            forward[0].append(neighborhood(t))
            forward[1].append(int(t.site_id in bilingual))
    backlink = ([], [])
    pages = list(fetched.filter(origin=Target.Origin.BACKLINK)
                 .only("url", "anchor_text", "text_around", "page_id", "source_page__site_id")
                 .select_related("source_page"))
    linked = linked_sites({t.page_id for t in pages})
    benefit = [len((linked.get(t.page_id, set()) & bilingual) - {t.source_page.site_id if t.source_page_id else None})
               for t in pages]
    bar = backlink_bar(benefit)
    for t, found in zip(pages, benefit):
        backlink[0].append(neighborhood(t))
        backlink[1].append(int(found > bar))
    return {"forward": forward, "backlink": backlink}


def backlink_bar(benefit: list[int]) -> float:
    """Bilingual sites a backlink page must lead to, beyond the one it was found for, to count
    as relevant: more than the median backlink page does. Co-cited bilingual sites are common
    (half the backlink pages may name one more), so "at least one" marks nearly every page
    relevant and teaches the classifier nothing; what pays is a hub (a links page, a directory)
    that leads to more of them than an ordinary page does."""
    if not benefit:
        return 0.0
    ordered = sorted(benefit)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return float(median) if any(b > median for b in benefit) else max(0.0, median - 1.0)


def linked_sites(page_ids: set[int]) -> dict[int, set[int]]:
    """Site ids each page links to out of its site. By site, not by URL: the crawl queues one URL
    per site, and a backlink page may name the site by another of its URLs."""
    names: dict[int, set[str]] = {}
    for page_id, url in Link.objects.filter(page_id__in=page_ids, out_of_site=True).values_list("page_id", "target_url"):
        names.setdefault(page_id, set()).add(site_name(urlsplit(url).hostname or ""))
    ids = dict(Site.objects.filter(name__in=set().union(*names.values())).values_list("name", "id")) if names else {}
    return {page: {ids[n] for n in found if n in ids} for page, found in names.items()}


def rescore_frontier(crawl, classifiers: ClassifierSet) -> int:
    """Re-place every open Target of the two queues; returns the number re-scored."""
    changed = 0
    for kind, origin in (("forward", Target.Origin.FORWARD), ("backlink", Target.Origin.BACKLINK)):
        model = classifiers.models.get(kind)
        if model is None:
            continue
        targets = list(Target.objects.filter(crawl=crawl, origin=origin, state=Target.State.PENDING)
                       .only("id", "url", "anchor_text", "text_around"))
        if not targets:
            continue
        probabilities = model.predict_proba([neighborhood(t) for t in targets])
        placements = []
        for t, p in zip(targets, probabilities):
            layer, t.priority = placement(p, classifiers.settings)
            placements.append(LayerPlacement(target=t, module=MODULE, layer_id=f"{MODULE}.L0{layer}", layer=layer,
                                             rule=f"{kind} classifier", rank=float(p),
                                             evidence={"probability": round(float(p), 4), "kind": kind}))
        with transaction.atomic():
            write_target_priorities(crawl.pk, targets)  # with the crawl's stores' and leases' locks
            LayerPlacement.objects.bulk_create(placements, batch_size=500, update_conflicts=True,
                                               unique_fields=["target", "module"],
                                               update_fields=["layer_id", "layer", "rule", "rank", "evidence"])
        changed += len(targets)
    return changed


def learning_iteration(crawl, settings: DiscoverySettings | None = None, version: int | None = None) -> dict:
    """Train both classifiers from what the crawl has seen, store them, re-score the frontier."""
    settings = settings or DiscoverySettings.of(crawl)
    report = {}
    for kind, (neighborhoods, labels) in training_sets(crawl).items():
        counts = {"relevant": sum(labels), "irrelevant": len(labels) - sum(labels)}
        if not counts["relevant"] or not counts["irrelevant"]:
            report[kind] = {"skipped": "needs links of both labels", **counts}
            continue
        model = LinkClassifier.train(neighborhoods, labels, pair=(crawl.source_language, crawl.target_language))
        latest = ClassifierModel.objects.filter(crawl=crawl, kind=kind).order_by("-version").first()
        number = version if version is not None else (latest.version + 1 if latest else 1)
        try:
            with transaction.atomic():
                ClassifierModel.objects.create(crawl=crawl, kind=kind, version=number, bytes=model.to_bytes(),
                                               trained_on={**counts, "pages_fetched": crawl.pages_fetched})
        except IntegrityError:  # the same iteration ran twice (a re-delivered job): keep the first
            pass
        report[kind] = {"version": number, **counts}
    report["rescored"] = rescore_frontier(crawl, ClassifierSet.latest(crawl, settings))
    return report


def train(crawl_id: int, iteration: int) -> dict | None:
    """The `train` job: one learning iteration, run once per iteration number (idempotent)."""
    crawl = Crawl.objects.filter(pk=crawl_id).first()
    if crawl is None:
        return None
    done = ClassifierModel.objects.filter(crawl=crawl, version__gte=iteration).exists()
    if done:
        return None
    report = learning_iteration(crawl, version=iteration)
    log.info("crawl %s learning iteration %s: %s", crawl_id, iteration, report)
    return report
