"""The BS Detector job: decide whether a site is bilingual when its first HTML page is stored.

Link contexts come from the stored Links of that page; the Link Predictor scores them and the
pages behind the best links are language-identified (Barbosa et al. 2011, Sec. 2.1). Those pages
are real requests to the site, so they are fetched like any page of the crawl
(``crawlweb.services.polite_fetch``): robots.txt and the host's politeness clock obeyed, the page
stored (a URL the crawl already fetched is not fetched again) and counted in the crawl's page
budget. Once the budget is spent the detector decides from what it has. Each page's language is
read after its site's languages are settled (``SettledLanguages``), as pairing reads them. ``pages_downloaded`` on
the verdict counts the requests made for the decision.

When the site is bilingual and the strategy is a back/forward crawl, the backlinks of the page
are collected from the configured providers and scheduled in the backlink queue (frontier.detector_backlinks).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from crawlweb.language.site_variety import SiteVariety
from crawlweb.models import Crawl, Link, Page
from crawlweb.services.derived_writes import derived_writes
from crawlweb.services.followups import StepResult, run_followups
from crawlweb.services.polite_fetch import FetchRequest, PoliteFetch, PoliteFetcher
from crawlweb.services.site_language import (decide_site_language, decide_sites_languages, settle_sites_languages,
                                             stored_label)
from frontier.classifiers.bs_detector import detection_steps, run_steps
from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.render_hints import render_hints
from frontier.detector_backlinks import schedule_backlinks
from frontier.detector_rendering import render_and_decide, renders
from frontier.models import SiteVerdict, Target
from frontier.strategies import strategy_for
from frontier.strategies.refill import hold_site_pages
from frontier.trained_models import detector_min_likelihood, link_predictor

log = logging.getLogger(__name__)
# Switches real sites draw without <a href> count too: event handlers and choosers ("onclick"),
# a script's navigation or path literals ("script"), a meta refresh of a language gateway.
# "rendered": a link only the page's rendered DOM has (crawlweb.services.rendering).
DETECTOR_LINK_KINDS = ("a", "area", "alternate", "onclick", "script", "refresh", "rendered")
TOP_LINK_SCORES = 10
# The page's own external scripts (Links of kind "script-src": crawler.scriptlinks.own_script, same site,
# no library) read when its HTML left the site undecided, before any rendering: their navigation and
# page-path literals are the page's links too (a flag drawn as a <div> whose click handler in js/global.js
# sets window.location = 'index-rs.html'). Each is a request on the crawl's account.
DETECTOR_SCRIPTS = 2


class RecordingPredictor:
    """Keeps the scores the detector asked for, so the evidence can show them."""

    def __init__(self, predictor):
        self.predictor, self.scores = predictor, []

    def predict_proba(self, links):
        scores = self.predictor.predict_proba(links)
        self.scores += [(link.url, float(s)) for link, s in zip(links, scores)]  # the input page's, then read pages''
        return scores


class PageLinks:
    """The stored links of the pages a detector job reads, each page's read once: the job's input pages
    in one query (``load``), a page fetched during the job when the detector first asks for its links.
    A page whose links a render added is read again (``forget``)."""

    FIELDS = ("page_id", "kind", "url_as_linked", "target_url", "anchor_text", "text_around", "img_alt", "img_src",
              "hreflang", "out_of_site")

    def __init__(self):
        self.rows: dict[int, list[tuple]] = {}

    def load(self, pages: list[Page]) -> None:
        ids = [page.pk for page in pages if page.pk not in self.rows]
        for page_id in ids:
            self.rows[page_id] = []
        for row in Link.objects.filter(page_id__in=ids).order_by("id").values_list(*self.FIELDS):
            self.rows[row[0]].append(row)

    def forget(self, page_id: int) -> None:
        self.rows.pop(page_id, None)

    def _of(self, page: Page) -> list[tuple]:
        if page.pk not in self.rows:
            self.load([page])
        return self.rows[page.pk]

    def contexts(self, page: Page) -> list[LinkContext]:
        """The links the detector scores (DETECTOR_LINK_KINDS), in page order."""
        base = page.final_url or page.url
        return [LinkContext(url=as_linked or target, anchor_text=anchor, text_around=around, img_alt=alt,
                            img_src=src, page_url=base, hreflang=hreflang)
                for _page, kind, as_linked, target, anchor, around, alt, src, hreflang, _out in self._of(page)
                if kind in DETECTOR_LINK_KINDS]

    def own_scripts(self, page: Page) -> list[str]:
        """The page's own external scripts (kind "script-src"), at most DETECTOR_SCRIPTS, in page order."""
        urls = [row[3] for row in self._of(page) if row[1] == "script-src"]
        return list(dict.fromkeys(urls))[:DETECTOR_SCRIPTS]

    def kinds(self, page: Page) -> list[tuple[str, bool]]:
        """(kind, out_of_site) of each of the page's links: what render_hints reads."""
        return [(row[1], row[9]) for row in self._of(page)]


