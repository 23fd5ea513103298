"""Link contexts of an HTML page: the input of the Link Predictor and the link classifiers.

Pure module (bs4 + lxml). Besides ``<a href>`` it reads language switchers that real sites draw
without anchors: buttons with ``onclick="window.location.href='…'"`` and ``<link rel=alternate
hreflang>`` in the head (both seen on the real sites of the development set).
"""
from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag

from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.tokens import words

_ONCLICK_URL = re.compile(
    r"""(?:window\.)?location(?:\.href)?\s*=\s*['"]([^'"]+)['"]|location\.assign\(\s*['"]([^'"]+)['"]""",
    re.IGNORECASE,
)
_SKIP_SCHEMES = ("javascript:", "mailto:", "tel:", "data:")
_BLOCKS = {"p", "li", "td", "th", "div", "nav", "header", "footer", "section", "ul", "dd", "form", "body"}


def _text_around(element: Tag, span: int) -> str:
    """Up to ``span`` words before and after the element inside its nearest block ancestor."""
    block = element.parent
    while block is not None and block.name not in _BLOCKS:
        block = block.parent
    if block is None:
        return ""
    before: list[str] = []
    after: list[str] = []
    own = {id(s) for s in element.find_all(string=True)}
    seen = False
    # descendants come in document order: everything after the element itself goes to "after".
    for node in block.descendants:
        if node is element:
            seen = True
        elif isinstance(node, NavigableString) and id(node) not in own:
            if node.parent.name in ("script", "style") or type(node) is not NavigableString:
                continue  # comments, doctype, CDATA are NavigableString subclasses
            (after if seen else before).extend(words(str(node)))
            if seen and len(after) >= span:
                break
    return " ".join(before[-span:] + after[:span])


def _image(element: Tag) -> tuple[str, str]:
    img = element.find("img")
    if img is None:
        return "", ""
    return (img.get("alt") or "").strip(), (img.get("src") or "").strip()


def _usable(href: str | None) -> bool:
    if not href:
        return False
    href = href.strip()
    return bool(href) and href != "#" and not href.lower().startswith(_SKIP_SCHEMES)


def link_contexts_from_html(html: str, page_url: str, around_words: int = 10) -> list[LinkContext]:
    """Every followable link of a page with its five contexts, in document order."""
    soup = BeautifulSoup(html, "lxml")
    links: list[LinkContext] = []
    for element in soup.find_all(True):
        href = None
        if element.name == "a":
            href = element.get("href")
        elif element.name == "link" and element.get("hreflang"):
            href = element.get("href")
        elif element.get("onclick"):
            found = _ONCLICK_URL.search(element["onclick"])
            href = (found.group(1) or found.group(2)) if found else None
        if not _usable(href):
            continue
        alt, src = _image(element)
        anchor = "" if element.name == "link" else element.get_text(" ", strip=True)
        if not anchor:
            anchor = (element.get("title") or "").strip()
        links.append(
            LinkContext(
                url=href.strip(),
                anchor_text=anchor,
                text_around="" if element.name == "link" else _text_around(element, around_words),
                img_alt=alt,
                img_src=src,
                page_url=page_url,
                hreflang=(element.get("hreflang") or "").strip(),
            )
        )
    return links
