"""HTML parsing speed: a 100 KB page of links, and the real development web's pages, ours vs BeautifulSoup.

The crawler's preparation processes parse every stored page (crawlweb.crawler.htmlparse.parse_html:
text, links with their context, language declarations), so a page's parse time bounds what one
preparation process can take. Target: a 100 KB page of about 560 links in under 80 ms. Beside it, the
same pages read by BeautifulSoup with Python's html.parser, collecting only the <a href> values
(what a Scrapy-like spider starts from), as a reference point.

    .venv/bin/python bench/parse_speed.py [--quick] [--real-web DIR]

The real pages: every .html file of REAL_WEB_DIR (else <SHARED_DATA_DIR>/real-web, else the shared
real sites), at most 200 with --quick. Timings are per page, the best of --repeat runs.
Last line: RESULT parse_ms_100kb=<float> real_p50_ms=<float> real_p95_ms=<float> bs4_ms_100kb=<float> real_pages=<int>
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bs4 import BeautifulSoup  # noqa: E402

from crawlweb.crawler.htmlparse import parse_html  # noqa: E402
from crawlweb.devdata import real_web_dir, shared_data_dir  # noqa: E402

TARGET_MS_100KB = 80.0
BLOCK = ('<div class="item"><h3>Naslov {i}</h3><p>Tekst o nečemu važnom, sa <a href="/clanak/{i}.html">'
         'linkom ka članku</a> i još malo teksta da strana bude duža i sadržajnija.</p></div>\n')
BASE = "http://www.primer.rs/"


def page_of_links(size: int = 100_000) -> str:
    return "<html><body>" + "".join(BLOCK.format(i=i) for i in range(size // len(BLOCK))) + "</body></html>"


def best_ms(work, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def bs4_links(html: str) -> list[str]:
    return [a.get("href") for a in BeautifulSoup(html, "html.parser").find_all("a", href=True)]


def real_pages(directory: Path | None, limit: int | None) -> list[tuple[str, Path]]:
    """(URL, file) of each page: hosts/<host>/<path> is http://<host>/<path>."""
    for candidate in (directory, real_web_dir(), shared_data_dir() / "real-sites"):
        if candidate and (candidate / "hosts").is_dir():
            hosts = candidate / "hosts"
            pages = [(f"http://{path.relative_to(hosts).as_posix()}", path) for path in sorted(hosts.rglob("*.html"))]
            return pages[:limit] if limit else pages
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--real-web", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=None, help="runs per page, the best counts (default 5, quick 3)")
    args = parser.parse_args()
    repeat = args.repeat or (3 if args.quick else 5)

    html = page_of_links()
    links = len(parse_html(html, BASE).links)
    ours_100kb = best_ms(lambda: parse_html(html, BASE), repeat)
    theirs_100kb = best_ms(lambda: bs4_links(html), repeat)
    verdict = "met" if ours_100kb < TARGET_MS_100KB else "NOT met"
    print(f"100 KB page, {links} links: ours {ours_100kb:.1f} ms (target < {TARGET_MS_100KB:.0f} ms: {verdict}), "
          f"BeautifulSoup html.parser <a href> only {theirs_100kb:.1f} ms")

    files = real_pages(args.real_web, 200 if args.quick else None)
    ours, theirs, kilobytes = [], [], 0.0
    for url, path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        kilobytes += len(text) / 1000
        ours.append(best_ms(lambda: parse_html(text, url), repeat))
        theirs.append(best_ms(lambda: bs4_links(text), repeat))
    if ours:
        p95 = statistics.quantiles(ours, n=20)[-1] if len(ours) >= 20 else max(ours)
        print(f"{len(ours)} real pages ({kilobytes / len(ours):.0f} KB on average): ours p50 "
              f"{statistics.median(ours):.2f} ms, p95 {p95:.2f} ms, max {max(ours):.1f} ms; "
              f"BeautifulSoup p50 {statistics.median(theirs):.2f} ms")
    else:
        p95 = 0.0
        print("no real pages found (REAL_WEB_DIR or the shared real sites): real-page figures are 0")
    print(f"RESULT parse_ms_100kb={ours_100kb:.2f} real_p50_ms={statistics.median(ours) if ours else 0.0:.2f} "
          f"real_p95_ms={p95:.2f} bs4_ms_100kb={theirs_100kb:.2f} real_pages={len(ours)}")


if __name__ == "__main__":
    main()
