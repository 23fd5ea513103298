"""Speculative link extraction from JavaScript: inline scripts and event attributes.

Real bilingual sites often switch language in JavaScript, so no ``<a href>`` leads to the other
side: ``onclick="window.location.href='/en/'"``, ``<select onchange="location=this.value">``,
``window.location.href = '/index-' + lang + '.html'`` after ``lang = localStorage.getItem('lang') ||
'sr'``. Like Heritrix's JavaScript extractor (ExtractorJS: string literals that look like URIs are
taken as speculative links) this module does not run scripts; it reads their string literals:

- navigation: an assignment to ``location`` / ``location.href`` or a call of ``location.assign``,
  ``location.replace`` or ``window.open`` whose argument is made of string literals joined with
  ``+`` (a variable in between is filled with each language code the script names, so the two
  sides of a language chooser both appear, each with that code as its hreflang);
- path-like literals: a string that looks like a same-site page path (``/en/``, ``sr/index.html``,
  ``about-en.php``), never a script, style or image file.

Everything found here is a guess: callers mark it (link kind ``script``), never follow it to
another site (``same_site_only``), and get at most ``MAX_SCRIPT_LINKS`` per page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from .urls import resolve_link

MAX_SCRIPT_LINKS = 40  # speculative links per page: a script bundle can hold thousands of literals
MAX_SCRIPT_CHARS = 200_000  # characters of inline script read per page
_STRING = r"""'(?:[^'\\\n]|\\.){0,300}'|"(?:[^"\\\n]|\\.){0,300}"|`[^`]{0,300}`"""
_TERM = rf"(?:{_STRING}|[A-Za-z_$][\w$.]*(?:\([^()]{{0,80}}\))?)"
_EXPRESSION = rf"{_TERM}(?:\s*\+\s*{_TERM}){{0,6}}"
_NAVIGATION = re.compile(
    rf"""(?:\b(?:window|document|top|self|parent)\s*\.\s*)?\blocation(?:\s*\.\s*href)?\s*=(?!=)\s*(?P<a>{_EXPRESSION})"""
    rf"""|\blocation\s*\.\s*(?:assign|replace)\s*\(\s*(?P<b>{_EXPRESSION})"""
    rf"""|\bwindow\s*\.\s*open\s*\(\s*(?P<c>{_EXPRESSION})""")
_TERM_RE = re.compile(_TERM)
_LITERAL = re.compile(_STRING)
_LANGUAGE_CODE = re.compile(r"^[a-z]{2}(?:[-_](?:[a-z]{2}|latn|cyrl))?$", re.IGNORECASE)
_TEMPLATE_SLOT = re.compile(r"\$\{[^}]{1,40}\}")
_PAGE_PATH = re.compile(
    r"""^(?:\.{0,2}/)?(?:[\w\-.~%]+/)*[\w\-.~%]+\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)(?:[?#][^\s'"<>]*)?$"""
    r"""|^/(?:[\w\-.~%]+/)*(?:[\w\-.~%]+)?/?(?:\?[\w\-.~%=&;]*)?$""",
    re.IGNORECASE)
