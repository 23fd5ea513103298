"""The adjudication page's view of each disputed item: the same card the judges saw (both pages'
text side by side, the site's pages, the link's two ends), rendered from the judging card's own
partials (labeling.presentation), so an admin decides on what the judges read, not on URLs alone."""
from __future__ import annotations

from django.template.loader import render_to_string

from labeling.models import EvaluationItem
from labeling.presentation import card_context

CARD_TEMPLATES = {"pairs": "labeling/_card_pair.html", "sites": "labeling/_card_site.html",
                  "links": "labeling/_card_link.html"}


def card_html(item: EvaluationItem) -> str:
    context = card_context(item)
    if context.get("gone"):
        return ""
    return render_to_string(CARD_TEMPLATES[item.evaluation.what], context)


def cards_of(item_ids: list[int]) -> dict[int, str]:
    """{item id: the card's HTML} for the given items (the undecided ones: decided items need no reading)."""
    items = EvaluationItem.objects.filter(pk__in=item_ids).select_related(
        "evaluation", "pair__source_page", "pair__target_page", "site_verdict__site", "site_verdict__crawl",
        "site_verdict__page", "link__page")
    return {item.pk: card_html(item) for item in items}
