"""HTML parsing into a structured record (Combine section 4.2: title, headings, metadata, plain text,
links with anchor text) plus the five link contexts of Barbosa et al. (URL, anchor text, text around the
link, image alt, image src) that the link classifiers use.

One pass over the lxml tree in document order builds the visible text and, for every link, where its
anchor text starts and ends in the page's word stream, so text_before/text_after are the window_words
words either side of the anchor in reading order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.etree
import lxml.html

from .formlinks import submitter_target
from .fragments import INCLUDE_ATTRIBUTES, include_links
from .page_chrome import is_body, is_chrome
from .paramlinks import param_links, static_page_itself
from .scriptlinks import (MAX_PAGE_SCRIPTS, MAX_SCRIPT_CHARS, MAX_SCRIPT_LINKS, handler_page_arguments,
                          language_codes, navigation_targets, own_script, same_site, script_links)
from .urls import resolve_link

SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "title", "svg", "math", "object",
                       "iframe", "select", "option", "textarea"})
BLOCK_TAGS = frozenset("""
    address article aside blockquote body br caption center dd details dialog dir div dl dt fieldset figcaption
    figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main menu nav ol p pre
    section summary table tbody td tfoot th thead tr ul button
""".split())
_REFRESH_URL = re.compile(r"""url\s*=\s*['"]?([^'";]+)""", re.IGNORECASE)
_TEXT_URL = re.compile(r"""\b(?:https?://|www\.)[^\s<>"'`{}|\\^\[\]]+""", re.IGNORECASE)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# Links kept per page, in document order: a page of a million links must not hold a million records
# (no real page needs more; the rest are counted in ParsedPage.links_dropped).
MAX_LINKS_PER_PAGE = 5000


@dataclass
class ParsedLink:
    url: str  # absolute, as linked (fragment kept)
    # "a", "area", "alternate", "canonical", "frame", "refresh"; "onclick": a click target written in the
    # markup (an event handler's navigation, a <select> chooser's options, data-href, the submit button
    # of a form that only navigates: crawler.formlinks); "script": a
    # speculative link read from an inline script (crawler.scriptlinks; rel says how: "navigation",
    # "script-markup", "script-built", or "" for a path-like literal), same site only; "param": a
    # speculative link to a page named in another link's query (crawler.paramlinks), same site only;
    # "script-src": the site's own external script (crawler.scriptlinks.own_script), read for links like
    # an inline one once fetched, same site only
    kind: str
    anchor_text: str = ""
    text_before: str = ""
    text_after: str = ""
    img_alt: str = ""
    img_src: str = ""
    rel: str = ""
    hreflang: str = ""
    title: str = ""  # the title attribute: switchers often say "English" only there


@dataclass
class ParsedPage:
    url: str
    base_url: str  # after <base href>
    title: str = ""
    headings: list[str] = field(default_factory=list)
    meta_keywords: list[str] = field(default_factory=list)
    meta_description: str = ""
    lang: str = ""  # <html lang> (or xml:lang, or Content-Language meta), lower-case, as declared
    og_locale: str = ""  # <meta property="og:locale">, lower-case, as declared
    text: str = ""
    # the visible text outside the template's parts (page_chrome: navigation, page header and footer,
    # sidebars, cookie notices), line by line like text: what the page's language is read from
    main_text: str = ""
    # the part of main_text inside the elements that mark a page's body (<main>, <article>, role=main);
    # "" when the page marks none
    body_text: str = ""
    canonical_url: str | None = None
    links: list[ParsedLink] = field(default_factory=list)
    links_dropped: int = 0  # links beyond MAX_LINKS_PER_PAGE, not kept
    # a <script> element or an event handler: without either, a browser shows what the HTML says and
    # rendering the page can find nothing more (frontier.classifiers.render_hints)
    runs_scripts: bool = False


def _norm(text: str) -> str:
    return " ".join(text.split())


