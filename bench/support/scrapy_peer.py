"""The peer figure for bench/crawl_throughput.py: a plain Scrapy CrawlSpider following every link.

Same politeness as our crawler: DOWNLOAD_DELAY = host interval (not randomized, like our fixed
interval), one request in flight per domain, robots.txt obeyed, 16 concurrent requests (our
CRAWLER_CONCURRENCY), the same user agent, the same seeds and page budget (CLOSESPIDER_PAGECOUNT).
Requests go through HTTP_PROXY like ours (Scrapy's HttpProxyMiddleware reads the environment).

    HTTP_PROXY=http://127.0.0.1:PORT .venv/bin/python bench/scrapy_peer.py --seeds seeds.txt --budget 1000 --delay 0

Prints one JSON line: {"pages", "requests", "robots", "started", "first_response", "last_response",
"closed", "reason", "peak_rss_mb"} (times are time.time() values, so the caller can line them up
with its own clock).
"""
from __future__ import annotations

import argparse
import json
import resource
import time
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

# The same product token our crawler sends, so robots.txt groups match the same way.
USER_AGENT = "BilingualCrawler/0.1 (+https://github.com/bilingual-crawler/bilingual-crawler; research crawler)"


class FollowAllSpider(CrawlSpider):
    name = "follow_all"
    rules = (Rule(LinkExtractor(), callback="parse_page", follow=True),)

    def __init__(self, seeds: list[str], *args, **kwargs):
        self.start_urls = seeds
        super().__init__(*args, **kwargs)

    def parse_page(self, response):
        return None  # nothing to extract: the bench counts fetched pages


class Counter:
    """Counts responses (robots.txt apart) and notes when the crawl began and ended."""

    def __init__(self):
        self.pages = self.robots = 0
        self.first = self.last = self.closed = None
        self.reason = ""

    def response_received(self, response, request, spider):
        now = time.time()
        if request.url.endswith("/robots.txt"):
            self.robots += 1
            return
        self.pages += 1
        self.first = self.first or now
        self.last = now

    def spider_closed(self, spider, reason):
        self.closed, self.reason = time.time(), reason


def main() -> None:
    started = time.time()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", required=True, help="file with one start URL a line")
    parser.add_argument("--budget", type=int, required=True, help="CLOSESPIDER_PAGECOUNT")
    parser.add_argument("--delay", type=float, default=0.0, help="DOWNLOAD_DELAY (seconds per host)")
    parser.add_argument("--concurrency", type=int, default=16, help="CONCURRENT_REQUESTS")
    parser.add_argument("--in-site-only", action="store_true",
                        help="follow links only within the seeds' hosts (allowed_domains), like crawl --in-site-only")
    args = parser.parse_args()
    with open(args.seeds, encoding="utf-8") as handle:
        seeds = [line.strip() for line in handle if line.strip()]
    process = CrawlerProcess(settings={
        "USER_AGENT": USER_AGENT,
        "ROBOTSTXT_OBEY": True,
        "DOWNLOAD_DELAY": args.delay,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "CONCURRENT_REQUESTS": args.concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "CLOSESPIDER_PAGECOUNT": args.budget,
        "DOWNLOAD_TIMEOUT": 15,  # our CRAWLER_READ_TIMEOUT
        "DOWNLOAD_MAXSIZE": 10 * 1024 * 1024,  # our CRAWLER_MAX_PAGE_BYTES
        "RETRY_TIMES": 2,  # our CRAWLER_MAX_ATTEMPTS = 3 tries
        "COOKIES_ENABLED": True,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "ERROR",
    })
    counter = Counter()
    crawler = process.create_crawler(FollowAllSpider)
    crawler.signals.connect(counter.response_received, signal=signals.response_received)
    crawler.signals.connect(counter.spider_closed, signal=signals.spider_closed)
    kwargs = {"allowed_domains": sorted({urlsplit(url).hostname for url in seeds})} if args.in_site_only else {}
    process.crawl(crawler, seeds=seeds, **kwargs)
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    print(json.dumps({
        "pages": counter.pages, "robots": counter.robots,
        "requests": stats.get("downloader/request_count", 0),
        "started": started, "first_response": counter.first, "last_response": counter.last,
        "closed": counter.closed, "reason": counter.reason,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    main()
