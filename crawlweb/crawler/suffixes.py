"""Public suffixes: where one owner's domain begins (www.rts.co.rs → rts.co.rs; ana.github.io → ana.github.io).

One extractor for the whole project: the bundled public-suffix snapshot only (never a download,
no cache directory), *with* the list's private section, where hosting services list the names
under which each customer owns a site of their own (github.io, blogspot.com, netlify.app). Without
it every GitHub Pages site of a crawl had one registrable domain, github.io: URL pairing joined
pages of two owners, site groups merged them, and the back crawl dropped one owner's backlinks
from another owner's pages as the site's own links.

TEST_WEB_SUFFIXES: the test web's stand-ins for such services (the real development web serves each
GitHub Pages site as <repo>.<owner>.gh.test, GitHub's <owner>.github.io/<repo>). Names under .test
never resolve on the internet (RFC 2606), so they change nothing outside the test web.
"""
from __future__ import annotations

import ipaddress

import tldextract

TEST_WEB_SUFFIXES = ("gh.test",)

EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True,
                                extra_suffixes=TEST_WEB_SUFFIXES)


def split_domain(host: str, *, private: bool = True) -> tuple[str, str, str]:
    """(subdomain, domain label, public suffix) of a lower-case host; a part that is absent is "".
    ``private=False`` reads the list's ICANN section only (github.io: domain github, suffix io)."""
    parts = EXTRACT(host, include_psl_private_domains=private)
    return parts.subdomain, parts.domain, parts.suffix


def registrable_domain(host: str) -> str:
    """The registrable domain (public suffix + one label) of a lower-case host without a port:
    'www.rts.co.rs' -> 'rts.co.rs', 'ana.github.io' -> 'ana.github.io'.

    An IP address is its own domain. A host under a suffix the list does not know (the test web's
    '.test' names) falls back to its last two labels, so 'sr.site-a.test' and 'sr.site-b.test' stay
    two sites rather than one site 'test'.
    """
    host = host.rstrip(".")
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    _, domain, suffix = split_domain(host)
    if suffix and domain:
        return f"{domain}.{suffix}"
    return ".".join([label for label in host.split(".") if label][-2:])


def split_registrable(host: str) -> tuple[tuple[str, ...], str]:
    """(the labels before the registrable domain, the registrable domain) of a lower-case host:
    'en.www.site.rs' -> (('en', 'www'), 'site.rs')."""
    host = host.rstrip(".")
    registrable = registrable_domain(host)
    return tuple(label for label in host[:-len(registrable)].split(".") if label), registrable
