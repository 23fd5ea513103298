"""Every export of a crawl, by name: what it holds, its file name, its media type and the generator
that writes it. The dashboard's download view and ``manage.py export --format`` both read this."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from django.conf import settings

from crawlweb.export_formats import dublin_core_xml, json_lines
from console.exports.page_rows import page_records
from console.exports.pair_rows import (
    PAIR_COLUMNS,
    SEGMENT_COLUMNS,
    aligned_paragraphs,
    pair_rows,
    translation_units,
)
from console.exports.site_rows import SITE_COLUMNS, flat_site_row, site_rows
from console.exports.tables import csv_lines, json_array, tsv_lines
from console.exports.tmx import tmx_document
from console.exports.warc_files import crawl_warc
from crawlweb.models import Crawl


@dataclass(frozen=True)
class ExportOptions:
    language: str | None = None  # page records: only pages identified in this language
    kept_only: bool = False  # pairs.tsv: only the pairs the filter kept
    raw: bool = False  # CSV and TSV: text as stored, formulas not neutralized (crawlweb.spreadsheet_cells)


@dataclass(frozen=True)
class Export:
    format: str  # the command's --format
    file_name: str  # the download's name (crawl-<id>-<file_name>) and its URL
    content_type: str
    description: str
    write: Callable[[Crawl, ExportOptions], Iterator[str | bytes]]

    def chunks(self, crawl: Crawl, options: ExportOptions = ExportOptions()) -> Iterator[bytes]:
        for chunk in self.write(crawl, options):
            yield chunk if isinstance(chunk, bytes) else chunk.encode("utf-8")


def _tmx(crawl, options):
    return tmx_document(translation_units(crawl.pk), srclang=crawl.source_language,
                        header_props=[("x-crawl", str(crawl.pk)),
                                      ("x-language-pair", f"{crawl.source_language}-{crawl.target_language}")])


EXPORTS = {export.format: export for export in [
    Export("sites-csv", "sites.csv", "text/csv; charset=utf-8",
           "Bilingual sites: verdict, evidence, credibility, pages per language (CSV)",
           lambda crawl, o: csv_lines(SITE_COLUMNS, (flat_site_row(r) for r in site_rows(crawl.pk)), raw=o.raw)),
    Export("sites-json", "sites.json", "application/json", "Bilingual sites (JSON, evidence in full)",
           lambda crawl, o: json_array(site_rows(crawl.pk))),
    Export("pairs-tsv", "pairs.tsv", "text/tab-separated-values; charset=utf-8",
           "Page pairs with score, method and the filter's verdict (TSV, Bitextor's URL columns first)",
           lambda crawl, o: tsv_lines(PAIR_COLUMNS, pair_rows(crawl.pk, kept_only=o.kept_only), raw=o.raw)),
    Export("pairs-tmx", "pairs.tmx", "application/x-tmx+xml; charset=utf-8",
           "Kept pairs' aligned paragraphs (TMX 1.4)", _tmx),
    Export("segments-tsv", "segments.tsv", "text/tab-separated-values; charset=utf-8",
           "Kept pairs' aligned paragraphs for Bicleaner (URL1 URL2 SOURCE TARGET …, TSV without header)",
           lambda crawl, o: tsv_lines(SEGMENT_COLUMNS, aligned_paragraphs(crawl.pk), header=False,
                                     raw=o.raw)),
    Export("warc", "crawl.warc.gz", "application/gzip",
           "Every request and response of the crawl (all its WARC files as one)",
           lambda crawl, o: crawl_warc(settings.WARC_DIR, crawl.pk)),
    Export("jsonl", "pages.jsonl", "application/x-ndjson; charset=utf-8", "Page records (JSON Lines)",
           lambda crawl, o: json_lines(page_records(crawl.pk, language=o.language))),
    Export("dc", "pages-dc.xml", "application/xml; charset=utf-8", "Page records (Dublin Core XML)",
           lambda crawl, o: dublin_core_xml(page_records(crawl.pk, language=o.language))),
]}
BY_FILE_NAME = {export.file_name: export for export in EXPORTS.values()}
