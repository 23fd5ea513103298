"""Page records of a crawl (the fields of crawlweb.export_formats.RECORD_FIELDS), streamed."""
from __future__ import annotations

from typing import Iterator

from crawlweb.models import Page

PAGE_CHUNK = 500


def page_records(crawl_id: int, *, language: str | None = None) -> Iterator[dict]:
    pages = Page.objects.filter(crawl_id=crawl_id).order_by("id")
    if language:
        pages = pages.filter(language=language)
    rows = pages.values("id", "url", "final_url", "status_code", "content_type", "charset", "md5", "size",
                        "truncated", "title", "language", "script", "html_lang", "fetched_at", "modified_at",
                        "site__name", "text")
    for row in rows.iterator(chunk_size=PAGE_CHUNK):
        row["site"] = row.pop("site__name")
        yield row
