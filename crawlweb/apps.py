from django.apps import AppConfig


class CrawlwebConfig(AppConfig):
    name = "crawlweb"
    verbose_name = "Crawl"

    def ready(self):
        from crawlweb import checks  # noqa: F401 -- registers the project's system checks
