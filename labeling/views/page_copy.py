"""A page's stored copy for the sandboxed frame on the judging card.

Crawled HTML is untrusted: the response carries a Content-Security-Policy that allows no script,
no connection, no form and no plugin, and sandboxes the document (the CSP ``sandbox`` directive,
so even opened outside the frame it runs nothing); the frame itself also has ``sandbox`` without
allow-scripts. Images, fonts and styles from elsewhere are not loaded either: nothing is fetched
live on the evaluator's behalf."""
from django.conf import settings
from django.http import Http404, HttpResponse
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET

from crawlweb.models import Page
from crawlweb.services.stored_pages import page_at
from labeling.permissions import evaluator_required, own_assignment
from labeling.warc_copy import stored_body

COPY_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; "
            "frame-ancestors 'self'; base-uri 'none'; sandbox")


def _page_of(item, side: str) -> Page | None:
    if item.pair is not None:
        return {"source": item.pair.source_page, "target": item.pair.target_page}.get(side)
    if item.link is not None:
        if side == "source":
            return item.link.page
        return page_at(item.link.page.crawl_id, item.link.target_url)
    if item.site_verdict is not None and side == "source":
        return item.site_verdict.page
    return None


@require_GET
@xframe_options_sameorigin
@evaluator_required
def stored_copy(request, pk, side):
    assignment = own_assignment(request.user, pk)
    page = _page_of(assignment.item, side)
    if page is None:
        raise Http404("no stored page on this side")
    body = stored_body(settings.WARC_DIR, page.crawl_id, [page.final_url, page.url])
    if body is None:
        raise Http404("this page's copy is not in the crawl's WARC files")
    try:
        html = body.decode(page.charset or "utf-8", errors="replace")
    except LookupError:  # a charset name Python does not know
        html = body.decode("utf-8", errors="replace")
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = COPY_CSP
    response["X-Content-Type-Options"] = "nosniff"
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response
