from crawlweb.models.crawl import Crawl
from crawlweb.models.host_queues import HostQueue
from crawlweb.models.pages import Link, Page
from crawlweb.models.seeds import Seed, SeedList
from crawlweb.models.site_language import SiteLanguage
from crawlweb.models.sites import Host, Site
from crawlweb.models.tallies import LayerTally, MemberCount, MemberTally, PageTally, TargetTally
from crawlweb.models.targets import Target

__all__ = ["Crawl", "Host", "HostQueue", "LayerTally", "Link", "MemberCount", "MemberTally", "Page", "PageTally", "Seed", "SeedList",
           "Site", "SiteLanguage", "Target", "TargetTally"]
