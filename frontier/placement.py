"""Frontier placement: run a crawl's layer modules over a batch of Targets and store why.

For a batch of Target ids of one crawl this service builds each Target's TargetInfo (URL as
linked, anchor text, site name), runs the modules the crawl configures (``Crawl.config["modules"]``,
e.g. ``{"M01": {}, "M03": {"redistribute": true}}``), stores one LayerPlacement per (Target,
module) with its layer id, the rule that fired, the rule's evidence and the module's rank,
persists M03's GC/GB per (crawl, site), and sets ``Target.priority``. No "modules" key: the crawl
stays breadth-first (priority = -depth, set when the Target is added).

Priority (higher = leased earlier; leasing orders a crawl's Targets by it) -- ``layered_priority``:

    priority = sum over configured modules of layer_points[layer] x module_weight   (1. layers)
             - eps x min(depth, 100)                                                (2. shallower first)
             + eps x (0.5 + atan(rank of the tie-break module) / pi)               (3. M03 Structure rank)

with layer_points, module weights, the tie-break module and eps = tie_break_epsilon from
``Crawl.config["priority"]`` (frontier.priority.PriorityConfig; defaults Primary 2, Secondary 1,
Reserve 0, weights 1, M03, eps 1e-3). The order is lexicographic: layer points dominate (eps x 101
is validated to be below the smallest layer step x weight, so no depth up to the cap outweighs a
layer); among equal layer sums the crawl is breadth-first (one depth level, eps, outweighs any rank
term, which lies in (0, eps)); the Structure rank orders what is left -- Targets of one layer sum
and one depth, in practice siblings of one site, which is where the method uses it ("order Targets
within a layer"): M03's rank is a GD score of one site's batch graph, so it is not comparable
across sites or batches and is not allowed to reorder depths. A Target not placed yet (its job has
not run) keeps -depth, so it waits behind placed Targets (>= -0.1 with the default points).

Each batch is placed once per module: Targets that already have a module's placement are skipped,
so a job run twice changes nothing (M03's redistribution writes GB; doing it twice would double
the bonus). Placements and M03 state are written in one transaction; priorities after it, from the
stored placements, so a retried job repairs a priority update that failed.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import OperationalError, transaction
from django.db.models import Count
from django.utils import timezone

from crawlweb.language.dictionaries import MissingDictionary
from crawlweb.models import Crawl, Page
from frontier.layers.base import LAYER_NAMES, ConfigError, Placement, TargetInfo
from frontier.layers.registry import MODULES, build_modules
from frontier.layers.structure import StructureModule
from frontier.layers.structure_graph import SiteStructureState
from frontier.models import LayerPlacement, SiteStructure, Target
from frontier.priority import PriorityConfig, combine_priority

DEPTH_CAP = 100  # deeper Targets tie on depth; eps x (DEPTH_CAP + 1) must stay below a layer step
DEADLOCK_RETRIES = 3


@dataclass(frozen=True)
class FrontierSettings:
    """The frontier part of a crawl's configuration, validated."""

    modules: dict  # module code -> module options, as configured
    priority: PriorityConfig

    @property
    def uses_structure(self) -> bool:
        return any(MODULES[code] is StructureModule for code in self.modules)


# --- configuration ------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _errors_of(config_json: str) -> tuple[tuple[str, str], ...]:
    config = json.loads(config_json)
    errors = []
    if "modules" in config:
        try:
            build_modules(config["modules"])  # builds M01's lexicons: a missing dictionary shows here
        except (ConfigError, MissingDictionary) as error:
            errors.append(("modules", str(error)))
    if "priority" in config:
        try:
            priority = PriorityConfig.from_dict(config["priority"])
        except ConfigError as error:
            errors.append(("priority", str(error)))
        else:
            unknown = sorted(set(priority.module_weights) - set(MODULES))
            if unknown:
                errors.append(("priority",
                               f"priority.module_weights.{unknown[0]}: unknown module (known: {sorted(MODULES)})"))
            elif priority.tie_break_module is not None and priority.tie_break_module not in MODULES:
                errors.append(("priority", f"priority.tie_break_module: unknown module {priority.tie_break_module!r}"))
            else:
                step = smallest_layer_step(priority, config.get("modules") or MODULES)
                if step is not None and priority.tie_break_epsilon * (DEPTH_CAP + 1) >= step:
                    errors.append(("priority", (f"priority.tie_break_epsilon: {priority.tie_break_epsilon} x "
                                                f"{DEPTH_CAP + 1} must be below the smallest layer step ({step}), "
                                                "or depth would override layers")))
    return tuple(errors)


