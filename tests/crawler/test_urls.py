import socket

import pytest

from crawlweb.crawler.urls import (
    InvalidURL, RuleError, UrlRules, normalize_url, registrable_domain, resolve_link, site_name, validate_url,
)

NORMALIZATION_TABLE = [
    # case and default ports
    ("HTTP://WWW.Example.COM/Path", "http://www.example.com/Path"),
    ("http://example.com:80/a", "http://example.com/a"),
    ("https://example.com:443/a", "https://example.com/a"),
    ("http://example.com:8080/a", "http://example.com:8080/a"),
    ("https://example.com:80/a", "https://example.com:80/a"),
    ("http://example.com", "http://example.com/"),
    ("http://example.com./a", "http://example.com/a"),
    # fragments
    ("http://example.com/a#section-2", "http://example.com/a"),
    ("http://example.com/a?x=1#top", "http://example.com/a?x=1"),
    # dot segments
    ("http://example.com/a/./b/../c", "http://example.com/a/c"),
    ("http://example.com/../../x", "http://example.com/x"),
    ("http://example.com/a/b/..", "http://example.com/a/"),
    ("http://example.com/a/%2E%2E/b", "http://example.com/b"),
    # percent-encoding
    ("http://example.com/%7Euser/%61bc", "http://example.com/~user/abc"),
    ("http://example.com/a%2fb%3a", "http://example.com/a%2Fb%3A"),
    ("http://example.com/ćirilica i latinica", "http://example.com/%C4%87irilica%20i%20latinica"),
    ("http://example.com/100%", "http://example.com/100%25"),
    ("http://example.com/?q=a b&r=%7e", "http://example.com/?q=a%20b&r=~"),
    # IDN hosts
    ("http://Ђаци.срб/почетна", "http://xn--80aq5b6b.xn--90a3ac/%D0%BF%D0%BE%D1%87%D0%B5%D1%82%D0%BD%D0%B0"),
    ("http://bücher.de/", "http://xn--bcher-kva.de/"),
    ("http://[2001:DB8:0:0::1]:8080/x", "http://[2001:db8::1]:8080/x"),
    # repeated identical parameters
    ("http://example.com/s?lang=sr&lang=sr&p=2", "http://example.com/s?lang=sr&p=2"),
    ("http://example.com/s?b=2&a=1&b=2&b=3", "http://example.com/s?b=2&a=1&b=3"),
    ("http://example.com/s?&&a=1&", "http://example.com/s?a=1"),
    ("http://example.com/s?", "http://example.com/s"),
    # session ids
    ("http://example.com/page;jsessionid=0AB12C?x=1", "http://example.com/page?x=1"),
    ("http://example.com/p?PHPSESSID=abc123&id=7", "http://example.com/p?id=7"),
    ("http://example.com/p?id=7&sid=99&SessionID=x&session_id=y", "http://example.com/p?id=7"),
    ("http://example.com/p?ASPSESSIONIDQQGGQGPG=ABC&CFID=1&CFTOKEN=2&x=y", "http://example.com/p?x=y"),
    ("http://example.com/p?side=left", "http://example.com/p?side=left"),
]


@pytest.mark.parametrize("raw, expected", NORMALIZATION_TABLE)
def test_normalization_gives_the_canonical_spelling(raw, expected):
    assert normalize_url(raw) == expected


def test_normalization_is_idempotent_on_the_whole_table():
    for raw, _ in NORMALIZATION_TABLE:
        once = normalize_url(raw)
        assert normalize_url(once) == once


def test_host_aliases_map_to_the_canonical_host():
    aliases = {"rts.co.rs": "www.rts.rs", "WEB.RTS.RS": "www.rts.rs"}
    assert normalize_url("http://rts.co.rs/vesti", host_aliases=aliases) == "http://www.rts.rs/vesti"
    assert normalize_url("http://web.rts.rs:80/", host_aliases=aliases) == "http://www.rts.rs/"
    assert normalize_url("http://other.rs/", host_aliases=aliases) == "http://other.rs/"


def test_session_parameter_patterns_are_configurable():
    assert normalize_url("http://a.rs/?sid=1&token=2", session_params=["token"]) == "http://a.rs/?sid=1"


@pytest.mark.parametrize("bad, problem", [
    ("", "empty"),
    ("example.com/page", "no scheme"),
    ("http:///path-only", "no host"),
    ("http://exa mple.com/", "not allowed in a host"),
    ("http://example.com:99999/", "Port out of range"),
    ("http://[::1/", "IPv6"),
    ("http://xn--a.com/", "not a valid international domain name"),
])
def test_normalization_refuses_broken_urls_and_says_why(bad, problem):
    with pytest.raises(InvalidURL, match=problem):
        normalize_url(bad)


@pytest.mark.parametrize("href, expected", [
    ("o-nama.html#tim", "http://primer.rs/sr/o-nama.html#tim"),
    ("../en/about.html", "http://primer.rs/en/about.html"),
    ("//cdn.primer.rs/x", "http://cdn.primer.rs/x"),
    ("  /en/\n", "http://primer.rs/en/"),
    ("?lang=en", "http://primer.rs/sr/index.html?lang=en"),
    ("https://other.rs/", "https://other.rs/"),
    ("javascript:void(0)", None),
    ("JavaScript:switchLang('en')", None),
    ("mailto:info@primer.rs", None),
    ("tel:+381111234567", None),
    ("data:image/png;base64,AAAA", None),
    ("", None),
    ("   ", None),
    (None, None),
])
def test_links_resolve_as_linked_or_to_none_when_not_fetchable(href, expected):
    assert resolve_link("http://primer.rs/sr/index.html", href) == expected


