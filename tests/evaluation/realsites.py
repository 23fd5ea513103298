"""Test and bench support: the real sites of /work/shared/data/real-sites as page records.

Reads the HTML files (URL = http://<host>/<path>) and extracts what the crawler's
parser would give the pairing code: outlinks (<a href> and onclick
"location.href=" buttons), rel=alternate hreflang declarations and switcher links
(anchor text, image src/alt, title).  Page languages are NOT guessed here: the
caller passes them (tests: from truth.json only; the bench adds a labelled stand-in).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

from crawlweb.devdata import shared_data_dir
from evaluation.pairing.switch import SwitchLink
from evaluation.pairing.pipeline import SiteInput
from evaluation.pairing.records import PageRecord
from evaluation.pairing.strand import visible_text

REAL_SITES = shared_data_dir() / "real-sites"
ONCLICK = re.compile(r"location(?:\.href)?\s*=\s*['\"]([^'\"]+)['\"]")


@dataclass
class RealSite:
    host: str
    files: dict[str, str]  # url → html
    truth_pairs: list[tuple[str, str]]  # (sr_url, en_url) from truth.json
    other_pairs: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # "hr-en" → [(hr, en)]

    def truth_languages(self) -> dict[str, str]:
        """Page languages known from truth.json pairs (the only labels tests use)."""
        langs = {}
        for sr, en in self.truth_pairs:
            langs[sr], langs[en] = "sr", "en"
        for key, pairs in self.other_pairs.items():
            first, second = key.split("-")
            for a, b in pairs:
                langs[a], langs[b] = first, second
        return langs


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[dict] = []
        self.alternates: dict[str, str] = {}
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "link" and "alternate" in a.get("rel", "").split() and a.get("hreflang") and a.get("href"):
            self.alternates[a["hreflang"]] = a["href"]
        if tag in ("a", "button"):
            href = a.get("href") if tag == "a" else ""
            match = ONCLICK.search(a.get("onclick", ""))
            target = href or (match.group(1) if match else "")
            self._open = {"href": target, "text": "", "img_src": "", "img_alt": "", "title": a.get("title", "")}
            if target:
                self.links.append(self._open)
        elif tag == "img" and self._open is not None:
            self._open["img_src"] = self._open["img_src"] or a.get("src", "")
            self._open["img_alt"] = self._open["img_alt"] or a.get("alt", "")

    def handle_endtag(self, tag):
        if tag in ("a", "button"):
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def load_real_sites(root: Path = REAL_SITES) -> list[RealSite]:
    truth = {s["host"]: s for s in json.loads((root / "truth.json").read_text())["sites"]}
    sites = []
    for host_dir in sorted((root / "hosts").iterdir()):
        files = {}
        for path in sorted(host_dir.rglob("*.html")):
            url = f"http://{host_dir.name}/{path.relative_to(host_dir).as_posix()}"
            files[url] = path.read_text(encoding="utf-8", errors="replace")
        info = truth.get(host_dir.name, {})
        pairs = [tuple(p) for p in info.get("parallel_pairs", [])]
        other = {k: [tuple(p) for p in v] for k, v in (info.get("other_language_pairs") or {}).items()}
        sites.append(RealSite(host_dir.name, files, pairs, other))
    return sites


def _normalize(link: str, base: str, host: str, files: dict[str, str]) -> str | None:
    url = urldefrag(urljoin(base, link.strip()))[0]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname != host:
        return None
    url = f"http://{host}{parts.path or '/'}" + (f"?{parts.query}" if parts.query else "")
    if url.endswith("/") and url + "index.html" in files:
        url += "index.html"
    return url


def site_input(site: RealSite, languages: dict[str, str]) -> SiteInput:
    """Page records (only pages with a language in ``languages``) plus declarations."""
    pages, alternates, switches = [], {}, []
    for url, html in site.files.items():
        parser = _Links()
        parser.feed(html)
        outlinks = []
        for link in parser.links:
            target = _normalize(link["href"], url, site.host, site.files)
            if target is None or target == url:
                continue
            outlinks.append(target)
            if target in languages:
                switches.append(SwitchLink(url, target, link["text"].strip(), link["img_src"], link["img_alt"],
                                           link["title"], languages[target]))
        declared = {}
        for tag, href in parser.alternates.items():
            target = _normalize(href, url, site.host, site.files)
            if target:
                declared[tag] = target
        if declared:
            alternates[url] = declared
        if url in languages:
            text = visible_text(html)
            pages.append(PageRecord(url, languages[url], "", len(text), tuple(dict.fromkeys(outlinks)), html))
    return SiteInput(site.host, pages, domain=None, alternates=alternates,
                     switch_links=[s for s in switches if s.source_url in languages])