class SettledLanguages:
    """A page's language once its site's variety is decided (crawlweb.services.site_language), read
    before the detector counts it: on a Serbian site a Serbian page whose text alone looked Bosnian
    or Croatian is Serbian, and on a Croatian site a page that looked Serbian is not.

    Decided in memory as the detector reads pages (each fetch is one more page of the decision) and
    stored once for all the sites of a job, before their verdicts: storing a site's decision after
    every fetch was a fifth of the detector's time."""

    def __init__(self, crawl_id: int):
        self.crawl_id, self.sites = crawl_id, set()
        self.decisions: dict[int, SiteVariety] = {}  # per site, from the pages stored when it was read

    def load(self, site_ids) -> None:
        """The decisions of many sites from one read of their pages (a job's sites before it judges them)."""
        self.decisions.update(decide_sites_languages(self.crawl_id, site_ids))

    def __call__(self, page: Page) -> str | None:
        decision = self.decisions.get(page.site_id)
        if decision is None or str(page.pk) not in decision.page_languages:  # a page stored since: read again
            decision = self.decisions[page.site_id] = decide_site_language(self.crawl_id, page.site_id)
        label = decision.page_languages.get(str(page.pk))
        if label is not None:  # as settle_sites_languages stores it, so the page object reads the same
            page.language, page.script = stored_label(*label)
        self.sites.add(page.site_id)
        return page.language or None

    def store(self) -> None:
        with derived_writes():  # labels computed again from the pages at the sites' next settling
            settle_sites_languages(self.crawl_id, self.sites)


class NeedsRequests(Exception):
    """Deciding the site takes a request to it (a page behind a link, one of its scripts, a render):
    left to the detector job."""


class DetectorFetches:
    """fetch_language(url) for the detector: the page's language, fetched on the crawl's account."""

    def __init__(self, fetcher: PoliteFetcher, page: Page, languages: SettledLanguages, links: PageLinks,
                 depth: int):
        """``fetcher``: the job's (its hosts read once); ``depth``: the depth of the Targets its fetches
        add (the page's own, plus one)."""
        self.fetcher, self.page, self.languages, self.links, self.depth = fetcher, page, languages, links, depth
        self.fetches: dict[str, PoliteFetch] = {}
        self.read_ahead: dict[str, PoliteFetch] = {}  # read side by side with other sites' pages (Detection.judge_many)

    def request(self, url: str) -> FetchRequest:
        """What reading ``url`` asks of PoliteFetcher.fetch_many."""
        return FetchRequest(url, origin=Target.Origin.DETECTOR, source_page=self.page, depth=self.depth)

    def has_read(self, url: str) -> bool:
        """Whether this job already read ``url`` and stored a page for it."""
        known = self.fetches.get(url)
        return known is not None and known.page is not None

    def links_of(self, url: str) -> list[LinkContext]:
        """The links of a page the detector read (a gateway's target, a switch's other side)."""
        fetched = self.fetches.get(url)
        return self.links.contexts(fetched.page) if fetched is not None and fetched.page is not None else []

    def __call__(self, url: str) -> str | None:
        if self.has_read(url):  # read in an earlier pass (before a render)
            return self.languages(self.fetches[url].page)
        fetched = self.fetches[url] = self.read_ahead.pop(url, None) or self._fetch(url)
        return self.languages(fetched.page) if fetched.page is not None else None

    def _fetch(self, url: str) -> PoliteFetch:
        request = self.request(url)
        return self.fetcher.fetch(request.url, origin=request.origin, source_page=request.source_page,
                                  depth=request.depth)

    def script_links(self, urls: list[str]) -> list[LinkContext]:
        """The links read from the page's own scripts (fetched now unless the crawl has them)."""
        links = []
        for url in urls:
            fetched = self.fetches.get(url)
            if fetched is None:
                fetched = self.fetches[url] = self._fetch(url)
            if fetched.page is not None:
                links += self.links.contexts(fetched.page)
        return links

    @property
    def downloaded(self) -> int:
        return sum(f.downloaded for f in self.fetches.values())

    @property
    def budget_spent(self) -> bool:
        return any(f.reason == "budget" for f in self.fetches.values())

    def evidence(self, pages: list[dict]) -> list[dict]:
        """The verdict's pages, each with whether it was downloaded now and why it has no language."""
        out = []
        for item in pages:
            fetched = self.fetches.get(item["url"])
            extra = {"downloaded": bool(fetched and fetched.downloaded)}
            if fetched is not None and fetched.reason:
                extra["not_read"] = fetched.reason
            out.append({**item, **extra})
        return out


