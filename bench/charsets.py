"""Charsets: every page of the charset corpus decoded on the crawler's own path, with and without declarations.

    .venv/bin/python bench/charsets.py [--quick] [--corpus DIR]

The corpus (CHARSET_CORPUS_DIR, else <SHARED_DATA_DIR>/charsets; scripts/build_charset_corpus.py builds
it from data/charsets/manifest.json) holds real pages in 13 encodings. Each page is served over HTTP on
127.0.0.1 in each of its modes (crawlweb/testweb/charset_corpus.py): declared (its server's header
charset and its own <meta>), undeclared (no header charset, declarations removed), western_header (a
server default "ISO-8859-1" header over the page as it is) and western_only (that header, the page's
declarations removed); the Western modes only for pages not in windows-1252. The crawler's Fetcher
fetches it and charset.decode_response decodes it, as page preparation does. A case is right when the
text equals the strict decode of the served bytes with the page's true codec; a page is right when
every mode of it is. --quick takes two pages per encoding.
Last line: RESULT pages=<int> encodings=<int> decoded_right=<int>
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crawlweb.devdata import charset_corpus_dir  # noqa: E402
from crawlweb.testweb.charset_corpus import MODES, CharsetCorpusMissing, load_corpus, page_modes  # noqa: E402
from crawlweb.testweb.charset_serving import CharsetCorpusServer, loopback_fetcher, read_as_crawler  # noqa: E402


def pick(pages, per_encoding: int | None):
    if per_encoding is None:
        return pages
    taken = Counter()
    chosen = []
    for page in pages:
        if taken[page.encoding] < per_encoding:
            taken[page.encoding] += 1
            chosen.append(page)
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two pages per encoding")
    parser.add_argument("--corpus", type=Path, default=None, help="corpus folder (default: CHARSET_CORPUS_DIR)")
    args = parser.parse_args(argv)
    try:
        pages = pick(load_corpus(args.corpus or charset_corpus_dir()), 2 if args.quick else None)
    except CharsetCorpusMissing as missing:
        # Nothing to measure here (a new machine: the corpus is built from fetched copies); `make bench`
        # goes on with the other benches, and the line says no page was read.
        print(f"skipped: {missing}", file=sys.stderr)
        print("RESULT pages=0 encodings=0 decoded_right=0")
        return 0

    served = [item for page in pages for item in page_modes(page)]
    started = time.perf_counter()
    wrong, decode_seconds = [], []
    cases, right = Counter(), Counter()
    with CharsetCorpusServer(served) as server, loopback_fetcher() as fetcher:
        for item in served:
            reading = read_as_crawler(fetcher, server.url(item))
            cases[item.mode] += 1
            decode_seconds.append(reading.seconds)
            if reading.text == item.truth():
                right[item.mode] += 1
            else:
                wrong.append((item, reading))
    elapsed = time.perf_counter() - started

    failed_pages = {item.page.id for item, _ in wrong}
    by_encoding: dict[str, list] = defaultdict(list)
    for page in pages:
        by_encoding[page.encoding].append(page)
    print(f"{len(pages)} pages, {len(served)} cases, {elapsed:.1f} s "
          f"(decoding: median {statistics.median(decode_seconds) * 1000:.2f} ms, "
          f"max {max(decode_seconds) * 1000:.1f} ms per page)")
    print("\nmode            right / cases")
    for mode in MODES:
        if cases[mode]:
            print(f"{mode:15s} {right[mode]:5d} / {cases[mode]}")
    print("\nencoding        pages right  repositories")
    for encoding, group in sorted(by_encoding.items()):
        good = sum(1 for page in group if page.id not in failed_pages)
        repos = len({page.source.partition('@')[0] for page in group})
        print(f"{encoding:15s} {len(group):5d} {good:5d}  {repos}")
    if wrong:
        print("\nwrong:")
        for item, reading in wrong:
            print(f"  {item.page.id} [{item.mode}, header {item.header}]: decoded as {reading.codec}, "
                  f"true {item.page.codec}")
    decoded_right = len(pages) - len(failed_pages)
    print(f"RESULT pages={len(pages)} encodings={len(by_encoding)} decoded_right={decoded_right}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
