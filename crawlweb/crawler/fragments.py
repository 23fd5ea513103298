"""HTML fragments: partials a page's script inserts into itself, fetched on their own.

Sites split their header, menu or footer into files (``templates/navbar.html``, ``partials/nav.html``)
that a script loads into each page (``$("#nav").load("templates/navbar.html")``, ``fetch(…).then(…
innerHTML …)``). Such a file is no document: it has no ``<html>``, ``<head>`` or ``<body>`` and no
doctype. A browser never shows it at its own URL; its relative links are read against the page it was
inserted into (``<a href="index_eng.html">`` in /templates/navbar.html, inserted into /index.html, is
/index_eng.html, not /templates/index_eng.html). A crawler that fetched the fragment because a script
named it reads its links against that page too (crawlweb.services.page_prep, ``loaded_by``).

Some pages are only a frame around such fragments: W3Schools' ``includeHTML`` pattern marks the elements
to fill (``<div w3-include-html="program.html">``) and a script fetches each file, often from a folder
of the language a cookie or a button chose (``getLanguage() + "/" + file``, the buttons
``onclick="setCookie('language', 'en', 365)"``). No link of the page names those files:
``include_links`` reads them from the attributes, with the language folders the page itself names.

Pure: no Django.
"""
from __future__ import annotations

import re

from .urls import resolve_link

# A document's own structure: any of these makes the markup a page, not a fragment.
_DOCUMENT_TAG = re.compile(r"<\s*(?:!doctype\b|html\b|head\b|body\b|frameset\b)", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_ANY_TAG = re.compile(r"<\s*[a-zA-Z]")


def is_html_fragment(markup: str) -> bool:
    """Markup with tags but no document structure (no doctype, html, head, body or frameset tag):
    a partial meant to be inserted into a page. Empty or tag-less text is no fragment."""
    text = _COMMENT.sub("", markup or "")
    return bool(_ANY_TAG.search(text)) and not _DOCUMENT_TAG.search(text)


# Attributes that name a file a script loads into the element (W3Schools' includeHTML and its variants).
INCLUDE_ATTRIBUTES = ("w3-include-html", "data-include", "data-include-html", "include-html")


def include_links(files: list[str], codes: list[str], base: str, limit: int) -> list[tuple[str, str]]:
    """(URL, language code or "") of the fragments a page's include attributes name: each file as written,
    read against the page, and in the folder of each language code the page names (its buttons' handlers,
    its inline scripts), where a language chooser keeps the file's translations. At most ``limit``."""
    found: dict[str, str] = {}
    folders = [code for code in codes if not code.endswith(("-", "_"))]  # a file-name prefix ("en-") is no folder
    for file in dict.fromkeys(f.strip() for f in files if f and f.strip()):
        for code in ("", *folders):
            url = resolve_link(base, f"{code}/{file.lstrip('/')}" if code else file)
            if url and url not in found:
                found[url] = code
                if len(found) >= limit:
                    return list(found.items())
    return list(found.items())
