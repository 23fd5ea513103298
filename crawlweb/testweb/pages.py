"""Content pages of generated sites: what they link to and how they are written.

A page is first described as a `PageModel` (links and which catalog entries make its text)
and only rendered to HTML when fetched. The backlink index reads the same models, so the
link graph it reports is exactly the one the pages show.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass, field
from functools import lru_cache

from .sites import HALF, HTML_LANG, MENU_SLUGS, ORPHAN_FIRST, ORPHAN_SECOND, SiteSpec
from .text_source import ParallelEntry, entries_for

LABELS = {
    "sr-cyrl": {"index": "Почетна", "o-nama": "О нама", "usluge": "Услуге", "vesti": "Вести",
                "kontakt": "Контакт", "more": "Прочитајте још", "partners": "Партнери",
                "contents": "Садржај", "links": "Партнери и линкови", "private": "Интерно"},
    "sr-latn": {"index": "Početna", "o-nama": "O nama", "usluge": "Usluge", "vesti": "Vesti",
                "kontakt": "Kontakt", "more": "Pročitajte još", "partners": "Partneri",
                "contents": "Sadržaj", "links": "Partneri i linkovi", "private": "Interno"},
    "en": {"index": "Home", "o-nama": "About us", "usluge": "Services", "vesti": "News",
           "kontakt": "Contact", "more": "Read more", "partners": "Partners",
           "contents": "Contents", "links": "Links", "private": "Internal"},
    "hr": {"index": "Početna", "o-nama": "O nama", "usluge": "Usluge", "vesti": "Novosti",
           "kontakt": "Kontakt", "more": "Pročitajte više", "partners": "Partneri",
           "contents": "Sadržaj", "links": "Poveznice", "private": "Interno"},
    "de": {"index": "Startseite", "o-nama": "Über uns", "usluge": "Leistungen",
           "vesti": "Neuigkeiten", "kontakt": "Kontakt", "more": "Weiterlesen",
           "partners": "Partner", "contents": "Inhalt", "links": "Links", "private": "Intern"},
}
# Language switchers as real sites draw them: (text, code, flag with alt, flag without text).
_SWITCH_TEXT = {"en": "English", "sr-cyrl": "Српски", "sr-latn": "Srpski", "de": "Deutsch"}
_SWITCH_CODE = {"en": "EN", "sr-cyrl": "SR", "sr-latn": "SR", "de": "DE"}
_FLAG_ALT = {"en": ("/img/flags/gb.png", "English"), "sr-cyrl": ("/img/flags/rs.png", "Srpski"),
             "sr-latn": ("/img/flags/rs.png", "Srpski"), "de": ("/img/flags/de.png", "Deutsch")}
_FLAG_BARE = {"en": "/images/usa.png", "sr-cyrl": "/images/serbian.png",
              "sr-latn": "/images/serbian.png", "de": "/images/german.png"}
_SCRIPT_SWITCH = {"sr-cyrl": "Ћирилица", "sr-latn": "Latinica"}
LINKS_PAGE_PATH = {"sr-cyrl": "/partneri.html", "sr-latn": "/partneri.html", "hr": "/poveznice.html",
                   "en": "/links.html", "de": "/links.html"}
PRIVATE_PATH = "/private/interno.html"


@dataclass
class PageModel:
    """Everything a page shows except its rendered paragraphs."""

    url: str
    lang: str                 # language of menus and labels
    body_lang: str            # language of title and text (differs on half-translated pages)
    html_lang: str
    text_key: str             # seeds the choice of catalog entries
    pool: tuple[str, ...]     # languages the entries must exist in
    nav: list[tuple[str, str]] = field(default_factory=list)
    switch: list[tuple[str, str]] = field(default_factory=list)   # (url, inner HTML)
    alternates: list[tuple[str, str]] = field(default_factory=list)  # (hreflang, url)
    related: list[tuple[str, str]] = field(default_factory=list)
    footer: list[tuple[str, str]] = field(default_factory=list)
    heading: str | None = None   # fixed heading instead of a catalog title
    related_label: str = "more"  # LABELS key of the heading above `related`

    def links(self) -> list[str]:
        """Every URL the page links to (anchors and <link rel=alternate>)."""
        found = [u for u, _ in self.nav + self.switch + self.related + self.footer]
        return found + [u for _, u in self.alternates]


def _pool_languages(site: SiteSpec) -> tuple[str, ...]:
    # Every entry has Serbian in both scripts and English; hr/de only sometimes.
    return tuple(sorted({lang for lang in site.languages if lang in ("hr", "de")})) or ("en",)


@lru_cache(maxsize=4096)
def page_text(seed: int, text_key: str, pool: tuple[str, ...]) -> tuple[ParallelEntry, list[list[ParallelEntry]]]:
    """Title entry and paragraphs (lists of entries) of one page: same in every language."""
    entries = entries_for(pool)
    rng = random.Random(f"testweb-text-{seed}-{text_key}")
    short = [e for e in entries if len(e.en) <= 60]
    title = rng.choice(short or entries)
    paragraphs = [rng.sample(entries, rng.randint(2, 4)) for _ in range(rng.randint(2, 4))]
    return title, paragraphs


def _capitalized(text: str) -> str:
    # Entries whose placeholder opened the sentence would otherwise start in lower case.
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    text = _capitalized(text)
    return text if text[-1:] in ".!?" else text + "."


def _switch_html(site: SiteSpec, target: str) -> str:
    if site.languages == ("sr-cyrl", "sr-latn"):
        return html.escape(_SCRIPT_SWITCH[target])
    if site.switcher == "code":
        return _SWITCH_CODE[target]
    if site.switcher == "flag-alt":
        src, alt = _FLAG_ALT[target]
        return f'<img src="{src}" alt="{alt}" width="24" height="16">'
    if site.switcher == "flag-bare":
        return f'<img src="{_FLAG_BARE[target]}" alt="" width="24" height="16">'
    # Cyrillic sites write "Српски" every other time, as real ones do.
    if target == "sr-cyrl" and site.index % 2 == 0:
        return "Srpski"
    return html.escape(_SWITCH_TEXT[target])


def slug_title(seed: int, site: SiteSpec, slug: str, lang: str) -> str:
    if slug in MENU_SLUGS:
        return LABELS[lang][slug]
    title, _ = page_text(seed, f"{site.index}/{slug}", _pool_languages(site))
    return _capitalized(title.text(lang))


def content_page(seed: int, sites: list[SiteSpec], site: SiteSpec, lang: str, slug: str) -> PageModel:
    """The model of one content page of a generated (non-directory) site."""
    state = site.status.get(slug)
    body_lang = site.languages[0] if state == HALF else lang
    model = PageModel(
        url=site.url(lang, slug), lang=lang, body_lang=body_lang,
        html_lang="en" if site.wrong_html_lang else HTML_LANG[lang],
        text_key=f"{site.index}/{slug}", pool=_pool_languages(site))
    model.nav = [(site.url(lang, s), LABELS[lang][s]) for s in site.slugs[:len(MENU_SLUGS)]
                 if site.has_page(lang, s)]
    others = [other for other in site.languages if other != lang]
    for other in others:
        # Orphans switch to the other language's home page, as real sites do.
        target = slug if site.has_page(other, slug) else "index"
        model.switch.append((site.url(other, target), _switch_html(site, other)))
    if site.hreflang and len(site.languages) == 2 and state not in (ORPHAN_FIRST, ORPHAN_SECOND):
        model.alternates = [(HTML_LANG[code].split("-")[0], site.url(code, slug))
                            for code in site.languages]
    position = site.slugs.index(slug)
    if slug == "index":
        # The home page lists the whole site: every page is reachable from it.
        model.related = [(site.url(lang, s), slug_title(seed, site, s, lang))
                         for s in site.slugs[len(MENU_SLUGS):] if site.has_page(lang, s)]
        model.related_label = "contents"
        if site.links_page and lang == site.languages[0]:
            model.footer.append((f"http://{site.host}{LINKS_PAGE_PATH[lang]}", LABELS[lang]["links"]))
        if site.robots == "disallow" and lang == site.languages[0]:
            model.footer.append((f"http://{site.host}{PRIVATE_PATH}", LABELS[lang]["private"]))
    else:
        near = [site.slugs[(position + k) % len(site.slugs)] for k in (1, 2, 3)]
        model.related = [(site.url(lang, s), slug_title(seed, site, s, lang))
                         for s in dict.fromkeys(near) if s != slug and site.has_page(lang, s)]
    for index in site.partners:
        partner = sites[index]
        model.footer.append((partner.home_url(), partner.name))
    return model


def links_page(seed: int, sites: list[SiteSpec], site: SiteSpec) -> PageModel:
    """A site's "partneri"/"links" page: a hub that points to many other sites."""
    lang = site.languages[0]
    model = PageModel(url=f"http://{site.host}{LINKS_PAGE_PATH[lang]}", lang=lang, body_lang=lang,
                      html_lang=HTML_LANG[lang], text_key=f"{site.index}/links",
                      pool=_pool_languages(site), heading=LABELS[lang]["links"])
    model.nav = [(site.home_url(lang), LABELS[lang]["index"])]
    model.related = [(sites[i].home_url(), sites[i].name) for i in site.hub_targets]
    model.related_label = "partners"
    return model


