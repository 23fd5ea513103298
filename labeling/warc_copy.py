"""The stored copy of a page, read back from the crawl's WARC files (crawlweb/crawler/warc.py);
never fetched live. Files are scanned in name order for the response record of the page's URL:
no index is kept, which is fine for an evaluator opening one page at a time."""
from __future__ import annotations

from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

MAX_COPY_BYTES = 5 * 1024 * 1024


def stored_body(warc_dir: Path, crawl_id: int, urls: list[str]) -> bytes | None:
    """The body (content encodings undone) of the last stored 200 response for one of ``urls``."""
    wanted = set(u for u in urls if u)
    found = None
    directory = Path(warc_dir) / f"crawl-{crawl_id}"
    if not wanted or not directory.is_dir():
        return None
    for path in sorted(directory.glob("*.warc.gz*")):
        with open(path, "rb") as stream:
            try:
                for record in ArchiveIterator(stream):
                    if (record.rec_type == "response" and record.rec_headers.get_header("WARC-Target-URI") in wanted
                            and record.http_headers and record.http_headers.get_statuscode() == "200"):
                        found = record.content_stream().read(MAX_COPY_BYTES)
            except Exception:  # an unfinished (.open) file ends mid-record: keep what was read
                continue
    return found
