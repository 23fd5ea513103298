"""Whether a page's site is worth rendering in Chromium for the BS Detector (docs/script-switches.md).

Pure module. Rendering costs a browser's time per page, so it runs only for a candidate the detector
could not decide from HTML: the page shows one language, yet it or its links hint that the others are
drawn by script. The hints, from what the crawl stored of the page:
- its language is none of the pair's (a site entered from a third language, or a page with no text of
  its own: a script that redirects by the browser's language);
- it runs navigation or site scripts of its own (links of kind "script", "script-src", "onclick");
- it links almost nothing of its own site (a switch or menu drawn by script leaves few HTML links).
None of them counts for a page that runs no script at all (no <script> element, no event handler): a
browser draws such a page from its HTML alone, so rendering it finds nothing the fetched HTML has not
shown, and on a national web most one-page sites are such pages.
"""
from __future__ import annotations

from collections.abc import Iterable

SCRIPT_LINK_KINDS = frozenset({"script", "script-src", "onclick"})
FEW_SITE_LINKS = 2


def base_language(code: str | None) -> str:
    return (code or "").strip().replace("_", "-").split("-")[0].lower()


def render_hints(page_language: str | None, pair: tuple[str, str], link_kinds: Iterable[tuple[str, bool]],
                 runs_scripts: bool | None = None) -> list[str]:
    """The reasons to render the page (empty: none). ``link_kinds``: (kind, out_of_site) of its stored links;
    ``runs_scripts``: whether its HTML has a script or event handler (None: not known, as for a page stored
    before the crawler recorded it)."""
    if runs_scripts is False:
        return []
    reasons = []
    if base_language(page_language) not in {base_language(code) for code in pair}:
        reasons.append("language outside the pair")
    kinds = list(link_kinds)
    if any(kind in SCRIPT_LINK_KINDS for kind, _out in kinds):
        reasons.append("scripts of its own")
    if sum(1 for kind, out in kinds if not out and kind in ("a", "area")) < FEW_SITE_LINKS:
        reasons.append("few links of its own site")
    return reasons
