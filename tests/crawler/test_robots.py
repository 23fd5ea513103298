import random

import pytest

from crawlweb.crawler.robots import (
    DEFAULT_CACHE_SECONDS, DEFAULT_ERROR_CACHE_SECONDS, MAX_ROBOTS_BYTES, RobotsPolicy, robots_url,
)

UA = "CrawlwebBot/0.1 (+https://example.org/bot)"
NOW = 1_800_000_000.0

ROBOTS = b"""# a typical file
User-agent: CrawlwebBot
Disallow: /admin/
Allow: /admin/public/
Crawl-delay: 2.5

User-agent: *
Disallow: /
Sitemap: https://primer.rs/sitemap.xml
"""


def test_rules_for_our_agent_are_followed_by_its_product_token():
    policy = RobotsPolicy.from_response(200, ROBOTS, NOW)
    assert policy.allows("https://primer.rs/sr/vesti.html", UA)
    assert not policy.allows("https://primer.rs/admin/users", UA)
    assert policy.allows("https://primer.rs/admin/public/page", UA)
    assert policy.crawl_delay(UA) == 2.5
    assert policy.sitemaps() == ["https://primer.rs/sitemap.xml"]


def test_other_agents_fall_under_the_star_group():
    policy = RobotsPolicy.from_response(200, ROBOTS, NOW)
    assert not policy.allows("https://primer.rs/sr/vesti.html", "SomeOtherBot/2.0")
    assert policy.crawl_delay("SomeOtherBot/2.0") is None


def test_robots_txt_itself_is_always_allowed():
    policy = RobotsPolicy.from_response(200, b"User-agent: *\nDisallow: /\n", NOW)
    assert policy.allows("https://primer.rs/robots.txt", UA)
    assert not policy.allows("https://primer.rs/", UA)


@pytest.mark.parametrize("status", [401, 403, 404, 410])
def test_a_4xx_answer_means_everything_is_allowed(status):
    policy = RobotsPolicy.from_response(status, b"User-agent: *\nDisallow: /\n", NOW)
    assert policy.allows("https://primer.rs/anything", UA)
    assert policy.expires_at == NOW + DEFAULT_CACHE_SECONDS


@pytest.mark.parametrize("status, body, error", [
    (500, b"", None), (503, b"User-agent: *\nAllow: /\n", None), (429, b"", None),
    (None, None, "connection refused"), (None, None, "timeout"),
])
def test_server_errors_and_unreachable_hosts_disallow_everything_for_a_short_while(status, body, error):
    policy = RobotsPolicy.from_response(status, body, NOW, error=error)
    assert not policy.allows("https://primer.rs/", UA)
    assert policy.expires_at == NOW + DEFAULT_ERROR_CACHE_SECONDS
    assert policy.error
    assert not policy.is_expired(NOW + 60)
    assert policy.is_expired(NOW + DEFAULT_ERROR_CACHE_SECONDS)


def test_cache_lifetimes_are_configurable():
    ok = RobotsPolicy.from_response(200, ROBOTS, NOW, cache_seconds=3600)
    failed = RobotsPolicy.from_response(None, None, NOW, error="dns", error_cache_seconds=30)
    assert ok.expires_at == NOW + 3600
    assert failed.expires_at == NOW + 30


def test_garbage_never_raises_and_allows_by_default():
    rng = random.Random(7)
    for _ in range(20):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
        policy = RobotsPolicy.from_response(200, body, NOW)
        assert isinstance(policy.allows("https://primer.rs/page", UA), bool)
        policy.crawl_delay(UA)
    html = RobotsPolicy.from_response(200, b"<html><body>Not found</body></html>", NOW)
    assert html.allows("https://primer.rs/page", UA)
    bad_delay = RobotsPolicy.from_response(200, b"User-agent: *\nCrawl-delay: soon\nDisallow: /x\n", NOW)
    assert bad_delay.crawl_delay(UA) is None
    assert not bad_delay.allows("https://primer.rs/x", UA)


def test_only_the_first_500_kib_are_parsed():
    padding = b"# filler line to make the file huge\n" * (MAX_ROBOTS_BYTES // 36 + 10)
    body = b"User-agent: *\nDisallow: /early/\n" + padding + b"Disallow: /late/\n"
    policy = RobotsPolicy.from_response(200, body, NOW)
    assert policy.truncated
    assert len(policy.text.encode()) <= MAX_ROBOTS_BYTES
    assert not policy.allows("https://primer.rs/early/x", UA)
    assert policy.allows("https://primer.rs/late/x", UA)


def test_a_stored_policy_reparses_to_the_same_decisions():
    original = RobotsPolicy.from_response(200, ROBOTS, NOW)
    stored = original.to_dict()
    assert stored["status"] == 200 and "Crawl-delay: 2.5" in stored["text"]
    loaded = RobotsPolicy.from_dict(stored)
    for url in ("https://primer.rs/", "https://primer.rs/admin/x", "https://primer.rs/admin/public/y"):
        assert loaded.allows(url, UA) == original.allows(url, UA)
    assert loaded.crawl_delay(UA) == 2.5
    assert loaded.expires_at == original.expires_at
    unreachable = RobotsPolicy.from_dict(RobotsPolicy.from_response(None, None, NOW, error="dns").to_dict())
    assert not unreachable.allows("https://primer.rs/", UA)


def test_a_damaged_stored_policy_is_refused_clearly():
    with pytest.raises(ValueError, match="lacks"):
        RobotsPolicy.from_dict({"mode": "parsed"})
    with pytest.raises(ValueError, match="unknown mode"):
        RobotsPolicy.from_dict({"mode": "maybe", "status": 200, "text": "", "fetched_at": 0, "expires_at": 0})


@pytest.mark.parametrize("url, expected", [
    ("https://Primer.RS/sr/vesti.html?x=1#f", "https://primer.rs/robots.txt"),
    ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/robots.txt"),
])
def test_robots_url_keeps_scheme_host_and_port(url, expected):
    assert robots_url(url) == expected


def test_robots_url_rejects_relative_urls():
    with pytest.raises(ValueError, match="not an absolute URL"):
        robots_url("/sr/index.html")
