"""Frontier Layer Module base class (pure: no Django).

A module declares three layers -- Primary (the surface layer, ``Mxx.L01``), Secondary (the 1st
layer, ``Mxx.L02``) and Reserve (the 2nd layer, ``Mxx.L03``) -- and an ordered list of rules.
Rules run in order over the batch; the first rule that fires for a Target places it; Targets no
rule placed go to Reserve with rule ``"unassigned"``.

Passive rules test each Target on its own; active rules first compute something over the whole
batch. Both share one interface, :meth:`Rule.fire`, which sees the whole prepared batch and the
indices still unplaced, so an active rule can use every Target of the batch (M01's TF-IDF model
needs the Targets earlier rules placed too) while only placing the pending ones.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Sequence
from urllib.parse import urlsplit

PRIMARY, SECONDARY, RESERVE = 1, 2, 3
LAYER_NAMES = {PRIMARY: "Primary", SECONDARY: "Secondary", RESERVE: "Reserve"}
LAYER_BY_NAME = {name.lower(): index for index, name in LAYER_NAMES.items()}
UNASSIGNED = "unassigned"


class ConfigError(ValueError):
    """A module, priority or language configuration is invalid; the message names the bad key."""


@dataclass(frozen=True)
class TargetInfo:
    """What a module knows about one link instance of a Target.

    Several TargetInfo with the same ``key`` are several link instances of one Target: modules
    merge them (anchor texts joined) and place the Target once.
    """

    key: Hashable
    url: str  # as linked, fragment included
    anchor_text: str = ""
    site: str = ""  # host without "www."; derived from url when empty
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def site_name(self) -> str:
        if self.site:
            return self.site
        return site_of(self.url)


def site_of(url: str) -> str:
    """Host of ``url`` in lower case without a leading ``www.``."""
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


@dataclass(frozen=True)
class Placement:
    """Where one module put one Target, why, and its rank inside the layer (higher = earlier)."""

    key: Hashable
    module: str
    layer_id: str  # e.g. "M01.L02"
    layer: int  # 1 Primary, 2 Secondary, 3 Reserve
    rule: str
    evidence: dict
    rank: float | None = None

    @property
    def layer_name(self) -> str:
        return LAYER_NAMES[self.layer]


def layer_id(module_code: str, layer: int) -> str:
    return f"{module_code}.L{layer:02d}"


class Rule(ABC):
    """One placement rule. ``fire`` returns {batch index: evidence} for the Targets it places."""

    name: str
    layer: int
    active: bool = False

    @abstractmethod
    def fire(self, batch: Any, pending: Sequence[int]) -> dict[int, dict]:
        """Evidence for every pending index this rule places (JSON-able dicts)."""


def merge_link_instances(targets: Sequence[TargetInfo]) -> list[TargetInfo]:
    """One TargetInfo per key, first-seen order; anchor texts of repeated instances are joined."""
    merged: dict[Hashable, TargetInfo] = {}
    anchors: dict[Hashable, list[str]] = {}
    for target in targets:
        if not isinstance(target, TargetInfo):
            raise TypeError(f"expected TargetInfo, got {type(target).__name__}")
        first = merged.get(target.key)
        if first is None:
            merged[target.key] = target
            anchors[target.key] = [target.anchor_text] if target.anchor_text else []
        elif target.anchor_text and target.anchor_text not in anchors[target.key]:
            anchors[target.key].append(target.anchor_text)
    out = []
    for key, target in merged.items():
        texts = anchors[key]
        if len(texts) > 1:
            target = TargetInfo(target.key, target.url, " ".join(texts), target.site, target.extra)
        out.append(target)
    return out


class FrontierLayerModule(ABC):
    """Base class: subclasses set ``code``, build ``self.rules`` and implement ``prepare``."""

    code: ClassVar[str]
    rules: list[Rule]

    @classmethod
    @abstractmethod
    def from_config(cls, config: dict) -> "FrontierLayerModule":
        """Build the module from the crawl's configuration dict (raises ConfigError)."""

    @classmethod
    def default_rule_points(cls, config: dict) -> dict[str, float]:
        """Priority points a crawl gives, unless it says otherwise, to Targets placed by these rules
        (rule name -> points; see frontier.priority). None by default."""
        return {}

    @abstractmethod
    def prepare(self, targets: list[TargetInfo]) -> Any:
        """Compute the per-batch features the rules test (called once per distribute)."""

    def rank(self, batch: Any) -> Sequence[float | None] | None:
        """Optional rank score per Target (orders Targets inside a layer); None = no rank."""
        return None

    def layer_ids(self) -> dict[int, str]:
        return {index: layer_id(self.code, index) for index in LAYER_NAMES}

    def distribute(self, targets: Sequence[TargetInfo]) -> list[Placement]:
        """Place every unique Target of the batch; one Placement per key, first-seen order."""
        unique = merge_link_instances(targets)
        if not unique:
            return []
        batch = self.prepare(unique)
        placed: list[tuple[str, int, dict] | None] = [None] * len(unique)
        pending: list[int] = list(range(len(unique)))
        for rule in self.rules:
            if not pending:
                break
            fired = rule.fire(batch, pending)
            if not fired:
                continue
            for index, evidence in fired.items():
                placed[index] = (rule.name, rule.layer, evidence)
            pending = [i for i in pending if i not in fired]
        ranks = self.rank(batch)
        fallback = self.unassigned_evidence(batch)
        placements = []
        for i, target in enumerate(unique):
            if placed[i] is None:
                rule_name, layer, evidence = UNASSIGNED, RESERVE, fallback(i)
            else:
                rule_name, layer, evidence = placed[i]
            placements.append(
                Placement(
                    key=target.key,
                    module=self.code,
                    layer_id=layer_id(self.code, layer),
                    layer=layer,
                    rule=rule_name,
                    evidence=evidence,
                    rank=None if ranks is None else ranks[i],
                )
            )
        return placements

    def unassigned_evidence(self, batch: Any):
        """Evidence factory for Targets no rule placed (subclasses may say what was computed)."""
        return lambda index: {}


def require_keys(config: dict, allowed: set[str], where: str) -> None:
    """Reject unknown keys so a typo in a crawl configuration is not silently ignored."""
    if not isinstance(config, dict):
        raise ConfigError(f"{where}: configuration must be a dict, got {type(config).__name__}")
    unknown = sorted(set(config) - allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (allowed: {sorted(allowed)})")
