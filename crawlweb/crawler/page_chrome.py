"""A page's chrome: the parts its site's template repeats around the body (navigation, the page's
header and footer, sidebars, cookie notices).

Pure module (no Django). The parser keeps the text outside these parts as ParsedPage.main_text, so a
page's language can be its body's: a bilingual site's template often carries both languages' menus
(a desktop menu in English and a mobile one in Serbian on every page), or a footer in the site's
first language, and over a short body the template's words outnumber the page's own.

What counts, read from markup alone:
* ``<nav>`` and ``<aside>`` anywhere; ``<header>`` and ``<footer>`` outside ``<article>`` and
  ``<main>`` (inside them they hold an article's title and byline, which are its body);
* ARIA landmarks of the same kinds (role navigation, banner, contentinfo, complementary, menubar);
* an id or a class that names such a part in older templates (class="navbar", id="mainmenu",
  id="footer"), with the same rule for header and footer names, and any id or class naming a
  cookie or consent notice.
Only whole class tokens count ("navbar", not "navbar-text"): "page-header" in Bootstrap 3 is a
page's own title. A bare "menu" does not count: one-page restaurant templates call their list of
dishes so (<section id="menu">).

Apart from these, ``is_body`` names the elements by which a page marks its own body: <main>, <article>, and
role=main on a container; the parser keeps their text apart too (ParsedPage.body_text).
"""
from __future__ import annotations

CHROME_TAGS = frozenset({"nav", "aside"})
PAGE_PART_TAGS = frozenset({"header", "footer"})
CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "menubar"})
CHROME_NAMES = frozenset({
    "nav", "navbar", "navigation", "mainmenu", "main-menu", "topmenu", "top-menu", "topbar", "top-bar",
    "sidebar", "breadcrumb", "breadcrumbs", "masthead",
})
PAGE_PART_NAMES = frozenset({"header", "footer", "site-header", "site-footer", "page-footer"})
NOTICE_WORDS = ("cookie", "consent", "gdpr")
BODY_TAGS = frozenset({"article", "main"})
# Elements whose role, id or class is read: the containers templates are built of (reading every link's
# and image's attributes would cost a page of 500 links more than it finds)
CONTAINER_TAGS = frozenset({"div", "section", "ul", "ol", "table", "td", "form", "dl", "span"})


def is_chrome(tag: str, el) -> bool:
    """Is the lxml element ``el`` (tag ``tag``) a part of the page's template?"""
    if tag in CHROME_TAGS:
        return True
    if tag in PAGE_PART_TAGS:
        return not _inside_body(el)
    if tag not in CONTAINER_TAGS:  # html, body, main, article: a class there says nothing of a part
        return False
    role = (el.get("role") or "").strip().lower()
    if role in CHROME_ROLES:
        return True
    names = (el.get("id") or "").lower().split() + (el.get("class") or "").lower().split()
    if not names:
        return False
    if any(word in name for name in names for word in NOTICE_WORDS):
        return True
    if any(name in CHROME_NAMES for name in names):
        return True
    return any(name in PAGE_PART_NAMES for name in names) and not _inside_body(el)


def _inside_body(el) -> bool:
    return any(isinstance(a.tag, str) and a.tag in BODY_TAGS for a in el.iterancestors())


def is_body(tag: str, el) -> bool:
    """Does the lxml element mark the page's own body (<main>, <article>, role=main)?"""
    return tag in BODY_TAGS or (tag in CONTAINER_TAGS and (el.get("role") or "").strip().lower() == "main")
