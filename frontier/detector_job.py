"""The BS Detector job: decide whether a site is bilingual when its first HTML page is stored.

Link contexts come from the stored Links of that page; the Link Predictor scores them and the
pages behind the best links are language-identified (Barbosa et al. 2011, Sec. 2.1). A URL the
crawl already fetched is not fetched again: its stored Page's language is used. Pages fetched
for the decision go through the crawler's own Fetcher (same user agent, address policy, proxy)
and are counted in ``pages_downloaded``, not in the crawl's page budget; they obey the robots.txt
the crawl has cached for the host.

When the site is bilingual and the strategy is a back/forward crawl, the backlinks of the page
are collected from the configured providers and scheduled in the backlink queue.
"""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction

from crawlweb.crawler.charset import decode_html
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.crawler.urls import InvalidURL, normalize_url
from crawlweb.models import Crawl, Host, Page
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.network import fetcher_for
from crawlweb.services.page_language import identify_page_language
from crawlweb.services.storing import robots_policy
from crawlweb.services.targets import Candidate, add_targets
from frontier.backlinks.factory import collect_backlinks, providers_for
from frontier.classifiers.bs_detector import detect_bilingual
from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.link_predictor import default_link_predictor
from frontier.models import SiteVerdict, Target
from frontier.strategies import strategy_for

log = logging.getLogger(__name__)
DETECTOR_LINK_KINDS = ("a", "area", "alternate")
TOP_LINK_SCORES = 10


class RecordingPredictor:
    """Keeps the scores the detector asked for, so the evidence can show them."""

    def __init__(self, predictor):
        self.predictor, self.scores = predictor, []

    def predict_proba(self, links):
        scores = self.predictor.predict_proba(links)
        self.scores = [(link.url, float(s)) for link, s in zip(links, scores)]
        return scores


def link_contexts(page: Page) -> list[LinkContext]:
    base = page.final_url or page.url
    return [LinkContext(url=link.url_as_linked or link.target_url, anchor_text=link.anchor_text,
                        text_around=link.text_around, img_alt=link.img_alt, img_src=link.img_src,
                        page_url=base, hreflang=link.hreflang)
            for link in page.links.filter(kind__in=DETECTOR_LINK_KINDS).order_by("id")]


def robots_allow(url: str) -> bool:
    """The detector obeys the robots.txt the crawl has cached for the host; a host whose
    robots.txt is not known yet is asked like any page (the crawl fetches robots.txt itself)."""
    host = Host.objects.filter(name=urlsplit(url).hostname or "").first()
    policy = robots_policy(host) if host is not None else None
    return policy is None or policy.allows(url, django_settings.CRAWLER_USER_AGENT)


def language_fetcher(crawl: Crawl, config: CrawlConfig):
    """fetch_language(url) for the detector: a stored Page's language, else fetch and identify."""
    fetcher = fetcher_for(config.address_policy)

    def fetch_language(url: str) -> str | None:
        try:
            key = normalize_url(url, session_params=config.session_params, host_aliases=config.host_aliases)
        except InvalidURL:
            return None
        stored = (Page.objects.filter(crawl=crawl, url=key).exclude(language="").values_list("language", flat=True)
                  .first() or Page.objects.filter(crawl=crawl, final_url=key).exclude(language="")
                  .values_list("language", flat=True).first())
        if stored:
            return stored
        if not robots_allow(key):
            return None
        result = fetcher.fetch(key)
        if result.status != 200 or not result.body:
            return None
        content_type = result.headers.get("content-type", "")
        if "html" not in content_type.lower():
            return None
        charset = None
        if "charset=" in content_type:
            charset = content_type.split("charset=")[-1].strip("\"' ;")
        text, _ = decode_html(result.body, charset)
        parsed = parse_html(text, result.final_url, window_words=django_settings.CRAWLER_TEXT_WINDOW_WORDS)
        return identify_page_language(parsed, result.final_url)[0] or None

    return fetch_language


def detect_site(crawl_id: int, page_id: int) -> SiteVerdict | None:
    """The detector job (queue "score"); a site already decided in this crawl is left alone."""
    page = Page.objects.filter(pk=page_id, crawl_id=crawl_id).select_related("crawl").first()
    if page is None or SiteVerdict.objects.filter(crawl_id=crawl_id, site_id=page.site_id).exists():
        return None
    crawl = page.crawl
    strategy = strategy_for(crawl)
    config = CrawlConfig.for_crawl(crawl)
    predictor = RecordingPredictor(default_link_predictor())
    verdict = detect_bilingual(
        page.final_url or page.url, page.language or None, link_contexts(page), predictor,
        language_fetcher(crawl, config), min_likelihood=strategy.settings.min_likelihood,
        pair=(crawl.source_language, crawl.target_language), max_fetches=strategy.settings.max_fetches)
    best = sorted(predictor.scores, key=lambda item: -item[1])[:TOP_LINK_SCORES]
    evidence = {"page": page.final_url or page.url, "page_language": page.language,
                "pages": verdict.evidence, "languages": verdict.languages_seen,
                "link_scores": [{"url": url, "score": round(score, 4)} for url, score in best],
                "candidates": verdict.candidates, "min_likelihood": strategy.settings.min_likelihood}
    crawl.refresh_from_db(fields=["pages_fetched"])
    try:
        with transaction.atomic():
            stored = SiteVerdict.objects.create(crawl=crawl, site_id=page.site_id, page=page, bilingual=verdict.bilingual,
                                                evidence=evidence, pages_downloaded=verdict.pages_downloaded,
                                                pages_fetched_at_decision=crawl.pages_fetched)
    except IntegrityError:  # another run of the job decided first
        return None
    if verdict.bilingual and strategy.back_and_forth:
        schedule_backlinks(crawl, strategy, page, stored)
    return stored


def schedule_backlinks(crawl: Crawl, strategy, page: Page, verdict: SiteVerdict) -> int:
    """Ask the providers who links to the page; their pages go to the backlink queue."""
    urls, errors = collect_backlinks(providers_for(crawl, strategy.settings), page.url)
    candidates = [Candidate(url) for url in urls]
    for candidate, priority in zip(candidates, strategy.backlink_priorities(candidates)):
        candidate.priority = priority
    depth = (Target.objects.filter(crawl=crawl, page=page).values_list("depth", flat=True).first() or 0) + 1
    added = add_targets(crawl, candidates, origin=Target.Origin.BACKLINK, depth=depth, source_page=page)
    verdict.evidence = {**verdict.evidence, "backlinks_found": len(urls), "backlinks_added": added.added,
                        "backlink_errors": errors}
    verdict.save(update_fields=["evidence"])
    if errors:
        log.warning("crawl %s: backlink providers failed for %s: %s", crawl.pk, page.url, errors)
    return added.added
