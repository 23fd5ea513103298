"""Numbers the dashboard shows, each a plain query over the rows behind it."""
from django.db.models import Count

from crawlweb.models import Crawl, Page
from frontier.models import Target


def crawl_counters(crawl: Crawl) -> dict:
    by_state = dict(Target.objects.filter(crawl=crawl).values_list("state").annotate(n=Count("id")))
    errors = (Target.objects.filter(crawl=crawl).exclude(error_kind="").values("error_kind")
              .annotate(n=Count("id")).order_by("-n"))
    languages = (Page.objects.filter(crawl=crawl).values("language").annotate(n=Count("id")).order_by("-n"))
    return {
        "targets": {state: by_state.get(state, 0) for state in Target.State.values},
        "pages": Page.objects.filter(crawl=crawl).count(),
        "sites": Page.objects.filter(crawl=crawl).values("site").distinct().count(),
        "errors": list(errors),
        "languages": list(languages),
    }
