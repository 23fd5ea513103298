"""Everything storing needs from a fetched page that is pure computation: no database, no Django.

The crawl step has ``prepare_page`` run in a preparation process (prep_processes.py) or in the
fetch thread right after the fetch, so decoding, parsing, language identification and link
normalization overlap the other fetches' network waits, and the job's own thread only writes
rows (in bulk, see storing.py). Nothing here imports Django: a worker's preparation process
starts before the worker has loaded Django, and never loads it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from crawlweb.crawler.candidates import Candidate
from crawlweb.crawler.charset import decode_response
from crawlweb.crawler.fetch import NOT_HTML, TOO_LARGE, UNEXPECTED, FetchResult, classify_content, content_kind
from crawlweb.crawler.fragments import is_html_fragment
from crawlweb.crawler.htmlparse import SCRIPT_LINK_REL, ParsedLink, ParsedPage, extract_text_urls, parse_html
from crawlweb.crawler.scriptlinks import script_file_links
from crawlweb.crawler.sitemaps import NotASitemap, looks_like_sitemap, parse_sitemap
from crawlweb.crawler.structure import tag_signature
from crawlweb.crawler.urls import InvalidURL, normalize_url, registrable_domain, site_name
from crawlweb.language.dictionaries import MissingDictionary, spell_checker
from crawlweb.language.identify import identify_language
from crawlweb.language.switch_labels import switch_labels
from crawlweb.services.page_language import identify_page_language

log = logging.getLogger(__name__)
WARM_UP_TEXT = "Ovo je kratka rečenica na srpskom jeziku. This is a short English sentence."
# Outcomes that still give a page to store: no error, a body cut at the size cap, a non-HTML document.
PAGE_KEEPING_KINDS = (None, TOO_LARGE, NOT_HTML)
# Canonical links are recorded but not followed: the canonical page is usually linked anyway.
FOLLOWED_LINK_KINDS = ("a", "area", "frame", "alternate", "onclick", "refresh", "text", "script", "param",
                       "sitemap", "sitemap-alternate", "script-src", "rendered")
# Guesses (string literals of scripts, crawler.scriptlinks; pages named in a link's query,
# crawler.paramlinks) and the site's own external scripts: followed inside their site, never off it.
SPECULATIVE_LINK_KINDS = ("script", "param", "script-src")
# Links whose label or hreflang names the language of the page they lead to (a switch, an alternate)
LABELLING_KINDS = ("a", "area", "onclick", "alternate")
KEPT_HEADERS = ("content-type", "content-language", "etag", "last-modified", "server", "location")
# Link context columns and their lengths (crawlweb.models.Link): longer values are cut, never refused.
LINK_CONTEXT_LIMITS = {"anchor_text": 1000, "text_around": 2000, "img_alt": 500, "img_src": 2000,
                       "rel": 100, "hreflang": 32}


@dataclass(frozen=True)
class PageOptions:
    """What preparing a page reads of a crawl's configuration (a CrawlConfig has these too)."""

    session_params: tuple[str, ...]
    host_aliases: Mapping[str, str]
    text_urls: bool = False

    @classmethod
    def of(cls, config) -> "PageOptions":
        return cls(config.session_params, config.host_aliases, config.text_urls)


@dataclass
class PreparedLink:
    """One Link row's values (the page is set when the page row exists) and where it points."""

    values: dict
    target_site: str
    followed: bool
    candidate: Candidate | None = None


@dataclass
class PreparedPage:
    md5: str
    not_html: str | None  # NOT_HTML for documents stored with their type but not parsed
    fields: dict          # Page fields known from the response alone
    parsed: ParsedPage | None = None
    links: list[PreparedLink] = field(default_factory=list)
    # A sitemap (sitemaps.py): the normalized URLs of the sitemaps it names (an index's); None otherwise.
    nested_sitemaps: list[str] | None = None


def keeps_page(result: FetchResult | None) -> bool:
    """A response that becomes a Page (as opposed to an error, a retry, or a 304)."""
    return (result is not None and result.status is not None and result.status < 400
            and result.status != 304 and result.error_kind in PAGE_KEEPING_KINDS)