class NoFetches(DetectorFetches):
    """The detector's reads when deciding inline, in the crawl step that stored the site's first page:
    any request ends the attempt (``NeedsRequests``), and the site goes to a detector job."""

    def __call__(self, url: str) -> str | None:
        raise NeedsRequests(url)

    def script_links(self, urls: list[str]) -> list[LinkContext]:
        raise NeedsRequests(urls[0])


@dataclass
class Judging:
    """One site being decided: its input page, what the detector has read for it, the links its scripts add."""
    detection: Detection
    page: Page
    page_language: str | None
    predictor: RecordingPredictor
    fetches: DetectorFetches
    from_scripts: list[LinkContext] = field(default_factory=list)

    def steps(self):
        """A run of the detector over the page's links (and its scripts', once read)."""
        detection, page = self.detection, self.page
        return detection_steps(
            page.final_url or page.url, self.page_language, detection.links.contexts(page) + self.from_scripts,
            self.predictor, min_likelihood=detection.min_likelihood, pair=detection.pair,
            max_fetches=detection.strategy.settings.max_fetches, follow=self.fetches.links_of)


@dataclass
class Judged:
    """One site's decision, made in memory: what its verdict row will hold and what its fetches stored."""
    page: Page
    bilingual: bool
    evidence: dict
    fetches: DetectorFetches