def frontier_config_errors(config: dict) -> dict[str, str]:
    """{key: message} for the "modules" and "priority" keys of a crawl config (empty = valid).

    CrawlConfig.from_dict calls this on every load, so results are cached per distinct config."""
    relevant = {key: config[key] for key in ("modules", "priority") if key in config}
    if not relevant:
        return {}
    try:
        return dict(_errors_of(json.dumps(relevant, sort_keys=True)))
    except TypeError as error:  # not JSON: cannot come from a JSONField, but say so plainly
        return {"modules" if "modules" in relevant else "priority": f"not JSON data: {error}"}


def frontier_settings(config: dict | None) -> FrontierSettings | None:
    """The crawl's frontier settings; None when it configures no modules (breadth-first)."""
    config = config or {}
    modules = config.get("modules")
    if not modules:
        return None
    errors = frontier_config_errors(config)
    if errors:
        key, message = next(iter(errors.items()))
        raise ConfigError(f"{key}: {message}")
    return FrontierSettings(dict(modules), PriorityConfig.from_dict(config.get("priority")))


# --- priority -----------------------------------------------------------------------------
def priority_terms(placements: dict[str, Placement], depth: int, config: PriorityConfig) -> list[tuple[str, float]]:
    """The summands of ``layered_priority``, named, so the dashboard can show where a number comes from."""
    terms = [(f"{code} {LAYER_NAMES[p.layer]} x weight {config.weight(code):g}",
              config.layer_points[p.layer] * config.weight(code)) for code, p in sorted(placements.items())]
    terms.append((f"depth {depth} (breadth-first among equal layers)",
                  -config.tie_break_epsilon * min(depth, DEPTH_CAP)))
    layers_only = math.fsum(value for _, value in terms[:-1])
    rank = combine_priority(placements, config) - layers_only  # combine_priority's tie-break term, in (0, eps)
    if rank > 1e-12:
        terms.append((f"{config.tie_break_module} rank (tie-break)", rank))
    return terms


def smallest_layer_step(config: PriorityConfig, modules: Iterable[str]) -> float | None:
    """The least a layer change of one configured module moves the priority (None: layers move nothing)."""
    points = config.layer_points
    gaps = [a - b for a, b in ((points[1], points[2]), (points[2], points[3])) if a > b]
    weights = [config.weight(code) for code in modules if config.weight(code) > 0]
    return min(gaps) * min(weights) if gaps and weights else None


def layered_priority(placements: dict[str, Placement], depth: int, config: PriorityConfig) -> float:
    """A placed Target's priority: layers, then depth, then Structure rank (see the module docstring)."""
    return math.fsum(value for _, value in priority_terms(placements, depth, config))


def as_placement(row: LayerPlacement) -> Placement:
    return Placement(key=row.target_id, module=row.module, layer_id=row.layer_id, layer=row.layer,
                     rule=row.rule, evidence=row.evidence, rank=row.rank)


# --- placing a batch ----------------------------------------------------------------------
@dataclass
class PlacementReport:
    targets: int = 0
    placed: dict[str, int] = field(default_factory=dict)  # module -> Targets newly placed
    priorities_changed: int = 0


def target_info(target: Target) -> TargetInfo:
    # An image link (a flag switcher) has no anchor text; its alt text is what the reader sees
    # instead, so it stands in for the anchor text in the TST.
    anchor = target.anchor_text or target.img_alt
    return TargetInfo(key=target.pk, url=target.url_as_linked or target.url, anchor_text=anchor,
                      site=target.site.name)


def place_targets(crawl_id: int, target_ids: Sequence[int]) -> PlacementReport:
    """Place the Targets of one batch with every configured module, then set their priority."""
    report = PlacementReport()
    crawl = Crawl.objects.filter(pk=crawl_id).first()
    frontier = frontier_settings(crawl.config) if crawl is not None else None
    if frontier is None:
        return report
    ids = sorted(set(target_ids))
    with transaction.atomic():
        targets = list(Target.objects.filter(crawl_id=crawl_id, pk__in=ids).select_related("site").order_by("id"))
        report.targets = len(targets)
        placed = set(LayerPlacement.objects.filter(target_id__in=ids).values_list("target_id", "module"))
        rows = []
        for code, module in build_modules(frontier.modules).items():
            todo = [t for t in targets if (t.pk, code) not in placed]
            if not todo:
                continue
            if isinstance(module, StructureModule):
                placements = _distribute_with_state(module, crawl_id, todo)
            else:
                placements = module.distribute([target_info(t) for t in todo])
            rows += [LayerPlacement(target_id=p.key, module=p.module, layer_id=p.layer_id, layer=p.layer,
                                    rule=p.rule, evidence=p.evidence, rank=p.rank) for p in placements]
            report.placed[code] = len(placements)
        LayerPlacement.objects.bulk_create(
            rows, batch_size=500, update_conflicts=True, unique_fields=["target", "module"],
            update_fields=["layer_id", "layer", "rule", "evidence", "rank", "placed_at"])
    report.priorities_changed = update_priorities(crawl_id, ids, frontier)
    return report