def prepare_page(result: FetchResult, source_site: str, config: PageOptions, *,
                 window_words: int, loaded_by: str | None = None) -> PreparedPage:
    """Decode, parse, identify the language of, and normalize the links of one fetched page.

    ``config``: PageOptions or a CrawlConfig; ``window_words``: words of text around each link
    (CRAWLER_TEXT_WINDOW_WORDS); ``loaded_by``: for a script, the URL of the page that linked it (its
    relative paths are that page's neighbours); for an html fragment a script names, the page that
    loaded that script (the fragment's links are read against it: crawler.fragments)."""
    not_html = classify_content(result)
    headers = {k: v for k, v in result.headers.items() if k in KEPT_HEADERS}
    page = PreparedPage(md5=hashlib.md5(result.body).hexdigest(), not_html=not_html, fields=dict(
        final_url=result.final_url[:2000], status_code=result.status, content_type=result.content_type[:200],
        size=len(result.body), truncated=result.truncated, headers=headers,
        modified_at=_http_date(result.headers.get("last-modified"))))
    if not_html is None:  # HTML (or plain text): decode, parse, identify the language
        text, charset = decode_response(result.body, result.headers.get("content-type", ""))
        # a fragment a script inserts into the page that loaded it reads its links against that page
        inserted_into = loaded_by if loaded_by and is_html_fragment(text) else None
        parsed = parse_html(text, result.final_url, window_words=window_words, links_against=inserted_into)
        if config.text_urls and content_kind(result) == "text":
            parsed.links.extend(ParsedLink(url=url, kind="text") for url in extract_text_urls(text, result.final_url))
        language, script, language_evidence = identify_page_language(parsed, result.final_url)
        page.parsed = parsed
        page.fields.update(
            charset=charset[:50], title=db_text(parsed.title or "")[:1000], text=db_text(parsed.text),
            headings=parsed.headings[:50], meta_keywords=", ".join(parsed.meta_keywords)[:2000],
            meta_description=(parsed.meta_description or "")[:2000],
            canonical_url=(parsed.canonical_url or "")[:2000], html_lang=(parsed.lang or "")[:32],
            language=language, script=script, language_evidence=language_evidence, runs_scripts=parsed.runs_scripts,
            tag_signature=tag_signature(text))  # STRAND reads it later: the HTML itself is only in WARC files
        page.links = _prepare_links(result, parsed, source_site, config)
        labels = switch_labels((link.values["target_url"], link.values.get("anchor_text", ""),
                                link.values.get("img_alt", ""), link.values.get("hreflang", ""))
                               for link in page.links if link.values["kind"] in LABELLING_KINDS
                               and not link.values["out_of_site"])
        if labels:  # what this page's switch calls its site's other pages (site_variety, source "switch")
            page.fields["language_evidence"] = {**language_evidence, "labels": labels}
        # The links live on as page.links: the parsed copies would only be carried (and, from a
        # preparation process, pickled) for nothing.
        parsed.links = []
    elif content_kind(result) == "script":
        # The site's own external script (a link of kind "script-src"): its string literals are
        # speculative links, read against the page that loaded it (else the pages script_base guesses it serves).
        page.parsed = ParsedPage(url=result.final_url, base_url=result.final_url)
        code, _charset = decode_response(result.body, result.headers.get("content-type", ""))
        page.links = [made for found in script_file_links(code, result.final_url, loaded_by=loaded_by)
                      if (made := prepare_link(found.url, "script", source_site, config, hreflang=found.hreflang,
                                                   rel=SCRIPT_LINK_REL[found.how]))]
    elif looks_like_sitemap(result.body):
        # An empty parse: the crawl's strategy plans Targets from the sitemap's links as from a page's.
        page.parsed = ParsedPage(url=result.final_url, base_url=result.final_url)
        page.links, page.nested_sitemaps = _sitemap_links(result, source_site, config)
    return page


def _sitemap_links(result: FetchResult, source_site: str,
                   config: PageOptions) -> tuple[list[PreparedLink], list[str] | None]:
    """A sitemap's pages and nested sitemaps (kind "sitemap", followed like any link of the site) and
    its hreflang alternates (kind "sitemap-alternate": the alternate's URL, with the declaring page's
    normalized URL in anchor_text, since the declaration is the page's, not the sitemap's); and the
    normalized URLs of the nested sitemaps (None: the document is not a sitemap after all)."""
    try:
        sitemap = parse_sitemap(result.body, result.final_url)
    except NotASitemap as error:
        log.info("%s: %s", result.final_url, error)
        return [], None
    links = [made for url in sitemap.sitemaps if (made := prepare_link(url, "sitemap", source_site, config))]
    nested = [made.values["target_url"] for made in links]
    links += [made for entry in sitemap.pages if (made := prepare_link(entry.url, "sitemap", source_site, config))]
    for entry in sitemap.pages:
        declaring = prepare_link(entry.url, "sitemap", source_site, config)
        for hreflang, url in entry.alternates.items():
            made = prepare_link(url, "sitemap-alternate", source_site, config, hreflang=hreflang,
                                anchor_text=declaring.values["target_url"] if declaring else entry.url)
            if made is not None and made.values["target_url"] != made.values["anchor_text"]:
                links.append(made)
    return links, nested


