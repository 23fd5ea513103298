from crawlweb.models.crawl import Crawl
from crawlweb.models.pages import Link, Page
from crawlweb.models.seeds import Seed, SeedList
from crawlweb.models.site_language import SiteLanguage
from crawlweb.models.sites import Host, Site

__all__ = ["Crawl", "Host", "Link", "Page", "Seed", "SeedList", "Site", "SiteLanguage"]