class Detection:
    """What every site of one detector job shares: the crawl, its strategy, the promoted Link Predictor,
    the detector's threshold, each read once for the job; and the sites' languages, decided as the job
    reads their pages and stored once for all of them (``store``)."""

    def __init__(self, crawl: Crawl, requests: bool = True):
        """``requests`` False: decide only the sites that need no request (``judge`` raises NeedsRequests)."""
        self.crawl, self.requests = crawl, requests
        self.strategy = strategy_for(crawl)
        self.predictor = link_predictor()  # the promoted Link Predictor, else the shipped one
        self.min_likelihood = detector_min_likelihood(crawl.config, self.strategy.settings.min_likelihood)
        self.pair = (crawl.source_language, crawl.target_language)
        self.languages = SettledLanguages(crawl.pk)
        self.links = PageLinks()
        self.fetcher = PoliteFetcher(crawl)  # the crawl's settings and the hosts it meets, read once per job
        self.depths: dict[int, int] = {}  # the input pages' depths
        self.step = StepResult(crawl.pk)  # what storing the pages read side by side calls for

    def load(self, pages: list[Page]) -> None:
        """What judging the pages reads, for all of them at once: their links, their Targets' depths, their
        sites' language decisions (one query each, not a handful per site)."""
        self.links.load(pages)
        self.languages.load(page.site_id for page in pages)
        for page_id, depth in (Target.objects.filter(crawl=self.crawl, page__in=pages).order_by("-id")
                               .values_list("page_id", "depth")):
            self.depths[page_id] = depth  # the page's first Target's, as read last

    def judge(self, page: Page) -> Judged:
        """Decide the page's site from its links and the pages behind the best of them (fetched and
        stored now, on the crawl's account); nothing of the decision is stored yet."""
        judging = self._start(page)
        return self._finish(judging, run_steps(judging.steps(), judging.fetches))

    def judge_many(self, pages: list[Page]) -> tuple[list[Judged], list[int]]:
        """judge() of many sites, their pages read in rounds: each round reads the next page every
        site's detector asks for, side by side, and stores them as one batch (PoliteFetcher.fetch_many);
        a site's own scripts and renders are read after, site by site. Returns the judged sites and the
        pages of those whose judging failed (logged)."""
        judged, failed, waiting = [], [], []

        def fail(page: Page) -> None:
            log.exception("crawl %s: detecting the site of page %s failed", self.crawl.pk, page.pk)
            failed.append(page.pk)

        def go_on(judging: Judging, steps, answer=None, first=False) -> None:
            try:
                url = next(steps) if first else steps.send(answer)
            except StopIteration as done:
                try:
                    judged.append(self._finish(judging, done.value))
                except Exception:
                    fail(judging.page)
                return
            except Exception:
                fail(judging.page)
                return
            waiting.append((judging, steps, url))

        for page in pages:
            try:
                judging = self._start(page)
            except Exception:
                fail(page)
                continue
            go_on(judging, judging.steps(), first=True)
        while waiting:
            this_round, waiting[:] = list(waiting), []
            self._read_side_by_side([(judging.fetches, url) for judging, _steps, url in this_round])
            for judging, steps, url in this_round:
                try:
                    answer = judging.fetches(url)
                except Exception:
                    fail(judging.page)
                    continue
                go_on(judging, steps, answer)
        return judged, failed

    def _read_side_by_side(self, reads: list[tuple[DetectorFetches, str]]) -> None:
        """Fetch the round's pages together; what each gave waits in its site's DetectorFetches. Their links
        and their sites' languages are read once for the round."""
        reads = [(fetches, url) for fetches, url in reads if not fetches.has_read(url)]
        if not reads:
            return
        outcomes = self.fetcher.fetch_many([fetches.request(url) for fetches, url in reads], self.step)
        for (fetches, url), outcome in zip(reads, outcomes):
            fetches.read_ahead[url] = outcome
        pages = [outcome.page for outcome in outcomes if outcome.page is not None]
        self.links.load(pages)
        self.languages.load({page.site_id for page in pages})

    def _start(self, page: Page) -> Judging:
        if page.pk not in self.links.rows:  # judged without ``load`` (a caller of one page)
            self.load([page])
        reads = DetectorFetches if self.requests else NoFetches
        fetches = reads(self.fetcher, page, self.languages, self.links, self.depths.get(page.pk, 0) + 1)
        return Judging(self, page, self.languages(page), RecordingPredictor(self.predictor), fetches)

    def _finish(self, judging: Judging, verdict) -> Judged:
        """The rest of a site's decision once its detector has read the pages behind its links: its own
        scripts, then a render, when those left it undecided; then the evidence."""
        crawl, strategy, pair = self.crawl, self.strategy, self.pair
        page, page_language, predictor, fetches = judging.page, judging.page_language, judging.predictor, judging.fetches
        from_scripts = judging.from_scripts

        def decide():
            return run_steps(judging.steps(), fetches)

        scripts = [] if verdict.bilingual else self.links.own_scripts(page)
        if scripts:
            from_scripts += fetches.script_links(scripts)
            if from_scripts:
                verdict = decide()
        hints, rendered = [], []
        if not verdict.bilingual:
            hints = render_hints(page_language, pair, self.links.kinds(page), page.runs_scripts)
            if hints:
                render_budget = strategy.settings.pages_to_render(crawl.strategy)
                if not self.requests and renders(render_budget):
                    raise NeedsRequests(page.final_url or page.url)  # a render would read the site again
                verdict, rendered = render_and_decide(crawl, render_budget, page, pair, verdict, fetches, decide)
        best = sorted(predictor.scores, key=lambda item: -item[1])[:TOP_LINK_SCORES]
        evidence = {"page": page.final_url or page.url, "page_language": page_language,
                    "pages": fetches.evidence(verdict.evidence), "languages": verdict.languages_seen,
                    "link_scores": [{"url": url, "score": round(score, 4)} for url, score in best],
                    "candidates": verdict.candidates, "min_likelihood": self.min_likelihood}
        if scripts:
            evidence["scripts_read"] = {"scripts": scripts, "links": len(from_scripts)}
        if rendered:
            evidence["rendered"] = [outcome.evidence() for outcome in rendered]
            evidence["render_hints"] = hints
        if fetches.budget_spent:
            evidence["budget_spent"] = True  # decided without the pages the budget had no room for
        return Judged(page, verdict.bilingual, evidence, fetches)

    def store(self, judged: list[Judged]) -> list[SiteVerdict]:
        """The sites' languages, then their verdicts, then what their fetches call for, each once for the
        job (per site, they were two fifths of the detector's time); then each bilingual site's backlinks
        and held pages. A site another run of the job decided first keeps that verdict (not returned)."""
        crawl, strategy = self.crawl, self.strategy
        self.languages.store()  # before the follow-ups, which read the pages' languages
        crawl.refresh_from_db(fields=["pages_fetched"])
        # pages fetched when each was decided: the job's own downloads after it are not counted yet
        fetched_by_then = crawl.pages_fetched - sum(item.fetches.downloaded for item in judged)
        rows, step = [], StepResult(crawl.pk)  # step: what storing the fetched pages calls for, all in one
        step.add(self.step)
        for item in judged:
            fetched_by_then += item.fetches.downloaded
            rows.append(SiteVerdict(crawl=crawl, site_id=item.page.site_id, page=item.page, bilingual=item.bilingual,
                                    evidence=item.evidence, pages_downloaded=item.fetches.downloaded,
                                    pages_fetched_at_decision=fetched_by_then))
            for fetched in item.fetches.fetches.values():
                step.add(fetched.step)
        stored = _create_verdicts(rows)
        run_followups(crawl, step)  # after the verdicts, so they do not ask for these sites' detection again
        if strategy.back_and_forth:
            for verdict in stored:
                if verdict.bilingual:
                    schedule_backlinks(crawl, strategy, verdict.page, verdict)
                    hold_site_pages(crawl, verdict.site_id)  # its pages wait for the refill (strategies.refill)
        return stored