def _attr(el, name: str) -> str:
    return (el.get(name) or "").strip()


class _Walker:
    """Collects visible text as lines and words, and link records with their word spans."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.lines: list[str] = []
        self.buffer: list[str] = []
        self.main_lines: list[str] = []
        self.main_buffer: list[str] = []  # the buffer's chunks outside the page's chrome
        self.chrome: list = []  # open chrome elements (page_chrome), outermost first
        self.body_lines: list[str] = []
        self.body_buffer: list[str] = []  # the main buffer's chunks inside the page's marked body
        self.body: list = []  # open elements marking the page's body (page_chrome.is_body), outermost first
        self.words: list[str] = []
        self.links: list[tuple[ParsedLink, int, int]] = []  # link, first word index, end word index
        self.open_anchors: list[tuple[ParsedLink, int, list[str], object]] = []
        self.scripts: list[str] = []  # inline script code, read for speculative links
        self.script_chars = 0
        self.extra: list[ParsedLink] = []  # links with no place in the text flow
        self.script_sources = 0  # the site's own external scripts to read, at most MAX_PAGE_SCRIPTS
        self.includes: list[str] = []  # files a script loads into an element (crawler.fragments)
        self.handlers: list[str] = []  # event handlers' code, read for language codes when the page includes files
        self.handler_chars = 0
        self.link_count = 0  # links kept so far, of every kind (admit_link)
        self.dropped = 0

    def add_script(self, code: str | None) -> None:
        if code and self.script_chars < MAX_SCRIPT_CHARS:
            self.scripts.append(code)
            self.script_chars += len(code)

    def add_handler(self, code: str) -> None:
        if self.handler_chars < MAX_SCRIPT_CHARS:
            self.handlers.append(code)
            self.handler_chars += len(code)

    def add_text(self, text: str | None) -> None:
        if not text:
            return
        self.buffer.append(text)
        if not self.chrome:
            self.main_buffer.append(text)
            if self.body:
                self.body_buffer.append(text)
        self.words.extend(text.split())
        for _, _, chunks, _ in self.open_anchors:
            chunks.append(text)

    def break_line(self) -> None:
        for buffer, lines in ((self.buffer, self.lines), (self.main_buffer, self.main_lines),
                              (self.body_buffer, self.body_lines)):
            if buffer:
                line = _norm("".join(buffer))
                if line:
                    lines.append(line)
                buffer.clear()

    def admit_link(self) -> bool:
        """The one cap on the links a page keeps, whatever carries them: a hostile page may hold millions."""
        if self.link_count >= MAX_LINKS_PER_PAGE:
            self.dropped += 1
            return False
        self.link_count += 1
        return True

    def open_link(self, link: ParsedLink, el) -> bool:
        """A link whose anchor text is the element's content, gathered until the element closes."""
        if not self.admit_link():
            return False
        self.open_anchors.append((link, len(self.words), [], el))
        return True

    def add_extra(self, link: ParsedLink) -> None:
        """A link with no place in the text flow (<link>, frames, refresh, a chooser's options)."""
        if self.admit_link():
            self.extra.append(link)

    def close_link(self, el) -> None:
        # every link the element opened (a handler can lead to several pages) ends with it
        closed = []
        for i in range(len(self.open_anchors) - 1, -1, -1):
            link, start, chunks, owner = self.open_anchors[i]
            if owner is el:
                del self.open_anchors[i]
                if not link.anchor_text:
                    link.anchor_text = _norm("".join(chunks))
                closed.append((link, start, len(self.words)))
        self.links.extend(reversed(closed))

    def note_image(self, el) -> None:
        for link, _, _, _ in self.open_anchors:
            if link.kind in ("a", "onclick") and not link.img_src and not link.img_alt:
                link.img_alt = _norm(_attr(el, "alt"))
                src = resolve_link(self.base_url, _attr(el, "src"))
                link.img_src = src or ""


