"""The site's own real origins mapped to its served host (no git, no database); snippets are shaped
like the real sites' files (adriacare.me's sitemap and hreflang links, a GitHub Pages project site)."""
from __future__ import annotations

from crawlweb.testweb.realweb_aliases import alias_problems, map_aliases

HOST = "adriacare.me"
ALIASES = ["https://adriacare.me", "https://user.github.io/adriacare"]


def test_robots_sitemap_lines_are_mapped_and_other_lines_kept():
    robots = b"User-agent: *\nDisallow: /https://adriacare.me/private\nSitemap: https://adriacare.me/sitemap.xml\n"
    assert map_aliases("robots.txt", robots, ALIASES, HOST) == (
        b"User-agent: *\nDisallow: /https://adriacare.me/private\nSitemap: http://adriacare.me/sitemap.xml\n")


def test_sitemap_locs_and_xhtml_alternates_are_mapped():
    sitemap = (b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">'
               b'<url><loc>https://adriacare.me/</loc>'
               b'<xhtml:link rel="alternate" hreflang="sr" href="https://adriacare.me/sr/"/>'
               b'<xhtml:link rel="alternate" hreflang="en" href="https://user.github.io/adriacare/en/"/></url></urlset>')
    mapped = map_aliases("sitemap.xml", sitemap, ALIASES, HOST)
    assert b"<loc>http://adriacare.me/</loc>" in mapped
    assert b'hreflang="sr" href="http://adriacare.me/sr/"' in mapped
    assert b'hreflang="en" href="http://adriacare.me/en/"' in mapped
    assert b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"' in mapped


def test_html_maps_canonical_and_hreflang_links_only():
    page = ('<html lang="sr"><head><link rel="canonical" href="https://adriacare.me/sr/">'
            '<link rel="alternate" hreflang="en" href="HTTP://AdriaCare.me/en/">'
            '<link rel="stylesheet" href="https://adriacare.me/style.css"></head>'
            '<body><a href="/en/" hreflang="en">EN</a><a href="https://adriacare.me/kontakt">Kontakt č</a>'
            '<a hreflang="ru" href="https://adriacare.me/ru/">RU</a></body></html>').encode("cp1250")
    mapped = map_aliases("sr/index.html", page, ALIASES, HOST)
    assert b'<link rel="canonical" href="http://adriacare.me/sr/">' in mapped
    assert b'<link rel="alternate" hreflang="en" href="http://adriacare.me/en/">' in mapped
    assert b'<a hreflang="ru" href="http://adriacare.me/ru/">' in mapped
    # A stylesheet and a plain link are not what the mapping is for: their bytes stay as found.
    assert b'href="https://adriacare.me/style.css"' in mapped
    assert 'href="https://adriacare.me/kontakt">Kontakt č'.encode("cp1250") in mapped


def test_an_alias_ends_at_a_url_boundary():
    sitemap = (b"<loc>https://user.github.io/adriacare</loc><loc>https://user.github.io/adriacare-old/x</loc>"
               b"<loc>https://adriacare.me.evil.test/</loc><loc>https://www.adriacare.me/</loc>")
    assert map_aliases("sitemap-pages.xml", sitemap, ALIASES, HOST) == (
        b"<loc>http://adriacare.me</loc><loc>https://user.github.io/adriacare-old/x</loc>"
        b"<loc>https://adriacare.me.evil.test/</loc><loc>https://www.adriacare.me/</loc>")


def test_without_aliases_or_for_other_files_the_bytes_are_kept():
    script = b"location.href = 'https://adriacare.me/en/';"
    assert map_aliases("js/lang.js", script, ALIASES, HOST) == script
    robots = b"Sitemap: https://adriacare.me/sitemap.xml\n"
    assert map_aliases("robots.txt", robots, [], HOST) == robots


def test_malformed_aliases_are_named():
    assert alias_problems(["https://adriacare.me", "https://user.github.io/repo"]) == []
    assert alias_problems(["adriacare.me", "https://adriacare.me/", "https://a.me/x?y=1"]) == [
        f"alias {bad!r} is not an origin like https://www.example.rs or https://user.github.io/repo"
        for bad in ("adriacare.me", "https://adriacare.me/", "https://a.me/x?y=1")]
