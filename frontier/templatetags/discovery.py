"""{% harvest_rows crawl as harvest %}: bilingual sites found against pages fetched, for the crawl page:
the curve as an SVG chart (``chart``) and as a few rows of numbers (``rows``)."""
from django import template

from frontier.harvest import chart_for
from frontier.models import SiteVerdict

register = template.Library()


@register.simple_tag
def harvest_rows(crawl, points: int = 10) -> dict:
    """At most ``points`` rows (pages fetched, bilingual sites found by then) and the totals."""
    decided = list(SiteVerdict.objects.filter(crawl=crawl).values_list("pages_fetched_at_decision", "bilingual",
                                                                       "pages_downloaded"))
    at = sorted(pages for pages, bilingual, _ in decided if bilingual)
    fetched = max(crawl.pages_fetched, 1)
    step = max(1, -(-fetched // points))
    marks = sorted({min(fetched, k) for k in range(step, fetched + step, step)})
    return {"rows": [(k, sum(1 for a in at if a <= k)) for k in marks] if decided else [],
            "chart": chart_for([crawl]) if decided else None,
            "decided": len(decided), "bilingual": len(at), "detector_pages": sum(d for *_, d in decided)}