_EVENT_ATTRIBUTES = ("onclick", "onchange", "onmousedown", "onmouseup", "ontouchstart", "onkeypress")
_DATA_TARGETS = ("data-href", "data-url", "data-link", "data-target-url")
_READS_OWN_VALUE = ("this.value", "options[", "selectedindex", ".value")


def _click_targets(el, base_url: str) -> list[str]:
    """Pages an element's event handlers, data-href attributes or navigating form lead to (explicit, any site)."""
    targets = []
    submitted = submitter_target(el, base_url)
    if submitted:
        targets.append(submitted)
    for name in _EVENT_ATTRIBUTES:
        code = el.get(name)
        if code:
            targets += [link.url for link in navigation_targets(code, base_url, codes=[], same_site_only=False)]
            targets += handler_page_arguments(code, base_url)
    for name in _DATA_TARGETS:
        url = resolve_link(base_url, el.get(name))
        if url:
            targets.append(url)
    return list(dict.fromkeys(targets))


def _chooser_options(el, base_url: str) -> list[ParsedLink]:
    """``<select onchange="location = this.value">``: every option is a link, its text the anchor."""
    code = (el.get("onchange") or "").lower()
    if "location" not in code and "window.open" not in code or not any(m in code for m in _READS_OWN_VALUE):
        return []
    links = []
    for option in el.iter("option"):
        url = resolve_link(base_url, option.get("value"))
        if url:
            links.append(ParsedLink(url=url, kind="onclick", anchor_text=_norm(option.text_content()),
                                    hreflang=(_attr(option, "lang") or _attr(option, "data-lang")).lower(),
                                    title=_norm(_attr(option, "title"))))
    return links


