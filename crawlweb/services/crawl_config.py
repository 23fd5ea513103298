"""A crawl's effective configuration: its JSON ``config`` over the site-wide settings, validated.

Keys an operator may set in Crawl.config (all optional):
  url_rules       text, lines "allow|exclude HOST:<regex>|URL:<regex>"
  session_params  list of query-parameter names treated as session ids
  host_aliases    list of groups of host names; the first of a group is the canonical name
  host_interval   seconds between two requests to one host, 0 to 3600 (Crawl-delay wins when larger)
  address_policy  "public", "loopback" or "private" (see CRAWLER_ADDRESS_POLICY)
  max_url_length  longest URL scheduled
  text_urls       true: follow URLs written out in plain-text documents (text/plain); default false
  sitemaps        false: never fetch robots.txt Sitemap: lines nor /sitemap.xml (sitemap_targets.py); default true
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError

from crawlweb.bounded_json import MAX_DEPTH, value_depth
from crawlweb.crawler.politeness import MAX_HOST_INTERVAL_S
from crawlweb.crawler.urls import DEFAULT_SESSION_PARAMS, RuleError, UrlRules
from crawlweb.services.crawl_policy import config_errors

ADDRESS_POLICIES = ("public", "loopback", "private")
KNOWN_KEYS = {"url_rules", "session_params", "host_aliases", "host_interval", "address_policy",
              "max_url_length", "text_urls", "sitemaps", "modules", "priority",
              # discovery keys, validated by frontier/discovery_settings.py
              "backlinks", "queue_ratio", "detector", "learning", "topic", "random_seed"}


@dataclass(frozen=True)
class CrawlConfig:
    rules: UrlRules
    session_params: tuple[str, ...]
    host_aliases: dict[str, str]
    host_interval: float
    address_policy: str
    max_url_length: int
    text_urls: bool = False
    sitemaps: bool = True

    @classmethod
    def for_crawl(cls, crawl) -> "CrawlConfig":
        return cls.from_dict(crawl.config or {})

    @classmethod
    def from_dict(cls, config: dict) -> "CrawlConfig":
        """Build the configuration, raising ValidationError that names each bad key."""
        if not isinstance(config, dict):
            raise ValidationError("crawl config must be a JSON object")
        errors = {}
        if value_depth(config) > MAX_DEPTH:  # checked before anything walks it recursively
            raise ValidationError({"config": f"nested deeper than {MAX_DEPTH} levels"})
        non_finite = list(_non_finite_numbers(config, ""))
        if non_finite:  # NaN, Infinity and 1e400 parse in Python but are not JSON numbers: no database stores them
            errors["config"] = f"not a finite number at {', '.join(non_finite)} (NaN, Infinity, 1e400)"
            raise ValidationError(errors)
        unknown = set(config) - KNOWN_KEYS
        if unknown:
            errors["config"] = f"unknown keys: {', '.join(sorted(unknown))} (known: {', '.join(sorted(KNOWN_KEYS))})"
        try:
            rules = UrlRules.parse(config.get("url_rules", ""))
        except RuleError as error:
            errors["url_rules"] = str(error)
            rules = UrlRules.parse("")
        aliases = {}
        groups = config.get("host_aliases", [])
        if not (isinstance(groups, list) and all(isinstance(g, list) and g and all(isinstance(h, str) for h in g)
                                                 for g in groups)):
            errors["host_aliases"] = "must be a list of lists of host names, canonical name first"
        else:
            aliases = {alias.lower(): group[0].lower() for group in groups for alias in group[1:]}
        interval = config.get("host_interval", settings.CRAWLER_HOST_INTERVAL)
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or interval < 0:
            errors["host_interval"] = f"must be a number of seconds >= 0, not {interval!r}"
        elif interval > MAX_HOST_INTERVAL_S:  # the bound of crawler.politeness, as for CRAWLER_HOST_INTERVAL
            errors["host_interval"] = (f"must be at most {MAX_HOST_INTERVAL_S:g} seconds (an hour), "
                                       f"not {interval:g}")
        policy = config.get("address_policy", settings.CRAWLER_ADDRESS_POLICY)
        if policy not in ADDRESS_POLICIES:
            errors["address_policy"] = f"must be one of {', '.join(ADDRESS_POLICIES)}, not {policy!r}"
        max_length = config.get("max_url_length", settings.CRAWLER_MAX_URL_LENGTH)
        if not isinstance(max_length, int) or max_length < 20:
            errors["max_url_length"] = f"must be an integer >= 20, not {max_length!r}"
        params = config.get("session_params", list(DEFAULT_SESSION_PARAMS))
        if not (isinstance(params, list) and all(isinstance(p, str) for p in params)):
            errors["session_params"] = "must be a list of parameter names"
        text_urls = config.get("text_urls", False)
        if not isinstance(text_urls, bool):
            errors["text_urls"] = f"must be true or false, not {text_urls!r}"
        sitemaps = config.get("sitemaps", True)
        if not isinstance(sitemaps, bool):
            errors["sitemaps"] = f"must be true or false, not {sitemaps!r}"
        errors.update(config_errors(config))  # the frontier's keys: discovery, "modules", "priority"
        if errors:
            raise ValidationError(errors)
        return cls(rules=rules, session_params=tuple(params), host_aliases=aliases,
                   host_interval=float(interval), address_policy=policy, max_url_length=max_length,
                   text_urls=text_urls, sitemaps=sitemaps)


def _non_finite_numbers(value, path: str):
    """The paths (e.g. "host_interval", "priority.module_weights.M01") of NaN or infinite numbers in value."""
    if isinstance(value, float) and not math.isfinite(value):
        yield path or "the top level"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite_numbers(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_finite_numbers(item, f"{path}[{index}]")


def error_lines(error: ValidationError) -> list[str]:
    """A CrawlConfig ValidationError as lines "key: message" (for a form field that holds the whole config)."""
    if not hasattr(error, "error_dict"):
        return list(error.messages)
    return [f"{key}: {message}" if key != "config" else message
            for key, messages in error.message_dict.items() for message in messages]