def private_page(site: SiteSpec) -> PageModel:
    lang = site.languages[0]
    return PageModel(url=f"http://{site.host}{PRIVATE_PATH}", lang=lang, body_lang=lang,
                     html_lang=HTML_LANG[lang], text_key=f"{site.index}/private",
                     pool=_pool_languages(site), heading=LABELS[lang]["private"],
                     nav=[(site.home_url(lang), LABELS[lang]["index"])])


def render(seed: int, model: PageModel) -> bytes:
    """The HTML of a page model, UTF-8 encoded."""
    title_entry, paragraphs = page_text(seed, model.text_key, model.pool)
    title = model.heading or _capitalized(title_entry.text(model.body_lang))
    esc = html.escape
    out = ['<!DOCTYPE html>', f'<html lang="{model.html_lang}">', "<head>",
           '<meta charset="utf-8">', f"<title>{esc(title)}</title>"]
    out += [f'<link rel="alternate" hreflang="{code}" href="{esc(url)}">'
            for code, url in model.alternates]
    out += ["</head>", "<body>", "<header>"]
    if model.switch:
        out.append('<div class="lang-switch">' + " | ".join(
            f'<a href="{esc(url)}">{inner}</a>' for url, inner in model.switch) + "</div>")
    out.append("<nav><ul>" + "".join(f'<li><a href="{esc(url)}">{esc(label)}</a></li>'
                                     for url, label in model.nav) + "</ul></nav>")
    out += ["</header>", "<main>", f"<h1>{esc(title)}</h1>"]
    for paragraph in paragraphs:
        out.append("<p>" + esc(" ".join(_sentence(e.text(model.body_lang)) for e in paragraph)) + "</p>")
    if model.related:
        heading = LABELS[model.lang].get(model.related_label, model.related_label)
        out.append(f'<section class="related"><h2>{esc(heading)}</h2><ul>')
        out += [f'<li><a href="{esc(url)}">{esc(label)}</a></li>' for url, label in model.related]
        out.append("</ul></section>")
    out += ["</main>", "<footer>"]
    if model.footer:
        out.append(f"<p>{esc(LABELS[model.lang]['partners'])}: " + ", ".join(
            f'<a href="{esc(url)}">{esc(label)}</a>' for url, label in model.footer) + "</p>")
    out += ["</footer>", "</body>", "</html>", ""]
    return "\n".join(out).encode("utf-8")


