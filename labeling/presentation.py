"""What the judging card shows for each kind of item. Never another evaluator's verdict (blind).

Nor, unless the evaluation says so (Evaluation.card_shows_machine_signals: improve evaluations
only), the machine's signals: its decision (the filter's or detector's verdict), the method and
pattern that proposed a pair, the stratum, the scores and the languages the identifier gave. The
cards below leave them out of the context when ``signals`` is False, so no template can show them."""
from __future__ import annotations

from crawlweb.models import Page
from crawlweb.services.stored_pages import page_at
from labeling.alignment import align, paragraphs
from labeling.models import EvaluationItem

# A page's columns no card shows; a crawled page's tag signature alone can be larger than its text.
_UNSHOWN_PAGE_FIELDS = ("tag_signature", "headers", "headings")


def _pages(*paths: str) -> tuple[str, ...]:
    return tuple(f"{path}__{field}" for path in paths for field in _UNSHOWN_PAGE_FIELDS)


# What each card reads, for labeling.judging.next_assignment to fetch with the assignment in one query.
CARD_RELATED = {
    "pairs": ("item__pair__source_page", "item__pair__target_page"),
    "sites": ("item__site_verdict__site", "item__site_verdict__crawl", "item__site_verdict__page"),
    "links": ("item__link__page",),
}
CARD_DEFERRED = {
    "pairs": _pages("item__pair__source_page", "item__pair__target_page"),
    "sites": _pages("item__site_verdict__page"),
    "links": _pages("item__link__page"),
}

SCORE_FIELDS = (("similarity", "Sim (Def. 9)"), ("sim_same", "Sim_Same"), ("sim_pattern", "Sim_Pattern"),
                ("score", "Pattern credibility"))
SCORE_KEYS_OF_FIELDS = {"sim", "sim_same", "sim_pattern"}  # the scorer's keys for similarity, sim_same, sim_pattern


def _page_side(page: Page | None, url: str, language: str) -> dict:
    return {"page": page, "url": url, "language": (page.language if page else "") or language,
            "script": page.script if page else "", "title": page.title if page else "",
            "text": page.text if page else ""}


def pair_card(item: EvaluationItem, signals: bool) -> dict:
    pair = item.pair
    if pair is None:
        return {"gone": True}
    left = _page_side(pair.source_page, pair.source_url, pair.source_language)
    right = _page_side(pair.target_page, pair.target_url, pair.target_language)
    return {"pair": pair, "left": left, "right": right, "scores": shown_scores(pair) if signals else [],
            "rows": align(paragraphs(left["text"]), paragraphs(right["text"]))}


def shown_scores(pair) -> list[tuple[str, str]]:
    """The pair's scores as (label, text): its score fields by their names in the method, then the
    other numbers the scorer stored (those fields' raw keys left out, so nothing shows twice; a flag
    as yes/no rather than 1.000)."""
    shown = [(label, f"{getattr(pair, name):.3f}") for name, label in SCORE_FIELDS if getattr(pair, name) is not None]
    for key, value in sorted((pair.scores or {}).items()):
        if key in SCORE_KEYS_OF_FIELDS:
            continue
        if isinstance(value, bool):
            shown.append((str(key), "yes" if value else "no"))
        elif isinstance(value, (int, float)):
            shown.append((str(key), f"{value:.3f}"))
    return shown


def site_card(item: EvaluationItem, signals: bool) -> dict:
    verdict = item.site_verdict
    if verdict is None:
        return {"gone": True}
    evidence = verdict.evidence or {}
    pages = [p for p in evidence.get("pages", []) if isinstance(p, dict)]
    if not signals:  # the pages to look at, without what the detector made of them
        pages = [{"url": p.get("url", "")} for p in pages]
    return {"verdict": verdict, "site": verdict.site, "input_page": verdict.page, "evidence_pages": pages,
            "link_scores": [s for s in evidence.get("link_scores", []) if isinstance(s, dict)] if signals else [],
            "languages": evidence.get("languages", []) if signals else []}


def link_card(item: EvaluationItem, signals: bool) -> dict:
    link = item.link
    if link is None:
        return {"gone": True}
    page = link.page
    target = page_at(page.crawl_id, link.target_url, pages=Page.objects.defer(*_UNSHOWN_PAGE_FIELDS))
    left = _page_side(page, page.final_url or page.url, "")
    right = _page_side(target, link.target_url, "")
    return {"link": link, "left": left, "right": right,
            "rows": align(paragraphs(left["text"]), paragraphs(right["text"])) if target else []}


CARDS = {"pairs": pair_card, "sites": site_card, "links": link_card}


def card_context(item: EvaluationItem) -> dict:
    signals = item.evaluation.card_shows_machine_signals
    return {"signals": signals, **CARDS[item.evaluation.what](item, signals)}
