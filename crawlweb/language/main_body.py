"""A page's language is its main body's, not its template's.

Pure module (no Django). The parser gives a page's text and, apart, its main text: the lines outside
its template's parts (crawler.page_chrome: navigation, page header and footer, sidebars, cookie
notices). A bilingual site's template may carry both languages' menus on every page, or a footer in
the site's first language, and over a short body the template's words outnumber the page's own: an
English page whose body is two lines read as Serbian (and the reverse), a Japanese body under
English menus read as English.

Reading the main text alone is no better in general: on the real development web the main text and
the whole text disagree on 90 of 1,351 pages, and the whole text is right on 73 of them (the main
text is then a form, a price list, product codes, a gallery's captions, or quotes in another
language, and the template's words were the page's best evidence). So the main text is read first
only where it carries evidence of its own:

* its dominant script names its language (writing_systems.py: a Japanese or Greek body is that
  language, however short, and however many English menu words surround it);
* otherwise the whole text is read as before, and the main text takes over only when the page
  declares a language for itself (its URL's marker or its own hreflang, not the template's html
  lang: declared.PER_PAGE_SOURCES) that the whole text's answer is not, the main text holds
  MIN_MAIN_LETTERS letters (about a sentence), and the main text's words alone (read without any
  declaration or domain) name that language, or its family for a BCMS variety: two independent
  sources, the page's address and its body's words, against the template's words. A body that is
  an address list, a form or product codes names no language by itself, and the whole text stands.

Where the page marks its body itself (<main>, <article>, role=main: ParsedPage.body_text) and that body
holds MIN_MAIN_LETTERS letters, the body is the main text in both steps: a box of edit, donate and share
links beside the <article> is the template's too, though no class name says so (marked_body).
"""
from __future__ import annotations

import re

from .declared import BCMS, PER_PAGE_SOURCES, Declarations, page_declarations
from .identify import SCRIPT_SAMPLE, LanguageGuess, identify_language
from .scripts import script_profile
from .writing_systems import has_other_scripts, writing_system

MIN_MAIN_LETTERS = 40
_LETTER = re.compile(r"[^\W\d_]")


def identify_page_text(text: str, main_text: str = "", *, url: str | None = None, title: str | None = None,
                       declarations: Declarations | None = None, body_text: str = "") -> LanguageGuess:
    """Language of a page from its whole text and its main text, or the body its markup marks (module
    docstring)."""
    if declarations is None:
        declarations = page_declarations(url or "")
    main_text = marked_body(main_text, body_text)
    own_main = bool(main_text) and main_text != text
    if own_main and _script_names_language(main_text):
        guess = identify_language(main_text, url=url, title=title, declarations=declarations)
        if guess.lang != "und":
            return _read_from_main(guess, main_text, text, "its script names its language")
    whole = identify_language(text, url=url, title=title, declarations=declarations)
    declared = {lang for source, lang in declarations.languages().items() if source in PER_PAGE_SOURCES}
    if own_main and declared and whole.lang not in declared and _letters(main_text) >= MIN_MAIN_LETTERS:
        # the body's words alone (no declaration, no domain) must name the declared language, or its family
        alone = identify_language(main_text, title=title, declarations=Declarations())
        if _family(alone.lang) not in {_family(lang) for lang in declared}:
            return whole
        body = identify_language(main_text, url=url, title=title, declarations=declarations)
        if body.lang in declared:
            return _read_from_main(body, main_text, text, f"it is {body.lang}, as the page declares, "
                                                          f"where the whole text read {whole.lang}")
    return whole


def marked_body(main_text: str, body_text: str) -> str:
    """The text of the elements a page marks as its body (<main>, <article>: crawler.page_chrome), when
    they hold a sentence's letters; else the text outside the template's parts. A share or donate box
    beside the <article> is the template's, not the page's; an empty <main> a script fills says nothing."""
    return body_text if _letters(body_text) >= MIN_MAIN_LETTERS else main_text


def _family(lang: str) -> str:
    """Serbian, Croatian, Bosnian and Montenegrin are one family: the words choose it, the declarations
    the variety (priors.py)."""
    return "bcms" if lang in BCMS else lang


def _script_names_language(main_text: str) -> bool:
    sample = main_text[:SCRIPT_SAMPLE]
    if not has_other_scripts(sample):  # Latin and Cyrillic name no language by themselves
        return False
    profile = script_profile(sample)
    return writing_system(sample, profile.latin, profile.cyrillic).dominant is not None


def _letters(main_text: str) -> int:
    return len(_LETTER.findall(main_text[:SCRIPT_SAMPLE]))


def _read_from_main(guess: LanguageGuess, main_text: str, text: str, why: str) -> LanguageGuess:
    guess.evidence["read"] = f"main text ({len(main_text)} of {len(text)} characters, template left out): {why}"
    return guess