DIRECTORY_PAGE_SIZE = 15


def directory_pages(seed: int, sites: list[SiteSpec], site: SiteSpec) -> dict[str, PageModel]:
    """A pure directory site: a home page and category pages listing many sites.

    The first directory also links to the special site, so a crawl meets the hard cases."""
    lang = site.languages[0]
    listed = list(site.hub_targets)
    chunks = [listed[i:i + DIRECTORY_PAGE_SIZE] for i in range(0, len(listed), DIRECTORY_PAGE_SIZE)]
    home_url = f"http://{site.host}/"
    home = PageModel(url=home_url, lang=lang, body_lang=lang, html_lang=HTML_LANG[lang],
                     text_key=f"{site.index}/directory", pool=("en",), heading="Katalog sajtova",
                     related_label="Kategorije")
    home.related = [(f"http://{site.host}/kategorija/{n + 1}.html", f"Kategorija {n + 1}")
                    for n in range(len(chunks))]
    for other in sites:
        if other.kind == "directory" and other.index != site.index:
            home.footer.append((other.home_url(), other.name))
        if other.kind == "special" and site is next(s for s in sites if s.kind == "directory"):
            home.footer.append((other.home_url(), "Problematične stranice"))
    pages = {home_url: home}
    for n, chunk in enumerate(chunks):
        url = f"http://{site.host}/kategorija/{n + 1}.html"
        page = PageModel(url=url, lang=lang, body_lang=lang, html_lang=HTML_LANG[lang],
                         text_key=f"{site.index}/directory/{n}", pool=("en",),
                         heading=f"Kategorija {n + 1}", related_label="Sajtovi")
        page.nav = [(home_url, LABELS[lang]["index"])]
        for i in chunk:
            target = sites[i]
            # Some entries point at the English home: crawls also enter sites from that side.
            lang_in = "en" if "en" in target.languages and (i + site.index) % 3 == 0 else None
            page.related.append((target.home_url(lang_in), f"{target.name} ({target.host})"))
        pages[url] = page
    return pages
