"""Bilingual Site (BS) Detector, decision part (Barbosa et al. 2011, Sec. 2.1).

Step 1, Link Predictor: score every link of the input page. Step 2, language identification of
the pages behind links whose score is at least the minimum likelihood, best first, together with
the input page's own language ("this handles cases in which a page in a given language only
contains a link to its translation"). The site is bilingual when both languages of the pair are
seen. We stop fetching as soon as they are (the paper's cost measure is pages downloaded) and
after ``max_fetches`` pages. Fetching and identification are the caller's (``fetch_language``
returns a language code, or None when the page could not be fetched or identified).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence
from urllib.parse import urldefrag, urljoin

import numpy as np

from frontier.classifiers.link_features import LinkContext


class ScoresLinks(Protocol):
    def predict_proba(self, links: Sequence[LinkContext]) -> np.ndarray: ...


@dataclass
class DetectorVerdict:
    bilingual: bool
    evidence: list[dict] = field(default_factory=list)  # {url, score, language} per fetched page
    pages_downloaded: int = 0
    languages_seen: list[str] = field(default_factory=list)  # base codes, sorted
    candidates: int = 0  # links that passed the minimum likelihood (distinct URLs)


def base_language(code: str | None) -> str | None:
    """'sr-Latn', 'sr_RS', 'SR' -> 'sr'; the pair is compared on the base subtag."""
    if not code:
        return None
    return code.strip().replace("_", "-").split("-")[0].lower() or None


def detect_bilingual(
    page_url: str,
    page_lang: str | None,
    links: Sequence[LinkContext],
    predictor: ScoresLinks,
    fetch_language: Callable[[str], str | None],
    min_likelihood: float = 0.8,
    pair: tuple[str, str] = ("sr", "en"),
    max_fetches: int = 5,
) -> DetectorVerdict:
    if not 0.0 <= min_likelihood <= 1.0:
        raise ValueError(f"min_likelihood must be in [0, 1], got {min_likelihood}")
    if max_fetches < 0:
        raise ValueError(f"max_fetches must be >= 0, got {max_fetches}")
    wanted = {base_language(c) for c in pair}
    if len(pair) != 2 or len(wanted) != 2 or None in wanted:
        raise ValueError(f"pair must name two different languages, got {pair!r}")

    seen: set[str] = set()
    if base_language(page_lang):
        seen.add(base_language(page_lang))
    scores = predictor.predict_proba(list(links)) if links else np.zeros(0)

    # Best score per distinct absolute URL; the input page itself teaches nothing new.
    page = urldefrag(page_url)[0]
    best: dict[str, float] = {}
    for link, score in zip(links, scores):
        try:
            url = urldefrag(urljoin(page_url, link.url.strip()))[0]
        except ValueError:  # a malformed URL on a crawled page cannot be fetched anyway
            continue
        if url != page and score >= min_likelihood and score > best.get(url, -1.0):
            best[url] = float(score)
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))

    verdict = DetectorVerdict(bilingual=False, candidates=len(ranked))
    for url, score in ranked:
        if wanted <= seen or verdict.pages_downloaded >= max_fetches:
            break
        language = fetch_language(url)
        verdict.pages_downloaded += 1
        verdict.evidence.append({"url": url, "score": score, "language": language})
        if base_language(language):
            seen.add(base_language(language))
    verdict.bilingual = wanted <= seen
    verdict.languages_seen = sorted(seen)
    return verdict
