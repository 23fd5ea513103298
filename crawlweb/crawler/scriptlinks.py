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
- markup: an ``href`` a script writes (``'<a href="/sr/o-nama">'``, `` `<a href="${item.href}">` ``,
  ``el.href = "…"``), a link whatever its shape, never an asset;
- path-like literals: a string that looks like a same-site page path (``/en/``, ``sr/index.html``,
  ``about-en.php``), never a script, style or image file;
- built paths: a concatenation anywhere (``"../" + (lang == 0 ? "rs" : "en") + "/umetnine/" +
  slike[i].code + ".html"``) whose every variable part takes values the script writes down (a
  conditional's two literals, a property's values: crawler.script_fill), when what it builds is a page path.

Everything found here is a guess: callers mark it (link kind ``script``, its ``how`` in the link's
rel), never follow it to another site (``same_site_only``), and get at most ``MAX_SCRIPT_LINKS`` per page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from urllib.parse import urlsplit

from .jsliterals import LITERAL as _LITERAL
from .jsliterals import STRING as _STRING
from .jsliterals import literal_value as _literal_value
from .script_fill import TERNARY, ScriptValues, markup_targets
from .urls import resolve_link

MAX_SCRIPT_LINKS = 40  # speculative links per page: a script bundle can hold thousands of literals
MAX_SCRIPT_CHARS = 200_000  # characters of inline script read per page
MAX_BUILT_EXPRESSIONS = 100  # concatenations naming a page file read per script for built_paths
MAX_EXPANSIONS = 40  # URLs one built expression may give: its variable parts' values combined
# a term of a concatenation: a literal, a conditional of two literals, or a name, property access or call
_TERM = (rf"(?:{_STRING}|{TERNARY}|"
         r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*|\[[^\[\]\n]{0,30}\])*(?:\([^()]{0,80}\))?)")
_EXPRESSION = rf"{_TERM}(?:\s*\+\s*{_TERM}){{0,6}}"
_NAVIGATION = re.compile(
    rf"""(?:\b(?:window|document|top|self|parent)\s*\.\s*)?\blocation(?:\s*\.\s*href)?\s*=(?!=)\s*(?P<a>{_EXPRESSION})"""
    rf"""|\blocation\s*\.\s*(?:assign|replace)\s*\(\s*(?P<b>{_EXPRESSION})"""
    rf"""|\bwindow\s*\.\s*open\s*\(\s*(?P<c>{_EXPRESSION})""")
_TERM_RE = re.compile(_TERM)
# a concatenation outside navigation: starts at a term's beginning, at least one +
_CONCATENATION = re.compile(rf"(?<![\w$.\])]){_TERM}(?:\s*\+\s*{_TERM}){{1,6}}")
_LANGUAGE_CODE = re.compile(r"^[a-z]{2}(?:[-_](?:[a-z]{2}|latn|cyrl))?$", re.IGNORECASE)
# a code written as a file name's prefix, its separator kept: "en-" in "../HTML/" + lang + "SearchPage.html"
_LANGUAGE_PREFIX = re.compile(r"^[a-z]{2}[-_]$", re.IGNORECASE)
_TEMPLATE_SLOT = re.compile(r"\$\{[^}]{1,60}\}")
_PAGE_PATH = re.compile(
    r"""^(?:\.{0,2}/)?(?:[\w\-.~%]+/)*[\w\-.~%]+\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)(?:[?#][^\s'"<>]*)?$"""
    r"""|^/(?:[\w\-.~%]+/)*(?:[\w\-.~%]+)?/?(?:\?[\w\-.~%=&;]*)?$""",
    re.IGNORECASE)
_PAGE_FILE = re.compile(r"\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)$", re.IGNORECASE)
# the start of a comment: at a line's start or after a space or ; { }
_COMMENT_START = re.compile(r"(?:^|(?<=[\s;{}]))(?://|/\*)", re.MULTILINE)
_HREF_OPENING = re.compile(r"""href\s*=\s*\\?["']['"`]$""", re.IGNORECASE)  # '<a href="' + …
_PAGE_FILE_PART = re.compile(r"\.(?:html?|php\d?|aspx?|jsp|cfm|shtml)\b", re.IGNORECASE)
_LANGUAGE_PARAMETER = re.compile(r"(?:^|&)(?:lang|language|lng|locale|hl|jezik|pismo)=$", re.IGNORECASE)
_NOT_PAGES = re.compile(r"\.(?:js|mjs|css|json|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|eot|map|mp4|mp3|pdf|xml|txt)"
                        r"(?:[?#].*)?$", re.IGNORECASE)


@dataclass(frozen=True)
class ScriptLink:
    url: str  # absolute
    how: str  # "navigation", "markup", "literal" or "built"
    hreflang: str = ""  # the language code a variable was filled with



def language_codes(code: str) -> list[str]:
    """Language codes named as string literals in a script (``'sr'``, ``"en"``, ``'sr-Latn'``), in order;
    a code written as a file name's prefix (``"en-" + pageName.slice(3)``) keeps its separator: ``"en-"``."""
    found = []
    for match in _LITERAL.finditer(code):
        value = _literal_value(match.group(0))
        if value and (_LANGUAGE_CODE.match(value) or _LANGUAGE_PREFIX.match(value)) and value.lower() not in found:
            found.append(value.lower())
    return found


