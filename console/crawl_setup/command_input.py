"""``crawl start``'s options as CrawlSetupForm data: a preset, then a JSON file, then the flags.

Each layer overrides the one before, so ``--preset "Barbosa COBFC" --budget 500`` is the preset with
another budget. Values stay as text where the form parses them, so a bad value gets the form's own
message (the dashboard shows the same line). Reading a file that is missing or not JSON is the only
error raised here (``InputError``), named like a form error: ``config: …``.
"""
from __future__ import annotations

import json
from pathlib import Path

from crawlweb import bounded_json
from console.crawl_setup.form import CrawlSetupForm, with_preset
from console.crawl_setup.presets import preset_named, preset_names

COMMAND_NAME = "command-line crawl"
# flag (argparse dest) -> form field, for flags whose text goes to the form as it is
PLAIN_FLAGS = {"name": "name", "seed_list": "seed_list", "strategy": "strategy", "pair": "pair",
               "edge_file": "edge_file", "backlink_url_template": "backlink_url_template",
               "topic_cutoff": "topic_cutoff", "host_interval": "host_interval", "address_policy": "address_policy",
               "budget": "page_budget", "time_limit": "time_limit", "parallel_steps": "parallel_steps"}
LIST_FLAGS = {"modules": "modules", "backlinks": "backlink_providers"}  # comma-separated
FILE_FLAGS = {"topic": "topic_definition", "url_rules": "url_rules"}  # the file's text


class InputError(ValueError):
    """An option the form never sees: a preset name, or a file that cannot be read."""


def form_data(options: dict) -> dict:
    """The form's data for ``options`` (argparse's dict); raises InputError."""
    values = {**CrawlSetupForm.defaults(), "name": COMMAND_NAME}
    if options.get("preset"):
        values = _preset(values, options["preset"], "preset")
    if options.get("config"):
        values = _config_file(values, Path(options["config"]))
    for flag, field in PLAIN_FLAGS.items():
        if options.get(flag) is not None:
            values[field] = options[flag]
    for flag, field in LIST_FLAGS.items():
        if options.get(flag) is not None:
            values[field] = [item.strip() for item in options[flag].split(",") if item.strip()]
    for flag, field in FILE_FLAGS.items():
        if options.get(flag) is not None:
            values[field] = _read(Path(options[flag]), flag)
    if options.get("weights"):
        values.update(_weights(options["weights"]))
    if options.get("url"):
        values["start_urls"] = "\n".join(options["url"])
    if options.get("in_site_only"):
        values["follow_out_of_site"] = False
    return values


def _preset(values: dict, name: str, where: str) -> dict:
    preset = preset_named(str(name))
    if preset is None:
        raise InputError(f"{where}: no preset named {name!r} (presets: {preset_names()})")
    return with_preset(values, preset.slug)


def _read(path: Path, flag: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{flag}: cannot read {path}: {error.strerror if isinstance(error, OSError) else error}") \
            from None


def _config_file(values: dict, path: Path) -> dict:
    """A JSON object of form fields; "preset" is applied first, "extra_config" may be an object."""
    try:
        data = bounded_json.loads(_read(path, "config"))
    except bounded_json.JsonInputError as error:
        raise InputError(f"config: {path}: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"config: {path} must hold a JSON object of form fields")
    fields = set(CrawlSetupForm.base_fields)
    unknown = sorted(set(data) - fields)
    if unknown:
        raise InputError(f"config: unknown keys {', '.join(unknown)} in {path} (fields: {', '.join(sorted(fields))})")
    if data.get("preset"):
        values = _preset(values, data["preset"], "config: preset")
    values.update({key: value for key, value in data.items() if key != "preset"})
    if isinstance(values.get("extra_config"), dict):
        values["extra_config"] = json.dumps(values["extra_config"])
    return values


def _weights(text: str) -> dict:
    """"M01=3,M03=1" -> {"weight_m01": "3", "weight_m03": "1"}."""
    values = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        code, _, weight = item.partition("=")
        field = f"weight_{code.strip().lower()}"
        if field not in CrawlSetupForm.base_fields or not weight:
            raise InputError(f"weights: {item!r} is not MODULE=WEIGHT with a module of M01, M03")
        values[field] = weight.strip()
    return values
