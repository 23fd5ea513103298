"""The bundled test web: a generated, deterministic multilingual web behind a loopback HTTP proxy.

    from crawlweb.testweb import generate_web, TestWebServer
    web = generate_web(seed=1, size=40, pages_per_site=12)
    with TestWebServer(web) as server:          # HTTP_PROXY=server.proxy_url
        truth = server.truth()                  # sites, parallel pairs, seed and special URLs

Modules: text_source (parallel sentences from Django's .po catalogs), sites (site kinds, hosts,
URL layouts, the seeded plan), pages (content, hub and directory pages), specials (broken pages,
robots.txt variants, the calendar trap), generator (TestWeb.respond, backlink service), truth,
real_sites (the shared real static sites), server (the proxy and its request log).

Choices worth knowing:
- Hosts outside the test web answer 502 Bad Gateway, as a proxy that cannot reach them would.
- Backlinks: http://backlinks.test/?url=<urlencoded URL> answers {"url", "scope", "total",
  "backlinks"}. A site root (http://host/ with no query) or ?host=<host> means the host: every
  page on ANOTHER host linking to any page of that host (scope "host"); any other URL means that
  exact URL (scope "url", query parameters compared sorted). Links include <link rel=alternate>.
- `pages_per_site` is the number of page slugs per site; a bilingual site has up to two pages per
  slug (orphans exist in one language only).
- "www.primer.rs" is always the first bilingual site (dirs /sr/ /en/, Cyrillic); other host
  names depend on the seed.
"""

from .generator import TestWeb, generate_web
from .responses import Response
from .server import RequestRecord, TestWebServer

__all__ = ["Response", "RequestRecord", "TestWeb", "TestWebServer", "generate_web"]
