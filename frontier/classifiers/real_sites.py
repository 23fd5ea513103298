"""Labelled links of the real bilingual sites in the development set (shared/data/real-sites).

Pure module, used by scripts/train_link_predictor.py and the tests; nothing here is shipped data.
A link is labelled from truth.json: positive when (page, target) is a listed pair
(``parallel_pairs`` or any ``other_language_pairs``: the Link Predictor finds links to the other
language version; language identification decides later whether it is the pair we want).
Two kinds of links are left out as ambiguous rather than called negative: links that swap a
language unit but are not listed (e.g. to the Spanish version on a three-language site), and
links to a page of known language (named in a pair) from a page of another or unknown language
that are not counterparts: on these sites they are switches that lead to the other language's
home page, or switches between languages truth.json does not pair (German-English).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urldefrag, urljoin

from crawlweb.devdata import shared_data_dir
from frontier.classifiers.link_features import LinkContext, extract_link_features
from frontier.classifiers.page_links import link_contexts_from_html

DEFAULT_ROOT = shared_data_dir() / "real-sites"


@dataclass(frozen=True)
class LabelledLink:
    site: str
    link: LinkContext
    label: int  # 1 = points to the same content in another language


def _pairs(site: dict) -> set[frozenset[str]]:
    pairs = [tuple(p) for p in site.get("parallel_pairs", [])]
    for more in (site.get("other_language_pairs") or {}).values():
        pairs += [tuple(p) for p in more]
    return {frozenset(p) for p in pairs}


def page_languages(site: dict) -> dict[str, str]:
    """Language of every page named in a pair: parallel_pairs are (sr, en); others say 'hr-en'."""
    languages: dict[str, str] = {}
    for sr_page, en_page in site.get("parallel_pairs", []):
        languages[sr_page], languages[en_page] = "sr", "en"
    for key, pairs in (site.get("other_language_pairs") or {}).items():
        first, second = key.split("-", 1)
        for a, b in pairs:
            languages.setdefault(a, first)
            languages.setdefault(b, second)
    return languages


def site_pages(root: Path, host: str) -> list[tuple[str, Path]]:
    """(URL, file) of every page of one site; URL = http://<host>/<path> as the data README says."""
    base = root / "hosts" / host
    if not base.is_dir():
        raise FileNotFoundError(f"real site {host!r} has no folder {base}")
    return [(f"http://{host}/{f.relative_to(base).as_posix()}", f) for f in sorted(base.rglob("*.html"))]


def load_truth(root: Path = DEFAULT_ROOT) -> list[dict]:
    path = Path(root) / "truth.json"
    if not path.is_file():
        raise FileNotFoundError(f"no truth.json at {path}; is the development data present?")
    return json.loads(path.read_text(encoding="utf-8"))["sites"]


def labelled_links(root: Path = DEFAULT_ROOT) -> list[LabelledLink]:
    """Every followable link of every real site, labelled from truth.json (ambiguous ones dropped)."""
    root = Path(root)
    out: list[LabelledLink] = []
    for site in load_truth(root):
        pairs = _pairs(site)
        languages = page_languages(site)
        for url, path in site_pages(root, site["host"]):
            html = path.read_text(encoding="utf-8", errors="replace")
            for link in link_contexts_from_html(html, url):
                target = urldefrag(urljoin(url, link.url))[0]
                if frozenset((url, target)) in pairs:
                    out.append(LabelledLink(site["host"], link, 1))
                elif "rel:lang_swap" in extract_link_features(link):
                    continue
                elif target in languages and languages.get(url) != languages[target]:
                    continue
                else:
                    out.append(LabelledLink(site["host"], link, 0))
    return out