RULES = """
# only Serbian hosts, but never the forum
allow HOST:\\.rs$
allow URL:^https?://partner\\.example\\.com/
exclude URL:/forum/

exclude HOST:^ads\\.
"""


def test_rules_allow_then_exclude_with_reasons():
    rules = UrlRules.parse(RULES)
    assert rules.check("http://www.primer.rs/vesti/1.html") is None
    assert rules.check("http://partner.example.com/x") is None
    assert rules.check("http://example.com/x") == "not allowed"
    assert rules.check("http://www.primer.rs/forum/tema") == "excluded by URL:/forum/"
    assert rules.check("http://ads.primer.rs/") == "excluded by HOST:^ads\\."


def test_without_allow_rules_everything_is_allowed_except_binary_files():
    rules = UrlRules.parse("")
    assert rules.check("http://example.com/page.html") is None
    assert rules.check("http://example.com/dokument.pdf") is None  # PDF is a document, kept
    for ext in ("jpg", "PNG", "mp3", "mp4", "zip", "exe", "woff2", "css"):
        assert rules.check(f"http://example.com/file.{ext}") == f"excluded: binary file extension .{ext.lower()}"
    assert rules.check("http://example.com/js/main.js") is None  # a site's own script may name its pages
    assert rules.check("http://example.com/image.php?file=x.jpg") is None  # the query is not an extension


def test_rules_accept_a_list_of_lines():
    rules = UrlRules.parse(["allow HOST:^a\\.rs$", "# c"])
    assert rules.check("http://a.rs/") is None
    assert rules.check("http://b.rs/") == "not allowed"


@pytest.mark.parametrize("text, message", [
    ("allow HOST:ok\npermit URL:x", "line 2: expected 'allow' or 'exclude'"),
    ("\n\nexclude URL:(unclosed", "line 3: bad regular expression '(unclosed'"),
    ("allow DOMAIN:x", "line 1: expected HOST:<regex> or URL:<regex>"),
    ("# comment\nexclude HOST:", "line 2: empty regular expression"),
])
def test_rule_errors_name_the_line_and_the_problem(text, message):
    with pytest.raises(RuleError, match=message.replace("(", "\\(").replace("'", "'")):
        UrlRules.parse(text)


def test_validation_checks_scheme_length_and_rules():
    rules = UrlRules.parse("exclude URL:/private/")
    assert validate_url("http://a.rs/x", rules) is None
    assert "not http or https" in validate_url("ftp://a.rs/file", rules)
    assert "not http or https" in validate_url("mailto:x@a.rs", rules)
    long_url = "http://a.rs/" + "x" * 250
    assert "over the limit of 250" in validate_url(long_url, rules)
    assert validate_url(long_url, rules, max_length=300) is None
    assert validate_url("http://a.rs/private/1", rules) == "excluded by URL:/private/"
    assert validate_url("http://a.rs/logo.gif") == "excluded: binary file extension .gif"
    assert "no host" in validate_url("http:///x")


@pytest.mark.parametrize("host, strip, expected", [
    ("www.Primer.rs", True, "primer.rs"),
    ("www.primer.rs", False, "www.primer.rs"),
    ("primer.rs:8080", True, "primer.rs"),
    ("wwwprimer.rs", True, "wwwprimer.rs"),
    ("www.rs", True, "www.rs"),
])
def test_site_name_is_the_host_without_www(host, strip, expected):
    assert site_name(host, strip_www=strip) == expected


@pytest.mark.parametrize("host, expected", [
    ("www.rts.co.rs", "rts.co.rs"),
    ("vesti.b92.net", "b92.net"),
    ("a.b.gov.rs", "b.gov.rs"),
    ("www.bbc.co.uk", "bbc.co.uk"),
    ("www.xn--80aq5b6b.xn--90a3ac", "xn--80aq5b6b.xn--90a3ac"),
    ("sr.site-a.test", "site-a.test"),
    ("127.0.0.1", "127.0.0.1"),
    # the list's private section: each customer of a hosting service owns a site of their own
    ("ana.github.io", "ana.github.io"),
    ("www.ana.github.io", "ana.github.io"),
    ("blog.marko.blogspot.com", "marko.blogspot.com"),
    # the real development web's stand-in for <owner>.github.io/<repo>
    ("titan-gradnja.acamilic.gh.test", "acamilic.gh.test"),
])
def test_registrable_domain_uses_the_public_suffix_list(host, expected):
    assert registrable_domain(host) == expected


def test_two_github_pages_owners_are_two_registrable_domains():
    assert registrable_domain("ana.github.io") != registrable_domain("marko.github.io")


@pytest.mark.parametrize("name, expected", [
    ("primer.rs", True), ("a.co.rs", True), ("github.io", True), ("ana.github.io", True), ("o-nama.html", False),
])
def test_a_dotted_name_ending_in_a_public_suffix_is_a_domain_name(name, expected):
    from crawlweb.crawler.urls import ends_in_public_suffix

    assert ends_in_public_suffix(name) is expected


def test_registrable_domain_works_without_any_network(monkeypatch):
    from crawlweb.crawler import urls

    def no_network(*args, **kwargs):
        raise AssertionError("tldextract tried to use the network")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    import importlib

    from crawlweb.crawler import suffixes

    fresh = importlib.reload(suffixes)  # a new extractor reads its suffix list with the network gone
    assert fresh.split_domain("www.uns.org.rs") == ("www", "uns", "org.rs")
    assert fresh.split_domain("ana.github.io") == ("", "ana", "github.io")
    urls.registrable_domain.cache_clear()
    assert urls.registrable_domain("www.uns.org.rs") == "uns.org.rs"
