"""bench/realweb.py's truth and measures: the real development web's truth.json, read once, and
the figures computed against it (pure: no Django).

truth.json (shared/data/real-sites, or the built real web, REAL_WEB_DIR): ``sites`` with host,
kind ("hub" for the hub pages that link the sites), bilingual_sr_en, parallel_pairs (URLs, or
paths of the site), optional parallel_pairs_translated, pair_status (``"a b"`` or ``"a|b"`` →
"translated", "partial: …"), optional page_languages (URL or path → sr-Latn, en, hr, bs, cnr, mk, mixed …) and other_language_pairs;
optional top-level ``seed_urls`` and ``hubs`` (the hub pages' URLs).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from crawlweb.crawler.urls import normalize_url

# A truth pair whose status says a side was never translated is no translation: the pairing
# method rejects it on purpose (untranslated.py), so pair figures count it apart.
UNTRANSLATED_STATUS = ("partial", "untranslated", "body identical")


def site_name(host: str) -> str:
    return host.removeprefix("www.")


def page_key(url: str) -> str:
    """A URL as the page it names: the server answers /x/ with /x/index.html and /x with a redirect to
    /x/, and the crawl stores whichever URL reached the page first, so both sides of a comparison drop
    the index file and a folder's final slash."""
    for index in ("index.html", "index.htm"):
        if url.endswith("/" + index):
            url = url[: -len(index)]
            break
    if url.partition("://")[2].count("/") > 1 and url.endswith("/"):  # not the host's root
        url = url[:-1]
    return url


def _url(host: str, ref: str) -> str:
    return page_key(normalize_url(ref if "://" in ref else f"http://{host}/{ref.lstrip('/')}"))


def _base(tag: str) -> str:
    return (tag or "").replace("_", "-").split("-")[0].casefold()


@dataclass
class TruthSite:
    host: str
    kind: str
    bilingual: bool
    pairs: set[frozenset] = field(default_factory=set)  # every truth pair (normalized URLs)
    untranslated: set[frozenset] = field(default_factory=set)  # pairs whose status says untranslated
    languages: dict[str, str] = field(default_factory=dict)  # normalized URL → base language
    labels: dict[str, str] = field(default_factory=dict)  # normalized URL → evaluation label (sr-Latn, hr, mixed …)
    notes: str = ""
    site_languages: list[str] = field(default_factory=list)  # the site's languages as truth lists them

    @property
    def translated(self) -> set[frozenset]:
        return self.pairs - self.untranslated


@dataclass
class Truth:
    sites: list[TruthSite]
    seed_urls: list[str]
    hub_hosts: list[str] = field(default_factory=list)

    @property
    def content_sites(self) -> list[TruthSite]:
        return [s for s in self.sites if s.kind != "hub"]


def load_truth(web_dir: Path) -> Truth:
    path = web_dir / "truth.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SystemExit(f"cannot read {path}: {error}")
    sites = []
    for raw in data.get("sites", []):
        host = raw["host"]
        site = TruthSite(host, raw.get("kind") or "real", bool(raw.get("bilingual_sr_en")), notes=raw.get("notes", ""),
                         site_languages=list(raw.get("languages") or []))
        status = {}
        for key, value in (raw.get("pair_status") or {}).items():
            sides = key.split("|") if "|" in key else key.split()
            status[frozenset(_url(host, s) for s in sides)] = str(value)
        for a, b in raw.get("parallel_pairs", []):
            pair = frozenset((_url(host, a), _url(host, b)))
            site.pairs.add(pair)
            for ref, implied in ((a, "sr"), (b, "en")):  # "sr": either script (page_accuracy)
                site.languages.setdefault(_url(host, ref), implied)
                site.labels.setdefault(_url(host, ref), implied)
            if any(word in status.get(pair, "").casefold() for word in UNTRANSLATED_STATUS):
                site.untranslated.add(pair)
        if "parallel_pairs_translated" in raw:  # the corpus says which pairs are translations
            translated = {frozenset((_url(host, a), _url(host, b))) for a, b in raw["parallel_pairs_translated"]}
            site.untranslated = site.pairs - translated
        others = raw.get("other_language_pairs") or {}
        for key, pairs in (others.items() if isinstance(others, dict) else ()):
            first, second = key.split("-")[:2]
            for a, b in pairs:
                for ref, implied in ((a, first), (b, second)):
                    site.languages.setdefault(_url(host, ref), implied)
                    site.labels.setdefault(_url(host, ref), implied)
        for ref, lang in (raw.get("page_languages") or {}).items():
            site.languages[_url(host, ref)] = _base(lang)  # labelled pages win over the pairs' sides
            site.labels[_url(host, ref)] = lang
        sites.append(site)
    hubs = [urlsplit(u).hostname or "" for u in data.get("hubs") or []] + [s.host for s in sites if s.kind == "hub"]
    return Truth(sites, list(data.get("seed_urls") or []), list(dict.fromkeys(hubs)))


def precision_recall(found: set, truth: set) -> tuple[float, float]:
    tp = len(found & truth)
    return (tp / len(found) if found else 0.0), (tp / len(truth) if truth else 0.0)