def _parse_tree(html: str):
    html = _XML_DECL.sub("", html, count=1)  # lxml refuses str input that carries an encoding declaration
    if not html.strip():
        return None
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, recover=True)
    try:
        return lxml.html.document_fromstring(html, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        return None


def parse_html(html: str, base_url: str, *, window_words: int = 10, links_against: str | None = None) -> ParsedPage:
    """Parse one HTML document; never raises on broken or truncated markup. ``links_against``: the
    URL its relative links are read against instead of its own (a fragment inserted into that page:
    crawler.fragments); a ``<base href>`` still wins."""
    page = ParsedPage(url=base_url, base_url=links_against or base_url)
    root = _parse_tree(html)
    if root is None:
        return page
    base_el = root.find(".//base[@href]")
    if base_el is not None:
        page.base_url = resolve_link(base_url, base_el.get("href")) or base_url
    base = page.base_url

    title_el = root.find(".//title")
    if title_el is not None:
        page.title = _norm(title_el.text_content())
    page.lang = (_attr(root, "lang") or _attr(root, "{http://www.w3.org/XML/1998/namespace}lang")).lower()
    for meta in root.iter("meta"):
        name = (_attr(meta, "name") or _attr(meta, "http-equiv")).lower()
        content = _attr(meta, "content")
        if name == "keywords":
            page.meta_keywords.extend(k for k in (_norm(x) for x in content.split(",")) if k)
        elif name == "description" and not page.meta_description:
            page.meta_description = _norm(content)
        elif name == "content-language" and not page.lang:
            page.lang = content.split(",", 1)[0].strip().lower()
        elif not name and _attr(meta, "property").lower() == "og:locale" and not page.og_locale:
            page.og_locale = content.lower()

    walker = _Walker(base)
    walk = lxml.etree.iterwalk(root, events=("start", "end"))
    for event, el in walk:
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if tag in BLOCK_TAGS:
                walker.break_line()
            if not walker.chrome and tag and is_chrome(tag, el):
                walker.chrome.append(el)
            if tag and is_body(tag, el):
                walker.body.append(el)
            if tag in ("h1", "h2", "h3"):
                heading = _norm(el.text_content())
                if heading:
                    page.headings.append(heading)
            _start_element(tag, el, walker, page, base)
            if tag in SKIP_TAGS:
                walk.skip_subtree()
            else:
                walker.add_text(el.text)
        else:
            walker.close_link(el)
            if walker.chrome and walker.chrome[-1] is el:
                walker.chrome.pop()
            if walker.body and walker.body[-1] is el:
                walker.body.pop()
            if tag in BLOCK_TAGS:
                walker.break_line()
            walker.add_text(el.tail)
    walker.break_line()
    while walker.open_anchors:  # truncated documents can leave anchors open
        walker.close_link(walker.open_anchors[-1][3])

    page.text = "\n".join(walker.lines)
    page.main_text = "\n".join(walker.main_lines)
    page.body_text = "\n".join(walker.body_lines)
    words = walker.words
    for link, start, end in sorted(walker.links, key=lambda item: (item[1], item[2])):
        link.text_before = " ".join(words[max(0, start - window_words):start])
        link.text_after = " ".join(words[end:end + window_words])
        page.links.append(link)
    page.links.extend(walker.extra)
    page.links.extend(link for link in _parameter_links(page.links, base_url) if walker.admit_link())
    # speculative links from the page's inline scripts: their own bound, and the page's one cap too
    page.links.extend(ParsedLink(url=found.url, kind="script", hreflang=found.hreflang, rel=SCRIPT_LINK_REL[found.how])
                      for found in script_links(walker.scripts, base, MAX_SCRIPT_LINKS) if walker.admit_link())
    if walker.includes:  # the fragments a script fills the page with, in each language folder the page names
        codes = language_codes("\n".join(walker.handlers + walker.scripts))[:MAX_SCRIPT_LINKS]
        page.links.extend(ParsedLink(url=url, kind="script", hreflang=code, rel="script-include")
                          for url, code in include_links(walker.includes, codes, base, MAX_SCRIPT_LINKS)
                          if same_site(url, base) and walker.admit_link())
    page.links_dropped = walker.dropped
    return page


# how a script link was read, kept in its rel so link scoring and analysis can tell the guesses apart: a
# navigation the script performs, an href it writes, a page path it builds from its own data; a bare
# path-like literal keeps the empty rel it always had
SCRIPT_LINK_REL = {"navigation": "navigation", "markup": "script-markup", "built": "script-built", "literal": ""}


_CARRYING_KINDS = ("a", "area", "onclick", "frame", "refresh")


def _parameter_links(links: list[ParsedLink], page_url: str) -> list[ParsedLink]:
    """Pages named in the query of the page's links (``login.html?redirect=sfured.html``), kind "param",
    with the carrying link's anchor and image: a guess (crawler.paramlinks), at most MAX_SCRIPT_LINKS.
    A same-site static page linked with a query that names no page (``prikaz.html?iznos=30``) is also
    guessed without it (crawler.paramlinks.static_page_itself)."""
    linked = {link.url for link in links} | {page_url}
    found: list[ParsedLink] = []
    for link in links:
        if link.kind not in _CARRYING_KINDS:
            continue
        named = param_links(link.url)
        itself = None if named else static_page_itself(link.url)
        for url in named + ([itself] if itself and same_site(itself, page_url) else []):
            if url not in linked and len(found) < MAX_SCRIPT_LINKS:
                linked.add(url)
                found.append(ParsedLink(url=url, kind="param", anchor_text=link.anchor_text, title=link.title,
                                        text_before=link.text_before, text_after=link.text_after,
                                        img_alt=link.img_alt, img_src=link.img_src))
    return found


def _start_element(tag: str, el, walker: _Walker, page: ParsedPage, base: str) -> None:
    if not page.runs_scripts and (tag == "script" or any(str(name).lower().startswith("on") for name in el.keys())):
        page.runs_scripts = True
    for name in INCLUDE_ATTRIBUTES:  # a hostile page's millions of them: the first few are kept
        if el.get(name) and len(walker.includes) < MAX_SCRIPT_LINKS:
            walker.includes.append(el.get(name))
    for name in _EVENT_ATTRIBUTES:
        if el.get(name):
            walker.add_handler(el.get(name))
    if walker.link_count >= MAX_LINKS_PER_PAGE and tag in ("a", "area", "link", "frame", "iframe", "meta", "select"):
        walker.dropped += 1  # past the cap: skip resolving what would be dropped anyway
        return
    if tag == "a":
        url = resolve_link(base, el.get("href"))
        if url:
            hreflang = _attr(el, "hreflang") or _attr(el, "data-lang") or _attr(el, "lang")
            walker.open_link(ParsedLink(url=url, kind="a", rel=_attr(el, "rel").lower(),
                                        hreflang=hreflang.lower(), title=_norm(_attr(el, "title"))), el)
    elif tag == "area":
        url = resolve_link(base, el.get("href"))
        if url:
            walker.add_extra(ParsedLink(url=url, kind="area", anchor_text=_norm(_attr(el, "alt")),
                                    rel=_attr(el, "rel").lower(), hreflang=_attr(el, "hreflang").lower(),
                                    title=_norm(_attr(el, "title"))))
    elif tag == "link":
        rel = _attr(el, "rel").lower()
        url = resolve_link(base, el.get("href"))
        if url and "canonical" in rel.split():
            page.canonical_url = page.canonical_url or url
            walker.add_extra(ParsedLink(url=url, kind="canonical", rel=rel))
        elif url and "alternate" in rel.split() and el.get("hreflang"):
            walker.add_extra(ParsedLink(url=url, kind="alternate", rel=rel, hreflang=_attr(el, "hreflang").lower(),
                                    title=_norm(_attr(el, "title"))))
    elif tag in ("frame", "iframe"):
        url = resolve_link(base, el.get("src"))
        if url:
            walker.add_extra(ParsedLink(url=url, kind="frame", title=_norm(_attr(el, "title"))))
    elif tag == "img":
        walker.note_image(el)
    elif tag == "meta" and _attr(el, "http-equiv").lower() == "refresh":
        m = _REFRESH_URL.search(_attr(el, "content"))
        url = resolve_link(base, m.group(1).strip()) if m else None
        if url:
            walker.add_extra(ParsedLink(url=url, kind="refresh"))
    elif tag == "script" and not el.get("src"):
        walker.add_script(el.text)
    elif tag == "script":  # the site's own external script: read for links once fetched (page_prep)
        url = resolve_link(base, el.get("src"))
        if url and own_script(url) and same_site(url, base) and walker.script_sources < MAX_PAGE_SCRIPTS:
            walker.script_sources += 1
            walker.add_extra(ParsedLink(url=url, kind="script-src"))
    elif tag == "select":
        for link in _chooser_options(el, base):
            walker.add_extra(link)
    if tag != "select":  # a chooser's handler reads its options, done above
        for url in _click_targets(el, base):
            opened = walker.open_link(ParsedLink(url=url, kind="onclick", title=_norm(_attr(el, "title")),
                                                 hreflang=(_attr(el, "data-lang") or _attr(el, "hreflang")).lower()),
                                      el)
            if opened and tag in ("input", "img"):  # no content: the button's value / image's alt is its text
                link = walker.open_anchors[-1][0]
                link.anchor_text = _norm(_attr(el, "value") or _attr(el, "alt"))
                if tag == "img":
                    walker.note_image(el)


def extract_text_urls(text: str, base: str) -> list[str]:
    """URLs written out in plain text (http://, https://, www.), absolute, in order, without repeats."""
    found: list[str] = []
    for match in _TEXT_URL.finditer(text or ""):
        raw = match.group(0).rstrip(".,;:!?)]}'\"»")
        if raw.lower().startswith("www."):
            raw = "http://" + raw
        url = resolve_link(base, raw)
        if url and url not in found:
            found.append(url)
    return found