def _locked_states(crawl_id: int, site_ids: Iterable[int]) -> dict[int, SiteStructure]:
    """The (crawl, site) state rows, created when missing, locked in id order (no deadlock between jobs)."""
    site_ids = sorted(set(site_ids))
    SiteStructure.objects.bulk_create([SiteStructure(crawl_id=crawl_id, site_id=s) for s in site_ids],
                                      ignore_conflicts=True)
    rows = SiteStructure.objects.select_for_update().filter(crawl_id=crawl_id, site_id__in=site_ids).order_by("id")
    return {row.site_id: row for row in rows}


def _load(row: SiteStructure) -> SiteStructureState:
    return SiteStructureState.from_dict(row.state) if row.state else SiteStructureState()


def _save(rows: Iterable[SiteStructure], states: dict[int, SiteStructureState], iteration: bool) -> None:
    now = timezone.now()
    changed = []
    for row in rows:
        row.state = states[row.site_id].to_dict()
        row.iterations += 1 if iteration else 0
        row.updated_at = now
        changed.append(row)
    SiteStructure.objects.bulk_update(changed, ["state", "iterations", "updated_at"], batch_size=200)


def _distribute_with_state(module: StructureModule, crawl_id: int, targets: list[Target]) -> list[Placement]:
    """M03 over the batch with each site's GC/GB loaded before and stored after (redistribution writes GB)."""
    rows = _locked_states(crawl_id, (t.site_id for t in targets))
    names = {t.site_id: t.site.name for t in targets}
    by_id = {site_id: _load(row) for site_id, row in rows.items()}
    module.states = {names[site_id]: state for site_id, state in by_id.items()}
    placements = module.distribute([target_info(t) for t in targets])
    _save(rows.values(), by_id, iteration=True)
    return placements


def record_crawled(crawl_id: int, page_ids: Sequence[int]) -> int:
    """Walk the URLs of stored pages into M03's GC of their sites; returns pages recorded."""
    pages = list(Page.objects.filter(crawl_id=crawl_id, pk__in=list(page_ids)).values_list("site_id", "url"))
    if not pages:
        return 0
    urls: dict[int, list[str]] = defaultdict(list)
    for site_id, url in pages:
        urls[site_id].append(url)
    with transaction.atomic():
        rows = _locked_states(crawl_id, urls)
        states = {site_id: _load(row) for site_id, row in rows.items()}
        for site_id, state in states.items():
            state.record_crawled(urls[site_id])  # once per unique URL: recording twice changes nothing
        _save(rows.values(), states, iteration=False)
    return len(pages)


def update_priorities(crawl_id: int, target_ids: Sequence[int], frontier: FrontierSettings) -> int:
    """Set Target.priority from the stored placements of the configured modules; returns rows changed."""
    placements: dict[int, dict[str, Placement]] = defaultdict(dict)
    for row in LayerPlacement.objects.filter(target_id__in=list(target_ids), module__in=list(frontier.modules)):
        placements[row.target_id][row.module] = as_placement(row)
    changed = []
    for pk, depth, old in Target.objects.filter(crawl_id=crawl_id, pk__in=list(placements)).order_by("id") \
            .values_list("id", "depth", "priority"):
        new = layered_priority(placements[pk], depth, frontier.priority)
        if new != old:
            changed.append(Target(pk=pk, priority=new))
    for attempt in range(DEADLOCK_RETRIES):
        try:
            # Leasing locks Target rows too; ids in ascending order keep the window small, and a
            # deadlock PostgreSQL breaks is retried rather than failing the job.
            with transaction.atomic():
                Target.objects.bulk_update(changed, ["priority"], batch_size=200)
            break
        except OperationalError as error:
            if attempt == DEADLOCK_RETRIES - 1 or "deadlock" not in str(error).lower():
                raise
    return len(changed)


# --- what the dashboard shows ---------------------------------------------------------------
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
        explained["terms"] = priority_terms(by_module, target.depth, frontier.priority)
        explained["computed"] = layered_priority(by_module, target.depth, frontier.priority)
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
