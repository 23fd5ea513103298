from crawlweb.models.crawl import Crawl
from crawlweb.models.pages import Link, Page
from crawlweb.models.seeds import Seed, SeedList
from crawlweb.models.site_language import SiteLanguage
from crawlweb.models.sites import Host, Site
from crawlweb.models.tallies import LayerTally, MemberCount, MemberTally, PageTally, TargetTally

__all__ = ["Crawl", "Host", "LayerTally", "Link", "MemberCount", "MemberTally", "Page", "PageTally", "Seed", "SeedList",
           "Site", "SiteLanguage", "TargetTally"]
