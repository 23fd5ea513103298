"""Bilingual Site (BS) Detector, decision part (Barbosa et al. 2011, Sec. 2.1).

Step 1, Link Predictor: score every link of the input page. Step 2, language identification of
the pages behind links whose score is at least the minimum likelihood, best first, together with
the input page's own language ("this handles cases in which a page in a given language only
contains a link to its translation"). The site is bilingual when both languages of the pair are
seen. We stop fetching as soon as they are (the paper's cost measure is pages downloaded) and
after ``max_fetches`` pages (see detect_bilingual for what it reads beyond the paper). Fetching and identification are the caller's (``fetch_language``
returns a language code, or None when the page could not be fetched or identified).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generator, Protocol, Sequence
from urllib.parse import urldefrag, urljoin

import numpy as np

from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.switch_hints import language_swaps, same_site, switch_language


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


GUESS_SCORE = 0.5  # a URL guessed by swapping a language unit: read after the links that name a language
LINK_GUESS_SCORE = 0.4  # a guess from a link's address: after the page's own counterpart, its likeliest pair
LINK_GUESSES = 2  # guesses per page from its links' addresses (see _Candidates.add_links)
MAX_EXPANSIONS = 2  # pages read beyond the input page whose own links are read too
# A page outside the pair (a site entered from its third language, or a page with no language of its
# own: a gateway, a script's redirect) is not judged on the Link Predictor's threshold alone: its best
# same-site links down to this score are read too (the Secondary bound of the link layers), at most
# SECOND_LOOK_READS of them, and what they lead to is followed. A Russian home page's only language
# link scored 0.79, under the 0.8 minimum, and a Serbian–English site was judged from that one page.
SECOND_LOOK_FLOOR = 0.5
SECOND_LOOK_READS = 2


@dataclass
class _Candidate:
    url: str
    score: float
    why: str  # "predicted", "switch" (its marks name a language of the pair), "guess" (a swapped URL unit)
    #           or "second look" (ranked under the minimum on a page outside the pair)
    names: str | None = None  # the language the switch names


class _Candidates:
    """The pages the detector may read, best first: a link naming a language not seen yet beats
    everything; a link beats a URL guess; then the Link Predictor's score."""

    def __init__(self, pair: tuple[str, str], min_likelihood: float, predictor: ScoresLinks):
        self.pair, self.min_likelihood, self.predictor = pair, min_likelihood, predictor
        self.by_url: dict[str, _Candidate] = {}
        self.done: set[str] = set()
        self.second_look: list[_Candidate] = []  # read only from a page outside the pair (take_second_look)

    def add_links(self, page_url: str, links: Sequence[LinkContext]) -> None:
        links = list(links)
        scores = self.predictor.predict_proba(links) if links else np.zeros(0)
        page = urldefrag(page_url)[0]
        self.done.add(page)
        link_guesses = 0
        for link, score in zip(links, scores):
            try:
                url = urldefrag(urljoin(page_url, link.url.strip()))[0]
            except ValueError:  # a malformed URL on a crawled page cannot be fetched anyway
                continue
            if url == page:
                continue
            # A switch stays on its site (its other-language subdomain included): a hub's link
            # "primer.rs" names a site, not a language.
            names = switch_language(link, self.pair) if same_site(url, page) else None
            if score >= self.min_likelihood:
                self._offer(_Candidate(url, float(score), "predicted", names))
            elif names:
                self._offer(_Candidate(url, float(score), "switch", names))
            elif score >= SECOND_LOOK_FLOOR and same_site(url, page):
                self.second_look.append(_Candidate(url, float(score), "second look"))
            # A switch written in JavaScript (href="#", the script swaps /sr/ for /en/ in the address)
            # leaves only the menu's links to one language: their other side is a guess too.
            if names in self.pair and link_guesses < LINK_GUESSES:
                other = self.pair[1] if names == self.pair[0] else self.pair[0]
                for guess in language_swaps(url, names, other)[:1]:
                    link_guesses += 1
                    self._offer(_Candidate(guess, LINK_GUESS_SCORE, "guess", other))

    def add_guesses(self, page_url: str, language: str | None) -> None:
        """The page's URL with its language unit swapped for the pair's other language."""
        language = base_language(language)
        if language not in self.pair:
            return
        other = self.pair[1] if language == self.pair[0] else self.pair[0]
        for url in language_swaps(urldefrag(page_url)[0], language, other):
            self._offer(_Candidate(url, GUESS_SCORE, "guess", other))

    def _offer(self, candidate: _Candidate) -> None:
        if candidate.url in self.done:
            return
        known = self.by_url.get(candidate.url)
        if known is None or (candidate.score, bool(candidate.names)) > (known.score, bool(known.names)):
            self.by_url[candidate.url] = candidate

    def take_second_look(self) -> None:
        """Offer the links kept for a second look, best first, at most SECOND_LOOK_READS."""
        best = sorted(self.second_look, key=lambda c: (-c.score, c.url))
        self.second_look = []
        offered = 0
        for candidate in best:
            if candidate.url not in self.done and candidate.url not in self.by_url and offered < SECOND_LOOK_READS:
                self.by_url[candidate.url] = candidate
                offered += 1

    @property
    def predicted(self) -> int:
        return sum(1 for c in self.by_url.values() if c.why == "predicted")

    def next(self, seen: set[str]) -> _Candidate | None:
        missing = set(self.pair) - seen
        left = [c for c in self.by_url.values() if c.url not in self.done
                and (c.why in ("predicted", "second look") or c.names in missing)]
        if not left:
            return None
        best = min(left, key=lambda c: (c.names not in missing, c.why == "guess", -c.score, c.url))
        self.done.add(best.url)
        return best


