"""Read the numbers a dashboard page shows, with the link each one carries (``data-count`` anchors)."""
from __future__ import annotations

from bs4 import BeautifulSoup


def shown_counts(html: bytes | str) -> dict[str, tuple[int, str]]:
    """{name: (number shown, href)} of every counted number on the page."""
    soup = BeautifulSoup(html, "html.parser")
    return {a["data-count"]: (int(a.get_text(strip=True)), a["href"]) for a in soup.select("a[data-count]")}
