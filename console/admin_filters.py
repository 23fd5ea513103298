"""Admin filters that make the dashboard's numbers traceable: the sites a crawl has seen, the hosts
with work left in a crawl, and the hosts whose politeness clock holds them (console/dashboard/live.py
counts with the same terms)."""
from django.contrib import admin
from django.utils import timezone

from crawlweb.ids import parse_id
from crawlweb.models import Crawl, Page
from frontier.models import Target

CRAWL_CHOICES = 30


def _crawl_choices():
    return [(str(pk), f"{name} #{pk}") for pk, name in Crawl.objects.order_by("-pk").values_list("pk", "name")[:CRAWL_CHOICES]]


class _ByCrawl(admin.SimpleListFilter):
    """A filter whose choices are the latest crawls; a subclass says which rows a crawl keeps."""
    parameter_name = "crawl"

    def lookups(self, request, model_admin):
        return _crawl_choices()

    def queryset(self, request, queryset):
        crawl_id = parse_id(self.value())
        return queryset if crawl_id is None else self.in_crawl(queryset, crawl_id)

    def in_crawl(self, queryset, crawl_id: int):
        raise NotImplementedError


class SitesSeenByCrawl(_ByCrawl):
    """Sites with at least one stored page in the crawl ("sites seen")."""
    title = "seen by crawl"

    def in_crawl(self, queryset, crawl_id: int):
        return queryset.filter(pk__in=Page.objects.filter(crawl_id=crawl_id).values("site_id"))


class HostsWithWorkInCrawl(_ByCrawl):
    """Hosts with a Target pending or leased in the crawl."""
    title = "work left in crawl"

    def in_crawl(self, queryset, crawl_id: int):
        work = Target.objects.filter(crawl_id=crawl_id, state__in=(Target.State.PENDING, Target.State.LEASED))
        return queryset.filter(pk__in=work.values("host_id"))


class PolitenessClock(admin.SimpleListFilter):
    """waiting: the host's politeness clock has not run out; busy: a request to it is in flight."""
    title = "politeness clock"
    parameter_name = "clock"

    def lookups(self, request, model_admin):
        return [("waiting", "waiting (next fetch in the future)"), ("busy", "busy (request in flight)")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "waiting":
            return queryset.filter(next_fetch_at__gt=now)
        if self.value() == "busy":
            return queryset.filter(busy_until__gt=now)
        return queryset
