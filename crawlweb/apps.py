from django.apps import AppConfig


class CrawlwebConfig(AppConfig):
    name = "crawlweb"
    verbose_name = "Crawl"