def _fits(code: str, after: list[str] | None) -> bool:
    """Does a language code fit the slot before ``after`` (the next piece's values)? A prefix form
    ("en-") only when a name follows it glued ("SearchPage.html"): "/" + lang + "/index.html" is
    /en/index.html, never /en-/index.html. A plain code fits any slot, as it always did."""
    glued = bool(after) and after[0][:1].isalnum()
    return glued if _LANGUAGE_PREFIX.match(code) else True


def _expansions(expression: str, values_of: ScriptValues) -> list[tuple[str, str]]:
    """(URL text, code) for a concatenation: literals kept; a variable part takes the values the script
    writes for it (a conditional's literals, a property's values), else each language code it names."""
    terms = [m.group(0) for m in _TERM_RE.finditer(expression)]
    values = [_literal_value(t) for t in terms]
    if not terms or values[0] is None and len(terms) == 1 and values_of.values(terms[0]) is None:
        return []
    if all(v is not None for v in values) and not any(_TEMPLATE_SLOT.search(v) for v in values):
        return [("".join(values), "")]
    page = fixed_page(_fixed_prefix(values))
    if page:
        return [(page, "")]
    parts = _variable_parts(terms, values, values_of)
    slots = [i for i, part in enumerate(parts) if part is None]
    out: list[tuple[str, str]] = []
    for code in (values_of.codes if slots else [""]):
        if not all(_fits(code, parts[i + 1] if i + 1 < len(parts) else None) for i in slots):
            continue
        for combination in product(*[[code] if part is None else part for part in parts]):
            out.append(("".join(combination), code.rstrip("-_")))  # the link's language: "en", not "en-"
            if len(out) >= MAX_EXPANSIONS:
                return out
    return out


def _variable_parts(terms: list[str], values: list[str | None], values_of: ScriptValues) -> list[list[str] | None]:
    """Each piece of a built URL as its possible values: a literal's text, a known variable's values, or
    None for a part the language code fills."""
    parts: list[list[str] | None] = []
    for term, value in zip(terms, values):
        if value is None:
            parts.append(values_of.values(term))
            continue
        position = 0
        for slot in _TEMPLATE_SLOT.finditer(value):
            parts.append([value[position:slot.start()]])
            parts.append(values_of.values(slot.group(0)[2:-1]))
            position = slot.end()
        parts.append([value[position:]])
    return parts


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
    code = code[:MAX_SCRIPT_CHARS]
    values_of = ScriptValues(code, language_codes(code) if codes is None else codes)
    found: dict[str, ScriptLink] = {}
    for match in _NAVIGATION.finditer(code):
        expression = match.group("a") or match.group("b") or match.group("c")
        for text, code_used in _expansions(expression, values_of):
            text = _before_outer_code(text)
            url = _resolve(text, base, same_site_only) if text else None
            if url and url not in found:
                found[url] = ScriptLink(url, "navigation", code_used)
    return list(found.values())


_CALL_ARGUMENTS = re.compile(r"[A-Za-z_$][\w$.]*\s*\(([^()]{0,300})\)")


def handler_page_arguments(code: str, base: str) -> list[str]:
    """Same-site pages an event handler passes to a function of the site's script:
    ``onmousedown="changeLanguage(1, 'index_eng.html')"``, ``onclick="promeni_stranicu('index.html',
    'classes.html')"``. The function is the site's own (it navigates, or loads the page into this one),
    so the handler leads to those pages as surely as ``location.href = '…'`` would. Only string literals
    that name a page file (``.html``, ``.php`` …) count, never a bare path, an asset or another site."""
    found: list[str] = []
    for call in _CALL_ARGUMENTS.finditer(code[:MAX_SCRIPT_CHARS]):
        for literal in _LITERAL.finditer(call.group(1)):
            value = (_literal_value(literal.group(0)) or "").strip()
            if not _PAGE_FILE.search(value.split("?", 1)[0].split("#", 1)[0]) or not looks_like_page_path(value):
                continue
            url = _resolve(value, base)
            if url and url not in found:
                found.append(url)
    return found


def _before_outer_code(text: str) -> str | None:
    """The URL a navigation names when its "literal" holds a quote: the call was itself written inside a
    string (``"<button onclick=\\"location.replace('film.html?movie=" + encode(x) + "')\\">"``), so what
    follows the quote is the outer string's code. The page before it stands when only its query was built
    (crawler.scriptlinks.fixed_page); None when the cut falls in the path or a language parameter."""
    cut = min((i for i in (text.find('"'), text.find("'")) if i >= 0), default=-1)
    if cut < 0:
        return text
    return fixed_page(text[:cut])


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


