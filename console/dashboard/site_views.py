"""A site's page in a crawl: what the crawl fetched there, the verdict and its evidence, patterns, pairs."""
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from crawlweb.console_access import staff_console
from console.dashboard.site_detail import site_report
from crawlweb.models import Crawl, Page, Site
from frontier.models import SiteVerdict, Target


@staff_console
def site_detail(request, pk, site_id):
    crawl = get_object_or_404(Crawl, pk=pk)
    site = get_object_or_404(Site, pk=site_id)
    in_crawl = (Target.objects.filter(crawl=crawl, site=site).exists() or Page.objects.filter(crawl=crawl, site=site).exists()
                or SiteVerdict.objects.filter(crawl=crawl, site=site).exists())
    if not in_crawl:
        raise Http404(f"crawl {crawl.pk} has nothing of site {site.name}")
    return render(request, "dashboard/site.html", site_report(crawl, site))
