"""The generated test web: `generate_web()` and `TestWeb.respond()`.

Pages are rendered on request; generation only plans the sites, so 200 sites x 50 pages
take milliseconds. Everything is deterministic from (seed, size, pages_per_site).
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections import OrderedDict
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from . import judging_cases as cases
from .fuzz import FuzzHosts
from .heavy_tail import UNIFORM
from .hostile import HOSTILE_HOSTS, hostile_response
from . import pages as page_models
from .pages import PageModel
from .real_sites import RealSites
from .responses import Response, error_page, html_response, redirect, text_response
from .script_sites import SCRIPT_SITE_HOSTS, script_site_response
from .sitemap_files import ROBOTS_INDEX, robots_response as sitemap_robots, sitemap_response
from .sites import DIRECTORY, SPECIAL, SiteSpec, plan_sites
from .specials import (DEFAULT_OVERSIZED_BYTES, DEFAULT_SLOW_DELAY_S, robots_response,
                       special_home, special_response, tiny_png)

BACKLINK_HOST = "backlinks.test"
_IMAGE_PREFIXES = ("/img/", "/images/")


def url_key(url: str) -> str:
    """A URL in the form the backlink index and routing compare: lowercase scheme and host,
    no default port, no fragment, "/" for an empty path, query parameters sorted."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.port not in (None, 80):
        host = f"{host}:{parts.port}"
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return f"{(parts.scheme or 'http').lower()}://{host}{parts.path or '/'}" + (f"?{query}" if query else "")


MODEL_CACHE_PAGES = 30_000


class SiteModelCache:
    """Page models of the sites asked for last, at most ``limit`` models in all (whole sites; the
    newest is always kept). A web of 100,000 pages would otherwise hold every model (~3 KB each);
    a site dropped is rebuilt, identical, when asked again. The caller holds the lock."""

    def __init__(self, limit: int):
        self.limit, self.pages = limit, 0
        self._sites: OrderedDict[int, dict[str, PageModel]] = OrderedDict()

    def get(self, index: int) -> dict[str, PageModel] | None:
        models = self._sites.get(index)
        if models is not None:
            self._sites.move_to_end(index)
        return models

    def put(self, index: int, models: dict[str, PageModel]) -> None:
        if index not in self._sites:
            self._sites[index] = models
            self.pages += len(models)
        while self.pages > self.limit and len(self._sites) > 1:
            _, dropped = self._sites.popitem(last=False)
            self.pages -= len(dropped)