_PAGE_FILE = re.compile(r"\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)$", re.IGNORECASE)
_LANGUAGE_PARAMETER = re.compile(r"(?:^|&)(?:lang|language|lng|locale|hl|jezik|pismo)=$", re.IGNORECASE)
_NOT_PAGES = re.compile(r"\.(?:js|mjs|css|json|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|eot|map|mp4|mp3|pdf|xml|txt)"
                        r"(?:[?#].*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class ScriptLink:
    url: str  # absolute
    how: str  # "navigation" or "literal"
    hreflang: str = ""  # the language code a variable was filled with


def _literal_value(token: str) -> str | None:
    if token[:1] in "'\"`" and token[-1:] == token[:1] and len(token) >= 2:
        return token[1:-1].replace("\\/", "/")
    return None


def language_codes(code: str) -> list[str]:
    """Language codes named as string literals in a script (``'sr'``, ``"en"``, ``'sr-Latn'``), in order."""
    found = []
    for match in _LITERAL.finditer(code):
        value = _literal_value(match.group(0))
        if value and _LANGUAGE_CODE.match(value) and value.lower() not in found:
            found.append(value.lower())
    return found


def _expansions(expression: str, codes: list[str]) -> list[tuple[str, str]]:
    """(URL text, code) for a concatenation: literals kept, each non-literal term filled with a code."""
    terms = [m.group(0) for m in _TERM_RE.finditer(expression)]
    values = [_literal_value(t) for t in terms]
    if not terms or values[0] is None and len(terms) == 1:
        return []
    if all(v is not None for v in values) and not any(_TEMPLATE_SLOT.search(v) for v in values):
        return [("".join(values), "")]
    page = fixed_page(_fixed_prefix(values))
    if page:
        return [(page, "")]
    out = []
    for code in codes:
        parts = [_TEMPLATE_SLOT.sub(code, v) if v is not None else code for v in values]
        out.append(("".join(parts), code))
    return out


def _fixed_prefix(values: list[str | None]) -> str:
    """The literal text of a built URL before its first variable part (a term or a ``${}`` slot)."""
    prefix = []
    for value in values:
        if value is None:
            break
        slot = _TEMPLATE_SLOT.search(value)
        prefix.append(value[:slot.start()] if slot else value)
        if slot:
            break
    return "".join(prefix)


def fixed_page(prefix: str) -> str | None:
    """The page a URL built at run time names whatever its variable part, when that part only fills
    the query: ``'x.html?id=' + id`` and `` `x.html${query}` `` name x.html. None when the variable
    part is in the path (``'/index-' + lang + '.html'``) or fills a language parameter
    (``'?lang=' + code``): those are filled with the script's language codes instead."""
    path, question_mark, query = prefix.partition("?")
    if question_mark:
        return None if not path or _LANGUAGE_PARAMETER.search(query) else path
    return prefix if _PAGE_FILE.search(prefix) else None


def same_site(url: str, base: str) -> bool:
    """Both URLs on one host, ``www.`` or not."""
    host, base_host = urlsplit(url).hostname or "", urlsplit(base).hostname or ""
    return host.removeprefix("www.") == base_host.removeprefix("www.")


def looks_like_page_path(value: str) -> bool:
    """A relative or absolute path of a page (``/en/``, ``sr/index.html``, ``about-en.php``), never of a
    script, style sheet, image or other asset."""
    return (len(value) >= 2 and not value.startswith("//") and not _NOT_PAGES.search(value)
            and bool(_PAGE_PATH.match(value)))


def navigation_targets(code: str, base: str, codes: list[str] | None = None, *,
                       same_site_only: bool = True) -> list[ScriptLink]:
    """Where a script or event handler navigates to, in order, without repeats. An event handler
    on a button is an explicit link (``same_site_only=False``); a site's scripts are guesses."""
    codes = language_codes(code) if codes is None else codes
    found: dict[str, ScriptLink] = {}
    for match in _NAVIGATION.finditer(code[:MAX_SCRIPT_CHARS]):
        expression = match.group("a") or match.group("b") or match.group("c")
        for text, code_used in _expansions(expression, codes):
            url = _resolve(text, base, same_site_only)
            if url and url not in found:
                found[url] = ScriptLink(url, "navigation", code_used)
    return list(found.values())


def _resolve(text: str, base: str, same_site_only: bool = True) -> str | None:
    text = text.strip()
    if not text or text.startswith(("#", "javascript:", "mailto:", "tel:", "data:")) or "${" in text:
        return None
    url = resolve_link(base, text)
    return url if url and (not same_site_only or same_site(url, base)) else None


def path_literals(code: str, base: str) -> list[ScriptLink]:
    """String literals that look like same-site page paths (Heritrix-style speculative links)."""
    found: dict[str, ScriptLink] = {}
    code = code[:MAX_SCRIPT_CHARS]
    for match in _LITERAL.finditer(code):
        value = _literal_value(match.group(0))
        if _in_concatenation(code, match.start(), match.end()):
            # a piece of a URL built at run time ('/index-' + lang): navigation_targets reads those; but
            # a page path closing a concatenation names a page below what precedes it: the site's root
            # (location.origin + "/en/about.html") or the folder of the page the script runs in
            # (path.join("/") + "/rs/index.html"); both are guessed
            value = _closing_page_path(code, match.start(), match.end(), value)
            for url in ((_resolve(value, base), _resolve(value.lstrip("/"), base)) if value else ()):
                if url and url not in found:
                    found[url] = ScriptLink(url, "literal")
            continue
        if value and _TEMPLATE_SLOT.search(value):  # `kartica.html${query}`: the page, if the slot fills a query
            value = fixed_page(_fixed_prefix([value]))
        if not value or len(value) < 2 or value.startswith("//") or _NOT_PAGES.search(value):
            continue
        if not looks_like_page_path(value) and not (value.startswith(("http://", "https://")) and "." in value):
            continue
        url = _resolve(value, base)
        if url and url not in found:
            found[url] = ScriptLink(url, "literal")
    return list(found.values())


def _closing_page_path(code: str, start: int, end: int, value: str | None) -> str | None:
    """``value`` when it is the last term of a concatenation and a path to a page file (``"/rs/index.html"``
    in ``path.join("/") + "/rs/index.html"``), else None."""
    closes = _after_plus(code, start) and not _before_plus(code, end)
    if not closes or not value or not value.startswith("/") or value.startswith("//"):
        return None
    return value if _PAGE_FILE.search(value) and looks_like_page_path(value) else None


def _after_plus(code: str, start: int) -> bool:
    return code[max(0, start - 20):start].rstrip().endswith("+")


def _before_plus(code: str, end: int) -> bool:
    return code[end:end + 20].lstrip().startswith("+")


def _in_concatenation(code: str, start: int, end: int) -> bool:
    return _after_plus(code, start) or _before_plus(code, end)


def script_links(scripts: list[str], base: str, limit: int = MAX_SCRIPT_LINKS) -> list[ScriptLink]:
    """Navigation targets first, then path-like literals, of a page's inline scripts; at most ``limit``."""
    code = "\n".join(scripts)[:MAX_SCRIPT_CHARS]
    links: dict[str, ScriptLink] = {}
    for link in navigation_targets(code, base) + path_literals(code, base):
        links.setdefault(link.url, link)
    return list(links.values())[:limit]


# External scripts (<script src>) of the site's own: a page whose language switch or menu is built by
# js/main.js names its pages only there. Libraries never do, and every site loads the same ones.
MAX_PAGE_SCRIPTS = 5  # own external scripts followed per page
_LIBRARY = re.compile(
    r"(?:^|[/._-])(?:jquery|bootstrap|popper|holder|swiper|aos|isotope|glightbox|lightbox|slick|owl|wow|gsap|"
    r"three|react|vue|angular|lodash|moment|chart|d3|leaflet|mapbox|gtag|analytics|gtm|recaptcha|polyfill|"
    r"modernizr|fontawesome|validate|jspdf|html2canvas|pdfmake|typed|particles|scrollreveal|fancybox|"
    r"magnific|masonry|imagesloaded|waypoints|counterup|easing|parallax|vendor|vendors|node_modules|libs?|"
    r"plugins?|cdn|dist|min|bundle|chunk|runtime|webpack|polyfills)\d*(?:[/._-]|$)", re.IGNORECASE)  # jquery1.11.0.js
_ASSET_FOLDERS = frozenset({"js", "javascript", "javascripts", "script", "scripts", "assets", "static", "src"})


def is_script_url(url: str) -> bool:
    """A URL whose path is a script file (.js, .mjs): only a page's own scripts become such Targets."""
    return urlsplit(url).path.lower().endswith((".js", ".mjs"))


def own_script(url: str) -> bool:
    """A same-site script worth reading for links: a .js file whose path names no known library or
    bundle (jquery.min.js, assets/vendor/…, main.bundle.js are skipped)."""
    return is_script_url(url) and not _LIBRARY.search(urlsplit(url).path)


def script_base(script_url: str) -> str:
    """The URL a script's relative page paths are read against. A script runs in the page that loads
    it, so its 'about-sr.html' is the page's neighbour, not the script's: a script kept in an asset
    folder (/assets/js/sr.js, /js/gallery/slides.js) is taken to serve the pages above that folder;
    one kept beside the pages (/sr/menu.js) serves its own folder."""
    parts = urlsplit(script_url)
    folders = parts.path.split("/")[1:-1]
    lowered = [folder.lower() for folder in folders]
    first_asset = next((i for i, folder in enumerate(lowered) if folder in _ASSET_FOLDERS), len(folders))
    folders = folders[:first_asset]
    path = "/" + "".join(f"{folder}/" for folder in folders)
    return parts._replace(path=path, query="", fragment="").geturl()


def script_file_links(code: str, script_url: str, limit: int = MAX_SCRIPT_LINKS, *,
                      loaded_by: str | None = None) -> list[ScriptLink]:
    """Speculative links of an external script, read like an inline one from the pages it serves: from
    ``loaded_by``, the page that linked it, when it is known and on the script's host (a browser reads a
    script's 'slika1.html' against the page that runs it: /js/gallery.js loaded by /srb/index.html names
    /srb/slika1.html), else from the folder script_base guesses."""
    base = script_base(script_url)
    if loaded_by and urlsplit(loaded_by).netloc == urlsplit(script_url).netloc:
        base = loaded_by
    return script_links([code], base, limit)
