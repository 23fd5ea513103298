"""Frontier layer modules by code: adding a module is one file plus one line here."""
from __future__ import annotations

from .base import ConfigError, FrontierLayerModule
from .language import LanguageModule
from .structure import StructureModule

MODULES: dict[str, type[FrontierLayerModule]] = {"M01": LanguageModule, "M03": StructureModule}


def build_modules(config: dict) -> dict[str, FrontierLayerModule]:
    """{"M01": {...}, "M03": {...}} (a crawl's module configuration) -> built modules by code."""
    if not isinstance(config, dict):
        raise ConfigError(f"modules: configuration must be a dict of code -> options, got {type(config).__name__}")
    modules = {}
    for code, options in config.items():
        cls = MODULES.get(code)
        if cls is None:
            raise ConfigError(f"modules.{code}: unknown frontier layer module (known: {sorted(MODULES)})")
        modules[code] = cls.from_config(options or {})
    return modules