class TestWeb:
    """A deterministic multilingual web answering HTTP requests (see `respond`)."""

    __test__ = False  # not a pytest test class

    def __init__(self, seed: int, size: int, pages_per_site: int, *,
                 slow_delay_s: float = DEFAULT_SLOW_DELAY_S,
                 oversized_bytes: int = DEFAULT_OVERSIZED_BYTES, judging_cases: bool = False,
                 size_distribution: str = UNIFORM):
        self.seed, self.size, self.pages_per_site = seed, size, pages_per_site
        self.size_distribution = size_distribution
        self.slow_delay_s = float(slow_delay_s)
        self.oversized_bytes = int(oversized_bytes)
        self.sites: list[SiteSpec] = plan_sites(seed, size, pages_per_site, size_distribution)
        self.real_sites: RealSites | None = None
        self._site_by_host = {host: site for site in self.sites for host in site.hosts}
        # Pages for evaluators to judge (judging_cases.py): on the first bilingual site, when asked for.
        self.case_site = cases.case_site(self.sites) if judging_cases else None
        self._case_pages = ({url_key(u): body for u, body in cases.case_pages(seed, self.case_site).items()}
                            if self.case_site else {})
        # Webs of generated hostile answers (fuzz.py): empty until a test or the bench installs one.
        self.fuzz = FuzzHosts()
        self._lock = threading.Lock()
        self._backlink_lock = threading.Lock()
        self._models = SiteModelCache(MODEL_CACHE_PAGES)  # shared with a with_real_sites() copy
        self._keys: dict[int, dict[str, tuple[str, str, str]]] = {}  # site index: _page_keys (shared too)
        self._backlinks: dict[str, list[str]] | None = None
        self._host_backlinks: dict[str, list[str]] | None = None

    # ---- pages -------------------------------------------------------------------------
    def site_pages(self, site: SiteSpec) -> dict[str, PageModel]:
        """url_key → model of every finite page of one site (trap pages excluded)."""
        if self._built_whole(site):
            return self._whole_site(site)
        return {key: self._page_model(site, key) for key in self._page_keys(site)}

    def _built_whole(self, site: SiteSpec) -> bool:
        """Directories and the judging-case site are built as a whole; every other site a page at a
        time, so a request for one page of a 5,000-page site costs one page (the bench's server would
        otherwise spend seconds rebuilding big sites its cache had to drop)."""
        return site.kind == DIRECTORY or site is self.case_site

    def _whole_site(self, site: SiteSpec) -> dict[str, PageModel]:
        with self._lock:
            cached = self._models.get(site.index)
        if cached is not None:
            return cached
        models: dict[str, PageModel] = {}
        if site.kind == DIRECTORY:
            models = page_models.directory_pages(self.seed, self.sites, site)
        else:
            models = {model.url: model for model in (self._build(site, page) for page in _site_plan(site))}
            for lang in site.languages:
                models[site.home_url(lang)].related += cases.home_links(site, lang)
        keyed = {url_key(url): model for url, model in models.items()}
        with self._lock:
            self._models.put(site.index, keyed)
        return keyed

    def _page_keys(self, site: SiteSpec) -> dict[str, tuple[str, str]]:
        """url_key → (kind, language, slug) of each page of a site built a page at a time: a few
        strings a page, kept for every site."""
        with self._lock:
            keys = self._keys.get(site.index)
        if keys is None:
            keys = {url_key(_page_url(site, page)): page for page in _site_plan(site)}
            with self._lock:
                self._keys[site.index] = keys
        return keys

    def _page_model(self, site: SiteSpec, key: str) -> PageModel | None:
        if self._built_whole(site):
            return self._whole_site(site).get(key)
        page = self._page_keys(site).get(key)
        return self._build(site, page) if page is not None else None

    def _build(self, site: SiteSpec, page: tuple[str, str, str]) -> PageModel:
        kind, lang, slug = page
        if kind == "links":
            return page_models.links_page(self.seed, self.sites, site)
        if kind == "private":
            return page_models.private_page(site)
        return page_models.content_page(self.seed, self.sites, site, lang, slug)

    def page_urls(self, site: SiteSpec) -> list[str]:
        return [model.url for model in self.site_pages(site).values()]

    # ---- HTTP --------------------------------------------------------------------------
    def respond(self, method: str, url: str, headers: dict[str, str] | None = None) -> Response:
        """Answer one request for an absolute http:// URL, as the origin server would.

        Unknown hosts get 502 Bad Gateway, as a proxy that cannot reach them would answer."""
        method = (method or "").upper()
        lowered = {k.lower(): v for k, v in (headers or {}).items()}
        if method not in ("GET", "HEAD"):
            response = error_page(405, f"method {method or '(none)'} is not supported")
            response.headers["Allow"] = "GET, HEAD"
            return response
        parts = urlsplit(url)
        if parts.scheme.lower() != "http" or not parts.hostname:
            return error_page(400, f"the test web serves absolute http:// URLs only, got {url!r}")
        host = parts.hostname.lower()
        path = parts.path or "/"
        if parts.port not in (None, 80):
            response = error_page(502, f"no test-web server on {host}:{parts.port}")
        elif self.real_sites is not None and self.real_sites.has_host(host):
            response = self.real_sites.respond(host, path)
        elif host == BACKLINK_HOST:
            response = self._backlink_response(parts.query)
        elif host in self.fuzz:
            response = self.fuzz.respond(host, path)
        elif host in HOSTILE_HOSTS:
            response = hostile_response(host, path, parts.query)
        elif host in SCRIPT_SITE_HOSTS:
            response = script_site_response(host, path)
        elif host in self._site_by_host:
            response = self._site_response(self._site_by_host[host], host, path, parts.query, lowered)
        else:
            response = error_page(502, f"unknown host {host} (not part of the test web)")
        if method == "HEAD":
            body = response.body
            if not isinstance(body, bytes) and hasattr(body, "close"):
                body.close()
            response.body = b""
        return response

    def _site_response(self, site: SiteSpec, host: str, path: str, query: str,
                       headers: dict[str, str]) -> Response:
        if path == "/robots.txt":
            return sitemap_robots(site) if site.sitemap == ROBOTS_INDEX else robots_response(self.seed, site.robots)
        sitemap = sitemap_response(site, path)
        if sitemap is not None:
            return sitemap
        if path.startswith(_IMAGE_PREFIXES) and path.endswith(".png"):
            body = tiny_png()
            return Response(200, {"Content-Type": "image/png", "Content-Length": str(len(body))}, body)
        if site.kind == SPECIAL:
            found = special_response(self.seed, host, path, headers, slow_delay_s=self.slow_delay_s,
                                     oversized_bytes=self.oversized_bytes)
            return found or error_page(404, f"no page {path} on {host}")
        case = self._case_pages.get(url_key(f"http://{host}{path}"))
        if case is not None:
            return html_response(case)
        def model_at(url: str) -> PageModel | None:
            return self._page_model(site, url_key(url))

        model = model_at(f"http://{host}{path}" + (f"?{query}" if query else ""))
        if model is None and site.layout == "query" and path in ("/", "/index.php"):
            params = dict(parse_qsl(query))
            lang = next((code for code, token in site.tokens.items()
                         if token == params.get("lang", site.tokens[site.languages[0]])), None)
            if lang and "page" not in params:
                model = model_at(site.home_url(lang))
        if model is None and query and site.layout != "query":
            # Static servers ignore query strings they do not use.
            model = model_at(f"http://{host}{path}")
        if model is None and path == "/" and host == site.host and site.root_redirect():
            return redirect(site.root_redirect(), status=302)
        if model is None and not path.endswith("/") and model_at(f"http://{host}{path}/") is not None:
            return redirect(f"http://{host}{path}/", status=301)   # /sr → /sr/, as web servers do
        if model is None and path == "/index.html":
            model = model_at(f"http://{host}/")
        if model is None:
            return error_page(404, f"no page {path} on {host}")
        return html_response(page_models.render(self.seed, model))

    # ---- backlinks ---------------------------------------------------------------------
    def _build_backlinks(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        by_url: dict[str, set[str]] = {}
        by_host: dict[str, set[str]] = {}
        for site in self.sites:
            sources = list(self.site_pages(site).values())
            if site.kind == SPECIAL:
                home = f"http://{site.host}/"
                sources = [PageModel(url=home, lang="sr-latn", body_lang="sr-latn", html_lang="sr",
                                     text_key="", pool=("en",),
                                     related=[(u, "") for u in _hrefs(special_home(site.host))])]
            for model in sources:
                source_host = urlsplit(model.url).hostname
                for link in model.links():
                    by_url.setdefault(url_key(link), set()).add(model.url)
                    target_host = urlsplit(link).hostname or ""
                    if target_host != source_host:
                        by_host.setdefault(target_host, set()).add(model.url)
        return ({k: sorted(v) for k, v in by_url.items()},
                {k: sorted(v) for k, v in by_host.items()})

    def backlinks(self, url: str) -> list[str]:
        """Pages linking to `url`. A site root (http://host/ with no query) means the whole
        host: every page on another host that links to any page of that host."""
        with self._backlink_lock:  # built once, on the first question
            if self._backlinks is None:
                self._backlinks, self._host_backlinks = self._build_backlinks()
        parts = urlsplit(url)
        if parts.path in ("", "/") and not parts.query:
            return list(self._host_backlinks.get((parts.hostname or "").lower(), []))
        return list(self._backlinks.get(url_key(url), []))

    def _backlink_response(self, query: str) -> Response:
        params = dict(parse_qsl(query, keep_blank_values=True))
        target = params.get("url") or (f"http://{params['host']}/" if params.get("host") else "")
        if not target or not target.lower().startswith("http://"):
            body = json.dumps({"error": "pass ?url=<urlencoded http:// URL> or ?host=<host>"})
            return text_response(body.encode(), "application/json", status=400)
        found = self.backlinks(target)
        parts = urlsplit(target)
        scope = "host" if parts.path in ("", "/") and not parts.query else "url"
        body = json.dumps({"url": target, "scope": scope, "total": len(found), "backlinks": found})
        return text_response(body.encode("utf-8"), "application/json")

    # ---- truth and real sites ----------------------------------------------------------
    def truth(self) -> dict:
        from .truth import build_truth
        return build_truth(self)

    def with_real_sites(self, directory: str | Path) -> "TestWeb":
        """A copy of this web that also serves the real sites under `directory`."""
        clone = copy.copy(self)
        clone.real_sites = RealSites(directory)
        return clone


def _site_plan(site: SiteSpec) -> list[tuple[str, str, str]]:
    """(kind, language, slug) of every finite page of a generated content site, in page order."""
    if site.kind in (DIRECTORY, SPECIAL):
        return []
    plan = [("content", lang, slug) for lang in site.languages for slug in site.slugs if site.has_page(lang, slug)]
    if site.links_page:
        plan.append(("links", "", ""))
    if site.robots == "disallow":
        plan.append(("private", "", ""))
    return plan


def _page_url(site: SiteSpec, page: tuple[str, str, str]) -> str:
    kind, lang, slug = page
    if kind == "links":
        return f"http://{site.host}{page_models.LINKS_PAGE_PATH[site.languages[0]]}"
    if kind == "private":
        return f"http://{site.host}{page_models.PRIVATE_PATH}"
    return site.url(lang, slug)


def _hrefs(body: bytes) -> list[str]:
    return re.findall(r'href="([^"]+)"', body.decode("utf-8"))


def generate_web(seed: int = 1, size: int = 40, pages_per_site: int = 12, *,
                 slow_delay_s: float = DEFAULT_SLOW_DELAY_S,
                 oversized_bytes: int = DEFAULT_OVERSIZED_BYTES, judging_cases: bool = False,
                 size_distribution: str = UNIFORM) -> TestWeb:
    """Plan a test web of `size` sites with `pages_per_site` pages per language each.

    With size >= 16 every kind of site is present (see sites._kind_sequence). ``judging_cases``
    adds pages wrong in each of Pupsniffer's error categories and a script-injection pair
    (judging_cases.py), listed in the truth under "judging_cases". ``size_distribution=
    "heavy-tailed"`` draws site sizes as on the real web, ``pages_per_site`` being the largest
    site's slugs, and about 12 % of the sites bilingual (heavy_tail.py)."""
    return TestWeb(seed, size, pages_per_site, slow_delay_s=slow_delay_s,
                   oversized_bytes=oversized_bytes, judging_cases=judging_cases,
                   size_distribution=size_distribution)
