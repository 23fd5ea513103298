"""Sitemaps: pages, indexes, gzip, hreflang alternates, caps, and what is not a sitemap."""
import gzip

import pytest

from crawlweb.crawler.sitemaps import NotASitemap, looks_like_sitemap, parse_sitemap

URLSET = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>http://primer.rs/sr/o-nama.html</loc>
    <xhtml:link rel="alternate" hreflang="sr" href="http://primer.rs/sr/o-nama.html"/>
    <xhtml:link rel="alternate" hreflang="en" href="http://primer.rs/en/about.html"/></url>
  <url><loc> /en/about.html </loc></url>
</urlset>"""
INDEX = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://primer.rs/sitemap-sr.xml.gz</loc></sitemap><sitemap><loc>/sitemap-en.xml</loc></sitemap>
</sitemapindex>"""


def test_pages_and_their_hreflang_alternates_are_read():
    sitemap = parse_sitemap(URLSET, "http://primer.rs/sitemap.xml")
    assert [(e.url, e.alternates) for e in sitemap.pages] == [
        ("http://primer.rs/sr/o-nama.html", {"sr": "http://primer.rs/sr/o-nama.html",
                                             "en": "http://primer.rs/en/about.html"}),
        ("http://primer.rs/en/about.html", {})]
    assert not sitemap.truncated and sitemap.sitemaps == []


def test_an_index_names_more_sitemaps_and_gzip_is_read():
    sitemap = parse_sitemap(gzip.compress(INDEX), "http://primer.rs/sitemap.xml")
    assert sitemap.sitemaps == ["http://primer.rs/sitemap-sr.xml.gz", "http://primer.rs/sitemap-en.xml"]
    assert looks_like_sitemap(gzip.compress(INDEX)) and looks_like_sitemap(URLSET)


def test_the_url_cap_cuts_a_large_sitemap_and_says_so():
    body = b"<urlset>" + b"".join(b"<url><loc>/p%d.html</loc></url>" % i for i in range(50)) + b"</urlset>"
    sitemap = parse_sitemap(body, "http://primer.rs/", max_urls=10)
    assert len(sitemap.pages) == 10 and sitemap.truncated


@pytest.mark.parametrize("body", [b"<html><body>Not found</body></html>", b"", b"\x1f\x8bbroken", b"<rss></rss>"])
def test_what_is_not_a_sitemap_is_refused_with_a_reason(body):
    assert not looks_like_sitemap(body) or body.startswith(b"\x1f")
    with pytest.raises(NotASitemap):
        parse_sitemap(body, "http://primer.rs/sitemap.xml")


def test_entities_are_never_expanded():
    body = b"""<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>
    <urlset><url><loc>http://primer.rs/&x;</loc></url></urlset>"""
    sitemap = parse_sitemap(body, "http://primer.rs/")
    assert all("root:" not in e.url for e in sitemap.pages)


def test_a_fetched_sitemap_becomes_links_and_declared_alternates():
    from crawlweb.crawler.fetch import FetchResult
    from crawlweb.services.page_prep import PageOptions, prepare_page

    result = FetchResult(requested_url="http://primer.rs/sitemap.xml", final_url="http://primer.rs/sitemap.xml", status=200,
                         headers={"content-type": "application/xml"}, body=URLSET)
    prepared = prepare_page(result, "primer.rs", PageOptions((), {}), window_words=10)
    links = [(l.values["kind"], l.values["target_url"], l.values.get("hreflang", ""), l.values.get("anchor_text", ""),
              l.followed) for l in prepared.links]
    assert links == [
        ("sitemap", "http://primer.rs/sr/o-nama.html", "", "", True),
        ("sitemap", "http://primer.rs/en/about.html", "", "", True),
        ("sitemap-alternate", "http://primer.rs/en/about.html", "en", "http://primer.rs/sr/o-nama.html", True)]


def test_a_hosts_sitemaps_are_its_robots_lines_on_the_same_site_else_sitemap_xml():
    from crawlweb.crawler.sitemaps import root_sitemaps

    lines = ["http://primer.rs/sitemap-index.xml", "http://cdn.other.com/primer.xml", "/relative.xml",
             "http://primer.rs/sitemap-index.xml"]
    assert [url for url, _ in root_sitemaps("http://www.primer.rs/sr/", lines)] == [
        "http://primer.rs/sitemap-index.xml", "http://www.primer.rs/relative.xml"]
    assert root_sitemaps("http://www.primer.rs/sr/", ["http://cdn.other.com/primer.xml"]) == [
        ("http://www.primer.rs/sitemap.xml", "/sitemap.xml, tried once per host (robots.txt names no sitemap)")]
    with pytest.raises(ValueError, match="not an absolute URL"):
        root_sitemaps("/sr/", [])


def test_gzip_sitemaps_are_not_refused_as_binary_files():
    from crawlweb.crawler.urls import validate_url

    assert validate_url("http://primer.rs/sitemaps/pages.xml.gz") is None
    assert "binary file extension" in validate_url("http://primer.rs/arhiva.tar.gz")