def detect_bilingual(
    page_url: str,
    page_lang: str | None,
    links: Sequence[LinkContext],
    predictor: ScoresLinks,
    fetch_language: Callable[[str], str | None],
    min_likelihood: float = 0.8,
    pair: tuple[str, str] = ("sr", "en"),
    max_fetches: int = 5,
    follow: Callable[[str], Sequence[LinkContext]] | None = None,
) -> DetectorVerdict:
    """The detector's decision, each page it reads asked of ``fetch_language`` when it needs it (see
    detection_steps for what it reads)."""
    return run_steps(detection_steps(page_url, page_lang, links, predictor, min_likelihood=min_likelihood, pair=pair,
                                     max_fetches=max_fetches, follow=follow), fetch_language)


def run_steps(steps: Generator[str, str | None, DetectorVerdict],
              fetch_language: Callable[[str], str | None]) -> DetectorVerdict:
    """Drive detection_steps one page at a time: each URL it yields is answered with its language."""
    try:
        url = next(steps)
        while True:
            url = steps.send(fetch_language(url))
    except StopIteration as done:
        return done.value


def detection_steps(
    page_url: str,
    page_lang: str | None,
    links: Sequence[LinkContext],
    predictor: ScoresLinks,
    min_likelihood: float = 0.8,
    pair: tuple[str, str] = ("sr", "en"),
    max_fetches: int = 5,
    follow: Callable[[str], Sequence[LinkContext]] | None = None,
) -> Generator[str, str | None, DetectorVerdict]:
    """The detector as a generator: it yields the URL of each page it wants read and is sent back that
    page's language (None: not fetched or not identified); its return value is the verdict. A caller
    deciding many sites asks each for its next page and reads them side by side (frontier.detector_job).

    ``follow(url)``: the links of a page the detector read (None: read the input page's links only).

    Beyond the paper's step 2, the detector reads links whose own marks name a language of the
    pair (switch_hints.switch_language) when the Link Predictor ranks them low, guesses the other
    side of a page whose URL carries a language unit, and reads the links of up to MAX_EXPANSIONS
    pages it read (a language chooser or a script redirect leads to a page whose own switch
    leads on). A page outside the pair takes a second look (SECOND_LOOK_FLOOR) before it is judged, and
    the pages read from it are followed whatever their language: a site entered from its third language
    is judged on its other languages' pages, not on one link's score."""
    if not 0.0 <= min_likelihood <= 1.0:
        raise ValueError(f"min_likelihood must be in [0, 1], got {min_likelihood}")
    if max_fetches < 0:
        raise ValueError(f"max_fetches must be >= 0, got {max_fetches}")
    wanted = {base_language(c) for c in pair}
    if len(pair) != 2 or len(wanted) != 2 or None in wanted:
        raise ValueError(f"pair must name two different languages, got {pair!r}")
    pair = (base_language(pair[0]), base_language(pair[1]))

    seen: set[str] = set()
    if base_language(page_lang):
        seen.add(base_language(page_lang))
    candidates = _Candidates(pair, min_likelihood, predictor)
    candidates.add_links(page_url, links)
    candidates.add_guesses(page_url, page_lang)
    verdict = DetectorVerdict(bilingual=False, candidates=candidates.predicted)
    outside_pair = base_language(page_lang) not in wanted
    expansions, second_look = 0, outside_pair
    while not wanted <= seen and verdict.pages_downloaded < max_fetches:
        chosen = candidates.next(seen)
        if chosen is None and second_look:
            second_look = False
            candidates.take_second_look()
            chosen = candidates.next(seen)
        if chosen is None:
            break
        language = yield chosen.url
        verdict.pages_downloaded += 1
        verdict.evidence.append({"url": chosen.url, "score": chosen.score, "language": language, "why": chosen.why})
        if base_language(language):
            seen.add(base_language(language))
        if wanted <= seen:
            break
        if base_language(language) in wanted:
            candidates.add_guesses(chosen.url, language)
        # From a page outside the pair every page read leads on: a German home page's "other
        # language" link may land on the Serbian side, whose own switch names English.
        if (base_language(language) in wanted or outside_pair and language) and follow is not None \
                and expansions < MAX_EXPANSIONS:
            expansions += 1
            candidates.add_links(chosen.url, follow(chosen.url))
            second_look = outside_pair  # the page followed gets its own second look
    verdict.bilingual = wanted <= seen
    verdict.languages_seen = sorted(seen)
    return verdict
