"""Frontier placement: run a crawl's layer modules over a batch of Targets and store why.

For a batch of Target ids of one crawl this service builds each Target's TargetInfo (URL as
linked, anchor text, site name), runs the modules the crawl configures (``Crawl.config["modules"]``,
e.g. ``{"M01": {}, "M03": {"redistribute": true}}``), stores one LayerPlacement per (Target,
module) with its layer id, the rule that fired, the rule's evidence and the module's rank,
persists M03's GC/GB per (crawl, site), and sets ``Target.priority``. No "modules" key: the crawl
stays breadth-first (priority = -depth, set when the Target is added).

M01 places the batch's new Targets (its TF-IDF model is the batch). M03 builds GT from the current
Targets of each site the batch touches: the new ones plus the site's other pending Targets (up to
M03's ``max_site_targets``), and re-places the others once the site's crawled pages have grown by
M03's ``replace_growth`` since it last did, so their layers and ranks follow GC as the site is
crawled (see frontier.layers.structure).

Priority (higher = leased earlier; leasing orders a crawl's Targets by it) -- ``layered_priority``:

    priority = sum over configured modules of
                 (points[module][layer] + rule_points[module][rule]) x module_weight   (1. layers, rules)
             - eps x min(depth, 100)                                                (2. shallower first)
             + eps x (0.5 + atan(rank of the tie-break module) / pi)               (3. M03 Structure rank)

with the points, weights, the tie-break module and eps = tie_break_epsilon from
``Crawl.config["priority"]`` (frontier.priority.PriorityConfig: by default M01 Primary = Secondary
= 2, Reserve 0, +1 for a needle of the pair's languages, weight 3; M03 Primary 2, Secondary 1,
Reserve 0, weight 1; eps 1e-3 -- why, in frontier.priority and the README). The order is
lexicographic: M01's layer and rule, then M03's layer (the default weights keep all M03 can add
below one M01 step), then depth (eps x 101 is validated to be below the smallest layer or rule
step x weight, so no depth up to the cap outweighs a layer); among equal sums the crawl is
breadth-first (one depth level, eps, outweighs any rank term, which lies in (0, eps)); the
Structure rank orders what is left -- Targets of one layer sum and one depth, in practice siblings
of one site, which is where the method uses it ("order Targets within a layer"): M03's rank is a
GD score of one site's graph, so it is not comparable across sites and is not allowed to reorder
depths. A Target not placed yet (its job has not run) keeps -depth, so it waits behind placed
Targets.

Each batch is placed once per module: Targets that already have a module's placement are skipped,
so a job run twice changes nothing (M03's redistribution writes GB; doing it twice would double
the bonus), and M03 runs an iteration only for a batch that brings it new Targets. Placements and
M03 state are written in one transaction; priorities after it, from the stored placements, so a
retried job repairs a priority update that failed.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import OperationalError, connection, transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from crawlweb.crawler.scriptlinks import is_script_url
from crawlweb.language.dictionaries import MissingDictionary
from crawlweb.models import Crawl, Page
from crawlweb.services.bulk_rows import update_columns, write_target_priorities
from frontier.layers.base import LAYER_NAMES, UNASSIGNED, ConfigError, Placement, TargetInfo
from frontier.layers.registry import MODULES, build_modules
from frontier.layers.structure import StructureModule, replacement_due
from frontier.layers.structure_graph import SiteStructureState
from frontier.models import LayerPlacement, SiteStructure, SiteStructureNode, Target
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
def default_rule_points(modules: dict) -> dict[str, dict[str, float]]:
    """The rule points the configured modules ask for when the crawl sets none (M01: its pair's needles)."""
    return {code: MODULES[code].default_rule_points(options or {}) for code, options in modules.items()
            if code in MODULES}


def _priority_problem(priority: PriorityConfig, modules: dict, built: dict | None) -> str | None:
    """What is wrong with a valid-looking priority config given the crawl's modules (None: nothing)."""
    for key, codes in (("module_weights", priority.module_weights),
                       ("module_layer_points", priority.module_layer_points), ("rule_points", priority.rule_points or {})):
        unknown = sorted(set(codes) - set(MODULES))
        if unknown:
            return f"priority.{key}.{unknown[0]}: unknown module (known: {sorted(MODULES)})"
    if priority.tie_break_module is not None and priority.tie_break_module not in MODULES:
        return f"priority.tie_break_module: unknown module {priority.tie_break_module!r}"
    for code, rules in (priority.rule_points or {}).items():
        if built is not None and code in built:
            known = {rule.name for rule in built[code].rules} | {UNASSIGNED}
            unknown = sorted(set(rules) - known)
            if unknown:
                return f"priority.rule_points.{code}.{unknown[0]}: {code} has no such rule (its rules: {sorted(known)})"
    step = priority.with_default_rule_points(default_rule_points(modules)).smallest_step(modules)
    if step is not None and priority.tie_break_epsilon * (DEPTH_CAP + 1) >= step:
        return (f"priority.tie_break_epsilon: {priority.tie_break_epsilon} x {DEPTH_CAP + 1} must be below the "
                f"smallest layer or rule step ({step}), or depth would override layers")
    return None


@lru_cache(maxsize=64)
def _errors_of(config_json: str) -> tuple[tuple[str, str], ...]:
    config = json.loads(config_json)
    errors = []
    built = None
    if "modules" in config:
        try:
            built = build_modules(config["modules"])  # builds M01's lexicons: a missing dictionary shows here
        except (ConfigError, MissingDictionary) as error:
            errors.append(("modules", str(error)))
    if "priority" in config:
        try:
            priority = PriorityConfig.from_dict(config["priority"])
        except ConfigError as error:
            errors.append(("priority", str(error)))
        else:
            modules = config.get("modules") if isinstance(config.get("modules"), dict) else None
            problem = _priority_problem(priority, modules or {code: {} for code in MODULES}, built)
            if problem:
                errors.append(("priority", problem))
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
    priority = PriorityConfig.from_dict(config.get("priority")).with_default_rule_points(default_rule_points(modules))
    return FrontierSettings(dict(modules), priority)


# --- priority -----------------------------------------------------------------------------
def priority_terms(placements: dict[str, Placement], depth: int, config: PriorityConfig,
                   script: bool = False) -> list[tuple[str, float]]:
    """The summands of ``layered_priority``, named, so the dashboard can show where a number comes from.
    ``script``: the Target is a site's own script (link kind "script-src"), fetched after every page."""
    terms = []
    for code, p in sorted(placements.items()):
        weight = config.weight(code)
        terms.append((f"{code} {LAYER_NAMES[p.layer]} x weight {weight:g}", config.points(code)[p.layer] * weight))
        bonus = config.rule_bonus(code, p.rule)
        if bonus:
            terms.append((f"{code} rule {p.rule} x weight {weight:g}", bonus * weight))
    layers_and_rules = math.fsum(value for _, value in terms)
    if script:  # most scripts name no page: below every page, whatever layer its name earned (a page's
        # priority is at least -eps x DEPTH_CAP > -1)
        terms.append(("a site's own script: after every page", -(layers_and_rules + 1.0)))
    terms.append((f"depth {depth} (breadth-first among equal layers)",
                  -config.tie_break_epsilon * min(depth, DEPTH_CAP)))
    rank = combine_priority(placements, config) - layers_and_rules  # combine_priority's tie-break term, in (0, eps)
    if rank > 1e-12:
        terms.append((f"{config.tie_break_module} rank (tie-break)", rank))
    return terms


def layered_priority(placements: dict[str, Placement], depth: int, config: PriorityConfig,
                     script: bool = False) -> float:
    """A placed Target's priority: layers, then depth, then Structure rank (see the module docstring)."""
    return math.fsum(value for _, value in priority_terms(placements, depth, config, script))


def as_placement(row: LayerPlacement) -> Placement:
    return Placement(key=row.target_id, module=row.module, layer_id=row.layer_id, layer=row.layer,
                     rule=row.rule, evidence=row.evidence, rank=row.rank)


# --- placing a batch ----------------------------------------------------------------------
@dataclass
class PlacementReport:
    targets: int = 0
    placed: dict[str, int] = field(default_factory=dict)  # module -> Targets newly placed
    replaced: dict[str, int] = field(default_factory=dict)  # module -> pending Targets placed again (M03)
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
        replaced: set[int] = set()
        for code, module in build_modules(frontier.modules).items():
            todo = [t for t in targets if (t.pk, code) not in placed]
            if not todo:
                continue
            if isinstance(module, StructureModule):
                placements, others = _distribute_with_state(module, crawl_id, todo)
                replaced.update(others)
                report.replaced[code] = len(others)
            else:
                placements = module.distribute([target_info(t) for t in todo])
            rows += [LayerPlacement(target_id=p.key, module=p.module, layer_id=p.layer_id, layer=p.layer,
                                    rule=p.rule, evidence=p.evidence, rank=p.rank) for p in placements]
            report.placed[code] = len(todo)
        LayerPlacement.objects.bulk_create(
            rows, batch_size=500, update_conflicts=True, unique_fields=["target", "module"],
            update_fields=["layer_id", "layer", "rule", "evidence", "rank", "placed_at"])
    report.priorities_changed = update_priorities(crawl_id, sorted(set(ids) | replaced), frontier)
    return report


def _locked_states(crawl_id: int, site_ids: Iterable[int]) -> dict[int, SiteStructure]:
    """The (crawl, site) state rows, created when missing, locked in id order (no deadlock between jobs)."""
    site_ids = sorted(set(site_ids))
    SiteStructure.objects.bulk_create([SiteStructure(crawl_id=crawl_id, site_id=s) for s in site_ids],
                                      ignore_conflicts=True)
    rows = SiteStructure.objects.select_for_update().filter(crawl_id=crawl_id, site_id__in=site_ids).order_by("id")
    return {row.site_id: row for row in rows}


def _load(rows: dict[int, SiteStructure]) -> dict[int, SiteStructureState]:
    """Each site's GC and GB, read from the node rows of its locked state row."""
    site_of = {row.pk: site_id for site_id, row in rows.items()}
    nodes: dict[int, list] = {site_id: [] for site_id in rows}
    for structure_id, node, gc, gb in SiteStructureNode.objects.filter(structure_id__in=list(site_of)) \
            .values_list("structure_id", "node", "gc", "gb"):
        nodes[site_of[structure_id]].append((node, gc, gb))
    return {site_id: SiteStructureState.from_nodes(found) for site_id, found in nodes.items()}


def _save(rows: dict[int, SiteStructure], states: dict[int, SiteStructureState],
          before: dict[int, dict], iteration: bool) -> None:
    """Write the nodes whose GC score or GB bonus changed since ``before`` (each site's ``nodes()`` when
    loaded), nothing else; count an iteration on the state rows when M03 ran one."""
    changed = [SiteStructureNode(structure_id=rows[site_id].pk, node=node, gc=gc, gb=gb)
               for site_id, state in states.items()
               for node, (gc, gb) in state.nodes().items() if before[site_id].get(node) != (gc, gb)]
    SiteStructureNode.objects.bulk_create(changed, batch_size=500, update_conflicts=True,
                                          unique_fields=["structure", "node"], update_fields=["gc", "gb"])
    if iteration:  # one UPDATE, not bulk_update's CASE per row: the rows are locked, the count the same for all
        SiteStructure.objects.filter(pk__in=[row.pk for row in rows.values()]) \
            .update(iterations=F("iterations") + 1, updated_at=timezone.now())


def _loaded(crawl_id: int, site_ids: Iterable[int]):
    """Lock the sites' state rows and load their states; also returns their nodes as loaded, for _save."""
    rows = _locked_states(crawl_id, site_ids)
    states = _load(rows)
    return rows, states, {site_id: state.nodes() for site_id, state in states.items()}


def _current_targets(crawl_id: int, new: list[Target], limit: int) -> list[Target]:
    """Per site of ``new``: its other pending Targets, shallowest first, at most ``limit`` (M03's current Targets)."""
    if limit <= 0:
        return []
    site_ids, new_ids = sorted({t.site_id for t in new}), [t.pk for t in new]
    if connection.vendor == "postgresql":
        pending = Target.objects.filter(pk__in=_shallowest_pending_ids(crawl_id, site_ids, new_ids, limit))
    else:
        # One statement for all the batch's sites (a query per site cost more in building it than in
        # running it): each site's pending Targets numbered shallowest first, the first ``limit`` kept.
        shallowest_first = Window(RowNumber(), partition_by=[F("site_id")], order_by=[F("depth"), F("id")])
        pending = (Target.objects.filter(crawl_id=crawl_id, site_id__in=site_ids, state=Target.State.PENDING)
                   .exclude(pk__in=new_ids).annotate(place_in_site=shallowest_first)
                   .filter(place_in_site__lte=limit))
    return list(pending.select_related("site").order_by("site_id", "depth", "id"))


def _shallowest_pending_ids(crawl_id: int, site_ids: list[int], new_ids: list[int], limit: int) -> list[int]:
    """The first ``limit`` entries of each site in the index of its pending Targets by depth
    (target_site_shallowest): numbering all of a site's pending Targets, as the window does, read a big
    site's thousands at every batch of its links (38 ms a statement late in a 50,000-page crawl)."""
    # 'pending' (Target.State.PENDING) is written out, not a parameter: the planner matches the partial
    # index's condition on it.
    with connection.cursor() as cursor:
        cursor.execute("SELECT t.id FROM unnest(%s::bigint[]) AS s(site_id) CROSS JOIN LATERAL ("
                       " SELECT id FROM frontier_target WHERE crawl_id = %s AND site_id = s.site_id"
                       " AND state = 'pending' AND NOT (id = ANY(%s::bigint[])) ORDER BY depth, id LIMIT %s) AS t",
                       [site_ids, crawl_id, new_ids, limit])
        return [row[0] for row in cursor.fetchall()]


def _distribute_with_state(module: StructureModule, crawl_id: int,
                           new: list[Target]) -> tuple[list[Placement], list[int]]:
    """M03 over the new Targets and their sites' other pending ones, with each site's GC/GB loaded
    before and stored after (redistribution writes GB); returns the placements to store (the new
    Targets', and the others' of the sites due for re-placement) and those others' ids."""
    # Locked first: one iteration per site at a time.
    rows, by_id, before = _loaded(crawl_id, (t.site_id for t in new))
    others = _current_targets(crawl_id, new, module.max_site_targets)
    targets = new + others
    names = {t.site_id: t.site.name for t in targets}
    module.states = {names[site_id]: state for site_id, state in by_id.items()}
    placements = module.distribute([target_info(t) for t in targets])
    _save(rows, by_id, before, iteration=True)
    # The pages GC holds are its root's count: nothing more to store or keep up to date per crawled page.
    due = {site_id: state.pages_recorded for site_id, state in by_id.items()
           if replacement_due(state.pages_recorded, rows[site_id].replaced_at_pages, module.replace_growth)}
    moved = {rows[site_id].pk: pages for site_id, pages in due.items() if pages != rows[site_id].replaced_at_pages}
    if moved:  # a site with no page crawled yet is due at every batch, with nothing to write
        update_columns(SiteStructure, {"replaced_at_pages": moved})
    replaced = {t.pk for t in others if t.site_id in due}
    kept = {t.pk for t in new} | replaced
    return [p for p in placements if p.key in kept], sorted(replaced)


def record_crawled(crawl_id: int, page_ids: Sequence[int]) -> int:
    """Walk the URLs of stored pages into M03's GC of their sites; returns pages recorded.

    Each page once: the crawl step that stored it calls this (frontier.followup). The crawled URLs
    are not stored to skip a page recorded twice, as they would grow with every page of a site."""
    pages = list(Page.objects.filter(crawl_id=crawl_id, pk__in=list(page_ids)).values_list("site_id", "url"))
    if not pages:
        return 0
    urls: dict[int, list[str]] = defaultdict(list)
    for site_id, url in pages:
        urls[site_id].append(url)
    with transaction.atomic():
        rows, states, before = _loaded(crawl_id, urls)
        for site_id, state in states.items():
            state.record_crawled(urls[site_id])
        _save(rows, states, before, iteration=False)
    return len(pages)


def update_priorities(crawl_id: int, target_ids: Sequence[int], frontier: FrontierSettings) -> int:
    """Set Target.priority from the stored placements of the configured modules; returns rows changed."""
    placements: dict[int, dict[str, Placement]] = defaultdict(dict)
    for row in LayerPlacement.objects.filter(target_id__in=list(target_ids), module__in=list(frontier.modules)):
        placements[row.target_id][row.module] = as_placement(row)
    changed = []
    for pk, depth, old, url in Target.objects.filter(crawl_id=crawl_id, pk__in=list(placements)).order_by("id") \
            .values_list("id", "depth", "priority", "url"):
        new = layered_priority(placements[pk], depth, frontier.priority, is_script_url(url))
        if new != old:
            changed.append(Target(pk=pk, priority=new))
    if not changed:
        return 0  # nothing to write: no need to wait for the crawl's store lock
    for attempt in range(DEADLOCK_RETRIES):
        try:
            # write_target_priorities takes the locks that keep it out of a deadlock with the crawl's
            # stores and leases; one with another writer is still retried rather than failing the job.
            with transaction.atomic():
                write_target_priorities(crawl_id, changed)
            break
        except OperationalError as error:
            if attempt == DEADLOCK_RETRIES - 1 or "deadlock" not in str(error).lower():
                raise
    return len(changed)