def _create_verdicts(rows: list[SiteVerdict]) -> list[SiteVerdict]:
    """Insert the rows in one statement; when another run of the job stored one of them first, each
    alone, so the others still are."""
    try:
        with transaction.atomic():
            return SiteVerdict.objects.bulk_create(rows)
    except IntegrityError:
        pass
    stored = []
    for row in rows:
        try:
            with transaction.atomic():
                row.pk = None
                row.save(force_insert=True)
            stored.append(row)
        except IntegrityError:  # another run of the job decided this site first
            continue
    return stored


class DetectionFailed(Exception):
    """Some sites of a detector job failed; the others were decided and stored."""


def detect_sites(crawl_id: int, page_ids: list[int]) -> list[SiteVerdict]:
    """The detector job (queue "score"): the sites whose first HTML pages one crawl step stored, one
    after the other (frontier.discovery_followup queues at most SITES_PER_DETECTOR_JOB per job), their
    verdicts stored together. A site already decided in this crawl is left alone; a site whose decision
    fails is logged and the others are still decided and stored, then the job fails naming it."""
    pages = list(Page.objects.filter(pk__in=page_ids, crawl_id=crawl_id).select_related("crawl").order_by("id"))
    decided = set(SiteVerdict.objects.filter(crawl_id=crawl_id, site_id__in={p.site_id for p in pages})
                  .values_list("site_id", flat=True))
    first_of_site: dict[int, Page] = {}  # one page per undecided site, its first in the list
    for page in pages:
        if page.site_id not in decided:
            first_of_site.setdefault(page.site_id, page)
    if not first_of_site:
        return []
    detection = Detection(next(iter(first_of_site.values())).crawl)
    detection.load(list(first_of_site.values()))
    judged, failed = detection.judge_many(list(first_of_site.values()))
    verdicts = detection.store(judged) if judged else []
    if failed:
        raise DetectionFailed(f"crawl {crawl_id}: the detector failed on the sites of pages {failed} "
                              f"({len(verdicts)} other sites decided)")
    return verdicts


def decide_without_requests(crawl_id: int, page_ids: list[int]) -> list[int]:
    """Decide now, in the crawl step that stored them, the sites of these first pages whose decision
    takes no request: no link the Link Predictor ranks at the detector's minimum, none naming a
    language, no URL to guess, no script or render to read (most sites of a national web: one
    language, no switch). Their verdicts are stored as a detector job would store them, with no
    page downloaded. Returns the pages of the other sites, in order, for the detector jobs."""
    pages = list(Page.objects.filter(pk__in=page_ids, crawl_id=crawl_id).order_by("id"))
    if not pages:
        return []
    detection = Detection(Crawl.objects.get(pk=crawl_id), requests=False)  # not the step's own object
    detection.load(pages)
    judged, left = [], []
    for page in pages:
        try:
            judged.append(detection.judge(page))
        except NeedsRequests:
            left.append(page.pk)
    if judged:
        detection.store(judged)
    return left


def detect_site(crawl_id: int, page_id: int) -> SiteVerdict | None:
    """detect_sites for one site (a job queued by an earlier version of the crawl)."""
    verdicts = detect_sites(crawl_id, [page_id])
    return verdicts[0] if verdicts else None
