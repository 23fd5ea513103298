"""HTML fragments: partials a page's script inserts into itself, fetched on their own.

Sites split their header, menu or footer into files (``templates/navbar.html``, ``partials/nav.html``)
that a script loads into each page (``$("#nav").load("templates/navbar.html")``, ``fetch(…).then(…
innerHTML …)``). Such a file is no document: it has no ``<html>``, ``<head>`` or ``<body>`` and no
doctype. A browser never shows it at its own URL; its relative links are read against the page it was
inserted into (``<a href="index_eng.html">`` in /templates/navbar.html, inserted into /index.html, is
/index_eng.html, not /templates/index_eng.html). A crawler that fetched the fragment because a script
named it reads its links against that page too (crawlweb.services.page_prep, ``loaded_by``).

Pure: no Django.
"""
from __future__ import annotations

import re

# A document's own structure: any of these makes the markup a page, not a fragment.
_DOCUMENT_TAG = re.compile(r"<\s*(?:!doctype\b|html\b|head\b|body\b|frameset\b)", re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_ANY_TAG = re.compile(r"<\s*[a-zA-Z]")


def is_html_fragment(markup: str) -> bool:
    """Markup with tags but no document structure (no doctype, html, head, body or frameset tag):
    a partial meant to be inserted into a page. Empty or tag-less text is no fragment."""
    text = _COMMENT.sub("", markup or "")
    return bool(_ANY_TAG.search(text)) and not _DOCUMENT_TAG.search(text)
