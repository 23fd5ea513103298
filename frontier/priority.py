"""A Target's fetch priority from its layer placements (pure: no Django).

priority = sum over modules of (points[module][layer] + rule_points[module][rule]) x weight[module]
           + a tie-breaker from the rank score of one named module (M03's Structure rank by default).

The rank is squashed into (0, 1) by 0.5 + atan(rank)/pi and scaled by ``tie_break_epsilon``, so it
only reorders Targets whose weighted sums differ by less than epsilon (validated to be below the
smallest step a layer or rule can make). Higher priority = fetched earlier.

Defaults (our choice; the method leaves the combination open -- see the README, "Layered frontier"):
  * layer points Primary 2, Secondary 1, Reserve 0, except M01, whose Primary and Secondary are
    both worth 2: M01 puts the pair's first language (Serbian) in Primary and the second (English)
    in Secondary, and a crawl for parallel pages needs both sides alike -- with Secondary below
    Primary every Serbian page of every site, monolingual ones included, is fetched before any
    English side, and pairs stay half-fetched;
  * rule points: a Target that M01 placed by a needle of the pair's languages (rules 1-2: an
    explicit language marker in its URL or anchor, such as /en/, ?lang=sr, _en, "English") gets
    1 point more than one placed by language estimation (rules 10-11): a marker is stronger
    evidence than a guess from the words, and it is the mark of a site that keeps its language
    versions apart, i.e. of a multilingual site. The module supplies this default
    (FrontierLayerModule.default_rule_points), so another pair gets its own needles;
  * weights M01 3, M03 1: M01's smallest step (3) is above all M03 can add (2), so the order is
    lexicographic -- language evidence first, then structure, then (placement) depth, then rank.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Mapping

from frontier.layers.base import LAYER_BY_NAME, LAYER_NAMES, ConfigError, Placement

DEFAULT_LAYER_POINTS = {1: 2.0, 2: 1.0, 3: 0.0}
DEFAULT_MODULE_LAYER_POINTS = {"M01": {1: 2.0, 2: 2.0, 3: 0.0}}
DEFAULT_MODULE_WEIGHTS = {"M01": 3.0, "M03": 1.0}
_KEYS = {"module_weights", "layer_points", "module_layer_points", "rule_points", "default_module_weight",
         "tie_break_module", "tie_break_epsilon"}


def _number(value, key: str, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"priority.{key}: must be a finite number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"priority.{key}: must be >= {minimum}, got {value!r}")
    return float(value)


def _layer_points(points_in, key: str) -> dict[int, float]:
    """{"primary": p1, "secondary": p2, "reserve": p3} -> {1: p1, 2: p2, 3: p3}, checked."""
    if not isinstance(points_in, dict):
        raise ConfigError(f"priority.{key}: must be a dict with keys primary, secondary, reserve")
    for name in points_in:
        if name not in LAYER_BY_NAME:
            raise ConfigError(f"priority.{key}.{name}: unknown layer (use primary, secondary, reserve)")
    missing = [name for name in LAYER_BY_NAME if name not in points_in]
    if missing:
        raise ConfigError(f"priority.{key}.{missing[0]}: missing")
    points = {LAYER_BY_NAME[n]: _number(p, f"{key}.{n}") for n, p in points_in.items()}
    if not points[1] >= points[2] >= points[3]:
        raise ConfigError(f"priority.{key}: must not increase from primary to secondary to reserve")
    return points


def _as_names(points: Mapping[int, float]) -> dict[str, float]:
    return {LAYER_NAMES[i].lower(): p for i, p in points.items()}


def _rule_points(data, key: str = "rule_points") -> dict[str, dict[str, float]]:
    """{module: {rule: points >= 0}}, checked (rule names are checked against the built modules by the lead)."""
    if not isinstance(data, dict):
        raise ConfigError(f"priority.{key}: must be a dict of module code -> {{rule name: points}}")
    out = {}
    for code, rules in data.items():
        if not isinstance(rules, dict):
            raise ConfigError(f"priority.{key}.{code}: must be a dict of rule name -> points")
        out[str(code)] = {str(rule): _number(p, f"{key}.{code}.{rule}", 0.0) for rule, p in rules.items()}
    return out


@dataclass(frozen=True)
class PriorityConfig:
    module_weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_MODULE_WEIGHTS))
    layer_points: Mapping[int, float] = field(default_factory=lambda: dict(DEFAULT_LAYER_POINTS))
    module_layer_points: Mapping[str, Mapping[int, float]] = field(
        default_factory=lambda: {code: dict(points) for code, points in DEFAULT_MODULE_LAYER_POINTS.items()})
    # None = each module's own default (FrontierLayerModule.default_rule_points), filled in by the
    # lead that knows the modules (frontier.placement.frontier_settings); until then no rule points.
    rule_points: Mapping[str, Mapping[str, float]] | None = None
    default_module_weight: float = 1.0  # for a placed module the crawl did not weigh
    tie_break_module: str | None = "M03"
    tie_break_epsilon: float = 1e-3

    @classmethod
    def from_dict(cls, data: dict | None) -> "PriorityConfig":
        """Keys: module_weights {code: w>=0}, layer_points {primary, secondary, reserve},
        module_layer_points {code: {primary, secondary, reserve}} (its default, M01 2/2/0, applies only
        when neither key is given), rule_points {code: {rule: points>=0}} (replaces the modules' defaults),
        default_module_weight, tie_break_module (code or null), tie_break_epsilon (> 0)."""
        data = {} if data is None else data
        if not isinstance(data, dict):
            raise ConfigError(f"priority: configuration must be a dict, got {type(data).__name__}")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise ConfigError(f"priority: unknown key {unknown[0]!r} (allowed: {sorted(_KEYS)})")
        weights = data.get("module_weights", DEFAULT_MODULE_WEIGHTS)
        if not isinstance(weights, dict):
            raise ConfigError("priority.module_weights: must be a dict of module code -> weight")
        weights = {str(code): _number(w, f"module_weights.{code}", 0.0) for code, w in weights.items()}
        points = _layer_points(data.get("layer_points", _as_names(DEFAULT_LAYER_POINTS)), "layer_points")
        # The default M01 entry goes with the default layer points: a crawl that sets layer_points
        # means them for every module, unless it also says otherwise per module.
        default_per_module = {} if "layer_points" in data else {
            code: _as_names(p) for code, p in DEFAULT_MODULE_LAYER_POINTS.items()}
        per_module_in = data.get("module_layer_points", default_per_module)
        if not isinstance(per_module_in, dict):
            raise ConfigError("priority.module_layer_points: must be a dict of module code -> layer points")
        per_module = {str(code): _layer_points(p, f"module_layer_points.{code}") for code, p in per_module_in.items()}
        rule_points = _rule_points(data["rule_points"]) if "rule_points" in data else None
        tie_module = data.get("tie_break_module", "M03")
        if tie_module is not None and not isinstance(tie_module, str):
            raise ConfigError(f"priority.tie_break_module: must be a module code or null, got {tie_module!r}")
        epsilon = _number(data.get("tie_break_epsilon", 1e-3), "tie_break_epsilon")
        if epsilon <= 0:
            raise ConfigError(f"priority.tie_break_epsilon: must be > 0, got {epsilon!r}")
        default_weight = _number(data.get("default_module_weight", 1.0), "default_module_weight", 0.0)
        config = cls(weights, points, per_module, rule_points, default_weight, tie_module, epsilon)
        step = config.smallest_step(set(weights) | set(per_module) | set(rule_points or {}) | {"*"})
        if step is not None and epsilon >= step:
            raise ConfigError(
                f"priority.tie_break_epsilon: {epsilon} must be below the smallest layer or rule step x weight"
                f" ({step}), or the tie-breaker would override layers"
            )
        return config

    def with_default_rule_points(self, defaults: Mapping[str, Mapping[str, float]]) -> "PriorityConfig":
        """This config with the modules' default rule points, unless the crawl configured its own."""
        if self.rule_points is not None:
            return self
        return replace(self, rule_points={code: dict(rules) for code, rules in defaults.items() if rules})

    def weight(self, module: str) -> float:
        return self.module_weights.get(module, self.default_module_weight)

    def points(self, module: str) -> Mapping[int, float]:
        """Layer points of ``module``: its own entry in module_layer_points, else layer_points."""
        return self.module_layer_points.get(module, self.layer_points)

    def rule_bonus(self, module: str, rule: str) -> float:
        return (self.rule_points or {}).get(module, {}).get(rule, 0.0)

    def smallest_step(self, modules) -> float | None:
        """The least a layer or rule change of one of ``modules`` moves the priority ("*": an unweighted,
        unlisted module); None when nothing moves it."""
        steps = []
        for code in modules:
            weight = self.default_module_weight if code == "*" else self.weight(code)
            if weight <= 0:
                continue
            points = self.layer_points if code == "*" else self.points(code)
            gaps = [a - b for a, b in ((points[1], points[2]), (points[2], points[3])) if a > b]
            gaps += [p for p in (self.rule_points or {}).get(code, {}).values() if p > 0]
            if gaps:
                steps.append(min(gaps) * weight)
        return min(steps) if steps else None


def combine_priority(placements_by_module: dict[str, Placement], config: PriorityConfig) -> float:
    """One float per Target, higher = fetched earlier. A module missing from the dict adds nothing."""
    total = 0.0
    for module, placement in placements_by_module.items():
        if placement.module != module:
            raise ValueError(f"placement of module {placement.module!r} filed under {module!r}")
        if placement.layer not in (1, 2, 3):
            raise ValueError(f"placement {placement.key!r} of {module}: layer {placement.layer!r} is not 1, 2 or 3")
        points = config.points(module)[placement.layer] + config.rule_bonus(module, placement.rule)
        total += points * config.weight(module)
    tie = placements_by_module.get(config.tie_break_module) if config.tie_break_module else None
    if tie is not None and tie.rank is not None and math.isfinite(tie.rank):
        total += config.tie_break_epsilon * (0.5 + math.atan(tie.rank) / math.pi)
    return total