def markup_links(code: str, base: str, values_of: ScriptValues | None = None) -> list[ScriptLink]:
    """The same-site ``href`` values a script writes (markup built as text, ``el.href = …``), template slots
    filled with what the script writes for them; any path but an asset's."""
    code = code[:MAX_SCRIPT_CHARS]
    values_of = values_of or ScriptValues(code, language_codes(code))
    found: dict[str, ScriptLink] = {}
    known_only = _known_values_only(code, values_of)
    for target, code_used in _written_hrefs(code, values_of):
        if target.startswith("+") or target.endswith("+"):
            continue  # "<a href="+this.href+" …": the attribute's value is a concatenation, unquoted
        # a language code fills a slot only beside literal path text (`/${lang}/index.html`): a slot that is
        # the whole href (`${item.url}`) takes the property's values or nothing
        fill = values_of if _TEMPLATE_SLOT.sub("", target) else known_only
        for text, code_used in ([(target, code_used)] if "${" not in target else _expansions(f"`{target}`", fill)):
            if _NOT_PAGES.search(text):
                continue
            url = _resolve(text, base)
            if url and url.startswith(("http://", "https://")) and url not in found:
                found[url] = ScriptLink(url, "markup", code_used)
    return list(found.values())


def _written_hrefs(code: str, values_of: ScriptValues):
    """(href, language code) a script writes: in its literals, and in markup it concatenates
    (``'<a href="' + items[i].url + '">'``), the concatenation filled with what the script writes for it."""
    for target in markup_targets(_without_comments(code)):
        yield target, ""
    known_only = _known_values_only(code, values_of)  # '<a href="' + x + '">' names nothing
    for expression in _page_concatenations(code, _HREF_OPENING):
        for text, code_used in _expansions(expression, known_only):
            for target in markup_targets(text):
                yield target, code_used


def _without_comments(code: str) -> str:
    """The code without the comments that start a line or follow a space (``// <a href="…">`` is a note,
    not markup); ``'http://…'`` and ``'*/*'`` inside strings are kept."""
    kept, position = [], 0
    for start in _COMMENT_START.finditer(code):
        if start.start() < position:
            continue  # inside a comment already left out
        end = code.find("\n" if start.group(0) == "//" else "*/", start.end())
        if end == -1:  # an unclosed comment: the rest is kept (one linear pass, whatever the input)
            break
        kept.append(code[position:start.start()])
        position = end + (0 if start.group(0) == "//" else 2)
    kept.append(code[position:])
    return " ".join(kept)


def _known_values_only(code: str, values_of: ScriptValues | None) -> ScriptValues:
    """The script's values without its language codes: a variable part nothing names gives the URL up."""
    return ScriptValues(code, [], properties=values_of.properties if values_of else None)


def built_paths(code: str, base: str, values_of: ScriptValues | None = None) -> list[ScriptLink]:
    """Page paths a concatenation outside navigation builds (``"../" + (lang == 0 ? "rs" : "en") +
    "/umetnine/" + slike[i].code + ".html"``), only when its every variable part takes values the script
    writes down (a conditional's literals, a property's values): a language code is not guessed here."""
    code = code[:MAX_SCRIPT_CHARS]
    if "+" not in code:
        return []
    known_only = _known_values_only(code, values_of)  # no language fill: an unknown part gives the URL up
    found: dict[str, ScriptLink] = {}
    for expression in _page_concatenations(code):
        for text, _ in _expansions(expression, known_only):
            if not looks_like_page_path(text) or not _PAGE_FILE.search(text.partition("?")[0].partition("#")[0]):
                continue
            url = _resolve(text, base)
            if url and url not in found:
                found[url] = ScriptLink(url, "built")
        if len(found) >= MAX_SCRIPT_LINKS:
            break
    return list(found.values())


def _page_concatenations(code: str, holds=_PAGE_FILE_PART):
    """The concatenations that hold a literal ``holds`` finds (by default one naming a page file, ``".html"``,
    ``"/en/index.php"``: the only ones that can build a page path), found around such literals rather than
    by scanning the code; at most MAX_BUILT_EXPRESSIONS."""
    seen_end, read = -1, 0
    for literal in _LITERAL.finditer(code):
        if read >= MAX_BUILT_EXPRESSIONS:
            return
        if literal.start() < seen_end or not holds.search(literal.group(0)):
            continue
        if not _in_concatenation(code, literal.start(), literal.end()):
            continue
        window_start = max(0, literal.start() - 400)
        for match in _CONCATENATION.finditer(code, window_start, min(len(code), literal.end() + 400)):
            if match.start() <= literal.start() and match.end() >= literal.end():
                seen_end, read = match.end(), read + 1
                yield match.group(0)
                break


def script_links(scripts: list[str], base: str, limit: int = MAX_SCRIPT_LINKS) -> list[ScriptLink]:
    """Navigation targets first, then the hrefs a script writes, path-like literals and built page paths,
    of a page's inline scripts (or one external script's code); at most ``limit``."""
    code = "\n".join(scripts)[:MAX_SCRIPT_CHARS]
    values_of = ScriptValues(code, language_codes(code))
    links: dict[str, ScriptLink] = {}
    for link in (navigation_targets(code, base) + markup_links(code, base, values_of) + path_literals(code, base)
                 + built_paths(code, base, values_of)):
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