def _prepare_links(result: FetchResult, parsed: ParsedPage, source_site: str,
                   config: PageOptions) -> list[PreparedLink]:
    links = []
    for _from, hop_to, _status in result.redirects:
        made = prepare_link(hop_to, "redirect", source_site, config)
        if made is not None:
            links.append(made)
    for parsed_link in parsed.links:
        text_around = " ".join(filter(None, [parsed_link.text_before, parsed_link.text_after]))
        made = prepare_link(parsed_link.url, parsed_link.kind, source_site, config,
                            # a switcher drawn as an image or icon often names its language only in its title
                            anchor_text=parsed_link.anchor_text or parsed_link.title or "", text_around=text_around,
                            img_alt=parsed_link.img_alt or "", img_src=parsed_link.img_src or "",
                            rel=parsed_link.rel or "", hreflang=parsed_link.hreflang or "")
        if made is not None:
            links.append(made)
    return links


def prepare_link(url_as_linked: str, kind: str, source_site: str, config: PageOptions,
                 **contexts: str) -> PreparedLink | None:
    """The Link values for a URL seen on a page and the site it points to; None for an invalid URL."""
    try:
        normalized = normalize_url(url_as_linked, session_params=config.session_params,
                                   host_aliases=config.host_aliases)
    except InvalidURL:
        return None
    target_site = site_name(urlsplit(normalized).hostname or "")
    values = dict(target_url=normalized[:2000], url_as_linked=url_as_linked[:2000], kind=kind,
                  out_of_site=target_site != source_site,
                  **{k: db_text(v)[:LINK_CONTEXT_LIMITS[k]] for k, v in contexts.items()})
    followed = kind in FOLLOWED_LINK_KINDS and not (kind in SPECULATIVE_LINK_KINDS and values["out_of_site"])
    candidate = None
    if followed:
        candidate = Candidate(url_as_linked, values.get("anchor_text", ""), values.get("text_around", ""),
                              values.get("img_alt", ""), values.get("img_src", ""), normalized=normalized)
    return PreparedLink(values, target_site, followed, candidate)


def warm_up() -> None:
    """Load once what preparing pages needs (dictionaries, the language model, the suffix list),
    rather than in the first batch, where 16 fetch threads would wait for it. A dictionary of Cyrillic
    words waits for the first Cyrillic page (crawlweb.language.dictionaries.SpellChecker)."""
    for code in ("sr", "en"):
        try:
            spell_checker(code).load("Latn")
        except MissingDictionary as error:  # reported again, clearly, by the job that needs it
            log.warning("%s", error)
    identify_language(WARM_UP_TEXT)
    registrable_domain("www.example.rs")


def db_text(text: str) -> str:
    """PostgreSQL text cannot hold NUL characters; broken pages and robots files do contain them."""
    return text.replace("\x00", "") if "\x00" in text else text


def failed_preparation(result: FetchResult, error: Exception) -> FetchResult:
    """``result`` as a fetch whose page the crawler could not prepare: its Target fails with the reason
    (error kind "unexpected", a bug to report) instead of the whole batch it came with."""
    return dataclasses.replace(
        result, body=b"", exchanges=[], error_kind=UNEXPECTED,
        error=f"crawler error while preparing the page: {type(error).__name__}: {error}"[:2000])


def _http_date(value: str | None):
    """A Last-Modified header as a date in UTC, or None: for a value that is no date, and for one beyond
    the years a date can hold once in UTC (``Mon, 01 Jan 99999999999 …`` overflowed and failed the
    page's whole batch; ``Fri, 31 Dec 9999 23:59:59 -0100`` is year 10000 in UTC, which SQLite's
    column refused and PostgreSQL stored but Python could not read back)."""
    if not value:
        return None
    try:
        date = parsedate_to_datetime(value)
        return (date if date.tzinfo else date.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    except (TypeError, ValueError, OverflowError):
        return None
