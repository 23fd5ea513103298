"""Method "deep": guess the counterpart URL of a page that has none.

For a page without a counterpart, each of the top-N patterns by global
credibility (Def. 4; N = 10 in the method) rewrites its URL: ⟨tc_chi, en⟩ turns
``…/tc_chi/…`` into ``…/en/…``.  With ε patterns a unit is inserted or removed:
removal takes the unit with one neighbouring separator (``about-sr.html`` →
``about.html``); insertion copies the place and separator seen in the pattern's
example pairs (``-sr`` before the extension, ``sr/`` at the path start, ``en.``
before the host), defaulting to both "-unit before the extension" and
"unit/ at the path start" when no example says.  The guesses are only
guesses: the fetcher checks that the URL exists and is in the expected
language, then calls ``confirm_deep_pair``.

Our addition, dead links (``dead_link_guesses``): a site whose pages are named with a language unit
its own links leave out (a script rewrites ``istorija.html`` into ``istorija_sr.html`` by the visitor's
language) has links that answer 404; each is guessed with the site's units in both languages.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .patterns import GlobalPattern, SitePatterns, top_global_patterns
from .records import DEFAULT_LANGUAGES, CandidatePair, Pattern, base_language, check_languages, pattern_label

TOKEN = re.compile(r"[^/.\-_?&=]+")
EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}(\?.*)?$")


@dataclass(frozen=True)
class DeepGuess:
    page_url: str
    guessed_url: str
    pattern: Pattern
    page_language: str
    expected_language: str
    credibility: float  # global credibility of the pattern (normalized, Def. 4)
    forward: bool  # True when the page is in languages[0] (it becomes the pair's source_url)


def _split(url: str) -> tuple[str, str, str]:
    """(scheme://, host, rest) – rest starts with '/' or is empty."""
    parts = urlsplit(url)
    head = f"{parts.scheme}://"
    netloc = parts.netloc
    rest = url[len(head) + len(netloc):]
    return head, netloc, rest


def _insertion_forms(shorter: str, longer: str) -> list[tuple[str, str]]:
    """Where and what the longer URL inserts into the shorter one, as (kind, text)."""
    extra = len(longer) - len(shorter)
    if extra <= 0:
        return []
    i = 0
    while i < len(shorter) and shorter[i] == longer[i]:
        i += 1
    if longer[i + extra:] != shorter[i:]:
        return []  # not a single insertion
    right = i
    while i > 0 and longer[i - 1] == longer[i - 1 + extra]:
        i -= 1  # slide left: every position in [i, right] gives the same string
    head, host, _ = _split(shorter)
    forms = []
    for p in range(i, right + 1):
        text = longer[p:p + extra]
        after = shorter[p:]
        if p == len(head):
            forms.append(("host_start", text))
        elif p == len(head) + len(host) + 1 and shorter[p - 1] == "/":
            forms.append(("path_start", text))
        elif EXTENSION.fullmatch(after) and "/" not in after:
            forms.append(("before_ext", text))
        elif after == "":
            forms.append(("end", text))
    return forms[:1]


def _insert(url: str, kind: str, text: str) -> str | None:
    head, host, rest = _split(url)
    if kind == "host_start":
        return head + text + host + rest
    if kind == "path_start":
        rest = rest or "/"
        return head + host + "/" + text + rest[1:]
    if kind == "before_ext":
        path, sep, query = rest.partition("?")
        name = path.rsplit("/", 1)[-1]
        match = re.search(r"\.[A-Za-z0-9]{1,5}$", name)
        if not match or match.start() == 0:
            return None
        cut = len(path) - len(name) + match.start()
        return head + host + path[:cut] + text + path[cut:] + sep + query
    if kind == "end":
        return url + text
    return None


def _replace_unit(url: str, unit: str, new: str | None) -> list[str]:
    """Every URL obtained by replacing (or, new=None, removing) one occurrence of unit."""
    head, host, rest = _split(url)
    out = []
    labels = host.split(".")
    for n, label in enumerate(labels[:-2]):  # subdomain labels only
        if label.casefold() == unit:
            new_labels = labels[:n] + ([new] if new else []) + labels[n + 1:]
            out.append(head + ".".join(new_labels) + rest)
    for match in TOKEN.finditer(rest):
        if unquote(match.group()).casefold() != unit:
            continue
        start, end = match.span()
        if new:
            out.append(head + host + rest[:start] + new + rest[end:])
        elif start > 0 and (rest[start - 1] != "/" or end == len(rest) or rest[end] == "/"):
            out.append(head + host + rest[:start - 1] + rest[end:])  # drop "-sr" / "/sr"
        elif end < len(rest):
            out.append(head + host + rest[:start] + rest[end + 1:])  # drop "sr-" / "sr/"
    return out


def apply_pattern(url: str, pattern: Pattern, *, forward: bool = True,
                  examples: Iterable[tuple[str, str]] = ()) -> list[str]:
    """Rewrite a URL with ⟨t, t′⟩: forward = from a languages[0] page to languages[1].

    ``examples`` are (source_url, target_url) pairs the pattern matched; they tell
    where an ε pattern inserts its unit.
    """
    t, t2 = pattern
    old, new = (t, t2) if forward else (t2, t)
    if old:
        return [g for g in dict.fromkeys(_replace_unit(url, old, new or None)) if g != url]
    forms = []
    for src, tgt in examples:
        shorter, longer = (src, tgt) if forward else (tgt, src)
        forms += _insertion_forms(shorter, longer)
    if not forms:
        sep = "-" if new.isalnum() else ""
        forms = [("before_ext", sep + new), ("path_start", new + "/")]
    guesses = [_insert(url, kind, text) for kind, text in dict.fromkeys(forms)]
    return [g for g in dict.fromkeys(guesses) if g and g != url]


def credible_site_patterns(site: SitePatterns, *, threshold: float, min_frequency: int) -> list[GlobalPattern]:
    """The site's own credible patterns (C(k, w) ≥ threshold, p(k, w) ≥ min_frequency), as the
    patterns deep_guesses applies, with the site's pairs as the examples of where a unit goes."""
    return [GlobalPattern(e.pattern, e.local_credibility, e.local_credibility, 1, e.frequency,
                          sorted(e.pairs)[:5])
            for e in site.ranked() if e.local_credibility >= threshold and e.frequency >= min_frequency]


# Language units so common that a guess with them is worth a request on any site, seen in this
# crawl or not (our addition; the method guesses with the top-N global patterns only).  Per
# language; the crawl's pair makes the patterns: (sr, en) gives ⟨sr, en⟩, ⟨rs, en⟩, ⟨lat, en⟩,
# ⟨ε, en⟩ and ⟨sr, ε⟩.
CONVENTIONAL_UNITS: dict[str, tuple[str, ...]] = {"sr": ("sr", "rs", "lat"), "en": ("en",)}


def conventional_patterns(languages=DEFAULT_LANGUAGES) -> list[Pattern]:
    """The globally credible patterns of a language pair: each unit of the first language with
    each of the second's, and each unit against ε (the other side at the site's root)."""
    first, second = check_languages(languages)
    units_a, units_b = CONVENTIONAL_UNITS.get(first, (first,)), CONVENTIONAL_UNITS.get(second, (second,))
    out = [(a, b) for a in units_a for b in units_b]
    out += [("", b) for b in units_b] + [(units_a[0], "")]
    return list(dict.fromkeys(out))


def deep_guesses(pages: Mapping[str, str], paired_urls: Iterable[str],
                 global_patterns: Mapping[Pattern, GlobalPattern], *, top_n: int = 10,
                 languages=DEFAULT_LANGUAGES, site_patterns: Iterable[GlobalPattern] = (),
                 conventions: Iterable[Pattern] = ()) -> list[DeepGuess]:
    """Guesses for pages (url → language) of the pair's languages with no counterpart yet.

    Patterns, most trusted first: ``site_patterns`` (the site's own credible patterns, applied
    to every unpaired page of the site), the top-N by global credibility (the method), then
    ``conventions`` (conventional_patterns; with the crawl's figures when it has seen them).
    Guesses come pattern by pattern, so a cap on their number keeps the most trusted."""
    first, second = check_languages(languages)
    paired = set(paired_urls)
    ranked = list(site_patterns) + top_global_patterns(global_patterns, top_n)
    ranked += [global_patterns.get(k) or GlobalPattern(k, 0.0, 0.0, 0, 0) for k in conventions]
    top: dict[Pattern, GlobalPattern] = {}
    for g in ranked:
        top.setdefault(g.pattern, g)  # the most trusted occurrence of a pattern guesses with it
    out: list[DeepGuess] = []
    seen: set[tuple[str, str]] = set()
    for g in top.values():
        for url in sorted(pages):
            lang = base_language(pages[url])
            if url in paired or lang not in (first, second):
                continue
            forward = lang == first
            expected = second if forward else first
            guessed = [x for form in _url_forms(url)
                       for x in apply_pattern(form, g.pattern, forward=forward, examples=g.examples)]
            for guess in guessed:
                if (url, guess) in seen or guess == url:
                    continue
                seen.add((url, guess))
                out.append(DeepGuess(url, guess, g.pattern, lang, expected, g.credibility, forward))
    return out


# A page's path: a folder, a name without an extension, or a web page's extension (not .js, .pdf, .jpg …)
PAGE_PATH = re.compile(r"(?:/|/[^/.]+|\.(?:html?|php\d?|aspx?|jsp|cfm|shtml))$", re.IGNORECASE)


def unit_less_forms(site_patterns: Iterable[GlobalPattern]) -> set[str]:
    """The example pages' URLs without their language unit (index_sr.html → index.html) of the site's
    patterns ⟨a, b⟩ with no ε: what language_unit_forms looks for among the site's links."""
    out: set[str] = set()
    for g in site_patterns:
        a, b = g.pattern
        if a and b:
            for source, target in g.examples:
                out.update(_replace_unit(source, a, None) + _replace_unit(target, b, None))
    return out


def language_unit_forms(site_patterns: Iterable[GlobalPattern], linked: Collection[str],
                        languages=DEFAULT_LANGUAGES) -> dict[Pattern, dict[str, tuple[str, str]]]:
    """The site's patterns whose pages carry a language unit its links leave out: {pattern: {language:
    (where, what) its unit is inserted}}, for the patterns ⟨a, b⟩ (no ε) with an example pair
    (index_sr.html ↔ index_en.html) whose unit-less form (index.html) is among ``linked``."""
    first, second = check_languages(languages)
    out: dict[Pattern, dict[str, tuple[str, str]]] = {}
    for g in site_patterns:
        a, b = g.pattern
        if not a or not b:
            continue
        forms: dict[str, tuple[str, str]] = {}
        base_linked = False
        for source, target in g.examples:
            for unit, url, language in ((a, source, first), (b, target, second)):
                for base in _replace_unit(url, unit, None):
                    found = _insertion_forms(base, url)
                    if found:
                        forms.setdefault(language, found[0])
                        base_linked = base_linked or base in linked
        if base_linked and len(forms) == 2:
            out.setdefault(g.pattern, forms)
    return out


def dead_link_guesses(dead: Iterable[str], site_patterns: Iterable[GlobalPattern], linked: Collection[str],
                      languages=DEFAULT_LANGUAGES) -> list[DeepGuess]:
    """Guesses for a site's dead links (its own links that answered 404) when its pages carry a language
    unit its links leave out (language_unit_forms): a menu of ``istorija.html`` links rewritten by a
    script into ``istorija_sr.html`` or ``istorija_en.html`` by the visitor's language, on a site whose
    pairs index_sr.html ↔ index_en.html show the units and whose links name ``index.html``. Each dead
    link is guessed in both languages; a guess that exists becomes a Target, and the fetched pages are
    paired by the site's pattern like any other (the dead link itself is no page, so no guess confirms a
    pair directly)."""
    first, second = check_languages(languages)
    credibility = {g.pattern: g.credibility for g in site_patterns}
    by_pattern = language_unit_forms(site_patterns, linked, languages)
    out: list[DeepGuess] = []
    seen: set[str] = set()
    for pattern, forms in by_pattern.items():
        units = {unit for unit in pattern if unit}
        for url in sorted(dead):
            if units & {unquote(t).casefold() for t in TOKEN.findall(_split(url)[2])}:
                continue  # a dead link that names a language already is no unit-less form
            if not PAGE_PATH.search(urlsplit(url).path):
                continue  # a script, a style sheet, a document: no page of the site's menu
            for language, (kind, text) in forms.items():
                guess = _insert(url, kind, text)
                if guess and guess != url and guess not in seen:
                    seen.add(guess)
                    out.append(DeepGuess(url, guess, pattern, "", language, credibility[pattern], language == second))
    return out


HOME_PATHS = re.compile(r"^/(?:index\.[a-z]{2,5})?$", re.IGNORECASE)


def home_pages(pages: Mapping[str, str]) -> dict[str, str]:
    """The pages among ``pages`` (url → language) that are the site's home: its root or the root's
    index file (``/``, ``/index.html``, ``/index.php``), without a query."""
    return {url: lang for url, lang in pages.items()
            if HOME_PATHS.match(urlsplit(url).path or "/") and not urlsplit(url).query}


def entry_pages(pages: Mapping[str, str], count: int) -> dict[str, str]:
    """The pages a site is entered by: its home pages and the ``count`` shallowest others (fewest path
    segments, then shortest URL). A site's hidden other language shows at its entrance first
    (/sr/ → /en/, /index.html → /index-en.html)."""
    homes = home_pages(pages)
    others = sorted((url for url in pages if url not in homes),
                    key=lambda url: (urlsplit(url).path.rstrip("/").count("/"), len(url), url))
    return {**homes, **{url: pages[url] for url in others[:count]}}


DIRECTORY_INDEX = "index.html"


def _url_forms(url: str) -> list[str]:
    """The URL, and for a directory URL also its index file: a home stored as / is /index.html on
    a static site, and only that name has an -sr or _en twin to guess (/index-sr.html)."""
    path = urlsplit(url).path
    return [url, url + DIRECTORY_INDEX] if path.endswith("/") and not urlsplit(url).query else [url]


def confirm_deep_pair(guess: DeepGuess, exists: bool, language: str) -> CandidatePair | None:
    """A pair tagged "deep" when the guessed URL exists and is in the expected language."""
    if not exists or base_language(language) != guess.expected_language:
        return None
    src, tgt = (guess.page_url, guess.guessed_url) if guess.forward else (guess.guessed_url, guess.page_url)
    return CandidatePair(src, tgt, "deep", guess.pattern, guess.credibility,
                         evidence=f"guessed with {pattern_label(guess.pattern)}, confirmed {language}")
