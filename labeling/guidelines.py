"""The judging guidelines: what each key means, with an example, and the rules every evaluator applies
(partial, the thin-page rule, boilerplate-only pairs). Shown in the card's help (``?``) and written out
for people in docs/judging-guidelines.md; tests keep the two and labeling.keys in step.

The thin-page rule is the one the real development web was labelled by (data/realweb/README.md), and
the boilerplate-only pairs are those of the test web's judging cases (crawlweb/testweb/judging_cases.py).
"""
from __future__ import annotations

from typing import NamedTuple

from labeling.keys import KEYS, Key


class Guideline(NamedTuple):
    key: str
    meaning: str
    example: str


_PAIRS = {
    "y": ("Both pages carry the same content in the two languages: the body is translated (free wording, "
          "a date or a sentence more or less do not matter).",
          "/sr/o-nama.html “O nama: Firma je osnovana 1998. u Beogradu…” ↔ /en/about.html “About us: The "
          "company was founded in Belgrade in 1998…”"),
    "n": ("Not translations of each other, and no error category 1–5 says better why; a boilerplate-only or "
          "thin pair (see the rules below) is n too.",
          "/sr/prijava.html “Prijava · Korisničko ime · Lozinka” ↔ /en/login.html “Log in · Username · "
          "Password”: nothing beyond the site's frame but form labels."),
    "1": ("A page is not in the language the crawler took it for.",
          "The “English” page's body is German (or Croatian) under an English menu and footer."),
    "2": ("A side does not lead to a real page: a “not found” page served as 200 OK, an "
          "error page, a redirect to the home page.",
          "/en/nevazeca.html whose text reads “Page not found. The page you asked for does not exist.”"),
    "3": ("The other-language side is an untranslated copy.",
          "The /en/ page's body is the same Serbian text as the /sr/ page, under an English menu."),
    "4": ("The stored text is not the page's content (written by a script, "
          "garbled characters); open Stored copies to see the page.",
          "The English side's text is only its menu, cookie notice and footer: its body is filled in by a script."),
    "5": ("Both languages are there, but the two pages say different things.",
          "Same template, but the Serbian page announces a concert and the English one describes a hotel."),
    "p": ("The same page, only part of its content translated (see the rule below).",
          "The English page translates the title and first paragraph; its other three paragraphs are "
          "missing or still in Serbian."),
    "s": ("You cannot tell (no text on either side, a language you do not read). Counts for no side; "
          "do not skip a pair that is merely hard.",
          "Both sides show “No stored text” and the stored copies are empty."),
}
_SITES = {
    "y": ("The site has real content in both languages of the crawl's pair.",
          "primer.rs has /sr/ and /en/ versions of its articles and its contact page."),
    "n": ("One language only, or the other language is a menu or a switch that leads nowhere, or another pair.",
          "A Serbian shop whose “EN” flag leads back to its Serbian home page; a Croatian–English site."),
    "s": ("You cannot tell (the pages shown have no text).", "The input page's text is empty."),
}
_LINKS = {
    "y": ("Following the link gives this page's own translation.",
          "The “English” link on /sr/kontakt.html leads to /en/contact.html."),
    "n": ("It leads elsewhere: the other language's home page, another page, a page in the same language.",
          "The “English” link on /sr/kontakt.html leads to /en/ (the home page)."),
    "s": ("You cannot tell (the linked page was not fetched).", "The right-hand column says “not fetched”."),
}
_BY_KIND = {"pairs": _PAIRS, "sites": _SITES, "links": _LINKS}

# The rules every answer follows: (name, rule), shown under the keys.
RULES = {
    "pairs": [
        ("Partial", "At least one sentence of real content is translated, and at least one paragraph of real "
                    "content is not (missing, or left in the first language). All content translated is y; "
                    "none is n or a category."),
        ("Thin pages", "Judge the body beyond the site's frame (menus, header, footer, cookie notice, language "
                       "switch). A body that is only a heading and form, sort or button labels is boilerplate: n. "
                       "One translated sentence of real content, or translated image captions, make it translated: y."),
        ("Boilerplate-only pair", "A login, registration, search listing, account or gallery page whose only "
                                  "content is translated labels (“Пријава · Корисничко име · Лозинка” ↔ “Log in · "
                                  "Username · Password”) is n: translated line by line, but nothing in it "
                                  "belongs in a parallel corpus."),
    ],
    "sites": [("Thin pages", "A second language present only in menus or a switch does not make a site bilingual: n.")],
    "links": [],
}


def guidelines(what: str) -> list[tuple[Key, Guideline]]:
    """Each key of this kind of item with its meaning and example, in the card's order."""
    meanings = _BY_KIND[what]
    return [(key, Guideline(key.key, *meanings[key.key])) for key in KEYS[what]]
