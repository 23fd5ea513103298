"""A Target's fetch priority from its layer placements (pure: no Django).

Default: priority = sum over modules of layer points (Primary 2, Secondary 1, Reserve 0) x module
weight, plus a tie-breaker from the rank score of one named module (M03's Structure rank by
default). The rank is squashed into (0, 1) by 0.5 + atan(rank)/pi and scaled by
``tie_break_epsilon``, so it only reorders Targets whose weighted sums differ by less than epsilon
(validated to be below the smallest single-module step). Higher priority = fetched earlier.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from frontier.layers.base import LAYER_BY_NAME, LAYER_NAMES, ConfigError, Placement

DEFAULT_LAYER_POINTS = {1: 2.0, 2: 1.0, 3: 0.0}
DEFAULT_MODULE_WEIGHTS = {"M01": 1.0, "M03": 1.0}
_KEYS = {"module_weights", "layer_points", "default_module_weight", "tie_break_module", "tie_break_epsilon"}


def _number(value, key: str, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"priority.{key}: must be a finite number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"priority.{key}: must be >= {minimum}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class PriorityConfig:
    module_weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_MODULE_WEIGHTS))
    layer_points: Mapping[int, float] = field(default_factory=lambda: dict(DEFAULT_LAYER_POINTS))
    default_module_weight: float = 1.0  # for a placed module the crawl did not weigh
    tie_break_module: str | None = "M03"
    tie_break_epsilon: float = 1e-3

    @classmethod
    def from_dict(cls, data: dict | None) -> "PriorityConfig":
        """Keys: module_weights {code: w>=0}, layer_points {primary, secondary, reserve},
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
        points_in = data.get("layer_points", {LAYER_NAMES[i].lower(): p for i, p in DEFAULT_LAYER_POINTS.items()})
        if not isinstance(points_in, dict):
            raise ConfigError("priority.layer_points: must be a dict with keys primary, secondary, reserve")
        for name in points_in:
            if name not in LAYER_BY_NAME:
                raise ConfigError(f"priority.layer_points.{name}: unknown layer (use primary, secondary, reserve)")
        missing = [name for name in LAYER_BY_NAME if name not in points_in]
        if missing:
            raise ConfigError(f"priority.layer_points.{missing[0]}: missing")
        points = {LAYER_BY_NAME[n]: _number(p, f"layer_points.{n}") for n, p in points_in.items()}
        if not points[1] >= points[2] >= points[3]:
            raise ConfigError("priority.layer_points: must not increase from primary to secondary to reserve")
        tie_module = data.get("tie_break_module", "M03")
        if tie_module is not None and not isinstance(tie_module, str):
            raise ConfigError(f"priority.tie_break_module: must be a module code or null, got {tie_module!r}")
        epsilon = _number(data.get("tie_break_epsilon", 1e-3), "tie_break_epsilon")
        if epsilon <= 0:
            raise ConfigError(f"priority.tie_break_epsilon: must be > 0, got {epsilon!r}")
        default_weight = _number(data.get("default_module_weight", 1.0), "default_module_weight", 0.0)
        step = _smallest_step(points, list(weights.values()) + [default_weight])
        if step is not None and epsilon >= step:
            raise ConfigError(
                f"priority.tie_break_epsilon: {epsilon} must be below the smallest layer step x weight ({step}),"
                " or the tie-breaker would override layers"
            )
        return cls(weights, points, default_weight, tie_module, epsilon)

    def weight(self, module: str) -> float:
        return self.module_weights.get(module, self.default_module_weight)


def _smallest_step(points: dict[int, float], weights: list[float]) -> float | None:
    gaps = [a - b for a, b in ((points[1], points[2]), (points[2], points[3])) if a > b]
    positive = [w for w in weights if w > 0]
    if not gaps or not positive:
        return None
    return min(gaps) * min(positive)


def combine_priority(placements_by_module: dict[str, Placement], config: PriorityConfig) -> float:
    """One float per Target, higher = fetched earlier. A module missing from the dict adds nothing."""
    total = 0.0
    for module, placement in placements_by_module.items():
        if placement.module != module:
            raise ValueError(f"placement of module {placement.module!r} filed under {module!r}")
        if placement.layer not in config.layer_points:
            raise ValueError(f"placement {placement.key!r} of {module}: layer {placement.layer!r} is not 1, 2 or 3")
        total += config.layer_points[placement.layer] * config.weight(module)
    tie = placements_by_module.get(config.tie_break_module) if config.tie_break_module else None
    if tie is not None and tie.rank is not None and math.isfinite(tie.rank):
        total += config.tie_break_epsilon * (0.5 + math.atan(tie.rank) / math.pi)
    return total
