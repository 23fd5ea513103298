"""Database cleaning: a consistency check that can repair, and deletion by host, path prefix,
MD5 or page id (Combine's database cleaning, for this data model)."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page, Target
from crawlweb.services.leasing import expired_lease


@dataclass
class SanityReport:
    problems: dict[str, int] = field(default_factory=dict)
    repaired: dict[str, int] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not any(self.problems.values())


def sanity_check(crawl: Crawl, *, repair: bool = False) -> SanityReport:
    """Look for what a killed worker or a manual edit can leave behind; fix it when asked."""
    now = timezone.now()
    report = SanityReport()
    checks = {
        "expired leases": Target.objects.filter(expired_lease(now), crawl=crawl),
        "done targets without a page or an error": Target.objects.filter(
            crawl=crawl, state=Target.State.DONE, page__isnull=True, error_kind="", status_code__lt=300),
        "pages no target points to": Page.objects.filter(crawl=crawl, targets__isnull=True),
        "hosts held by an expired request": Host.objects.filter(targets__crawl=crawl, busy_until__lt=now).distinct(),
    }
    for name, queryset in checks.items():
        report.problems[name] = queryset.count()
    # Targets a request was made for: a status, and leased at least once. The final URL of a redirect is
    # marked done with the redirecting Target's status without a request of its own (storing.
    # _mark_redirect_target), and counting it reported a counter "below" on every crawl with a redirect.
    counted = Target.objects.filter(crawl=crawl, status_code__isnull=False, attempts__gt=0).count()
    report.problems["fetched-page counter below the fetched targets"] = int(crawl.pages_fetched < counted)
    if repair and not report.clean:
        with transaction.atomic():
            report.repaired["expired leases"] = checks["expired leases"].update(state=Target.State.PENDING)
            report.repaired["done targets without a page or an error"] = checks[
                "done targets without a page or an error"].update(state=Target.State.PENDING)
            report.repaired["pages no target points to"] = checks["pages no target points to"].delete()[1].get(
                "crawlweb.Page", 0)
            report.repaired["hosts held by an expired request"] = Host.objects.filter(
                pk__in=list(checks["hosts held by an expired request"].values_list("pk", flat=True))
            ).update(busy_until=None)
            if crawl.pages_fetched < counted:
                Crawl.objects.filter(pk=crawl.pk).update(pages_fetched=counted)
                report.repaired["fetched-page counter below the fetched targets"] = 1
    return report


def pages_matching(crawl: Crawl, *, host: str | None = None, prefix: str | None = None, md5: str | None = None,
                   page_id: int | None = None):
    if not any((host, prefix, md5, page_id)):
        raise ValueError("say what to delete: a host, a URL prefix, an MD5 or a page id")
    pages = Page.objects.filter(crawl=crawl)
    if host:
        pages = pages.filter(host__name=host.lower())
    if prefix:
        pages = pages.filter(Q(url__startswith=prefix) | Q(final_url__startswith=prefix))
    if md5:
        pages = pages.filter(md5=md5.lower())
    if page_id:
        pages = pages.filter(pk=page_id)
    return pages


@transaction.atomic
def delete_pages(crawl: Crawl, **criteria) -> tuple[int, int]:
    """Delete matching pages (their links go with them) and the Targets that led to them.

    Returns (pages deleted, targets deleted)."""
    pages = pages_matching(crawl, **criteria)
    page_ids = list(pages.values_list("pk", flat=True))
    targets_deleted = Target.objects.filter(crawl=crawl, page_id__in=page_ids).delete()[1].get("frontier.Target", 0)
    pages_deleted = Page.objects.filter(pk__in=page_ids).delete()[1].get("crawlweb.Page", 0)
    return pages_deleted, targets_deleted
