from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from crawlweb.export_formats import dublin_core_xml, json_lines
from crawlweb.models import Crawl, Page

FORMATS = {"jsonl": json_lines, "dc": dublin_core_xml}


class Command(BaseCommand):
    help = "Export a crawl's page records as JSON Lines (jsonl) or Dublin Core XML (dc)."

    def add_arguments(self, parser):
        parser.add_argument("crawl_id", type=int)
        parser.add_argument("--format", choices=sorted(FORMATS), default="jsonl")
        parser.add_argument("--output", type=Path, help="file to write (default: standard output)")
        parser.add_argument("--language", help="only pages identified in this language, e.g. sr")

    def handle(self, *args, crawl_id, format, output, language, **options):
        if not Crawl.objects.filter(pk=crawl_id).exists():
            raise CommandError(f"no crawl with id {crawl_id}")
        pages = Page.objects.filter(crawl_id=crawl_id).order_by("id")
        if language:
            pages = pages.filter(language=language)
        records = ({**row, "site": row.pop("site__name")} for row in pages.values(
            "id", "url", "final_url", "status_code", "content_type", "charset", "md5", "size", "truncated",
            "title", "language", "script", "html_lang", "fetched_at", "modified_at", "site__name", "text"
        ).iterator(chunk_size=500))
        chunks = FORMATS[format](records)
        if output is None:
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        with output.open("w", encoding="utf-8") as stream:
            stream.writelines(chunks)
