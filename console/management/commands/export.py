"""python manage.py export CRAWL_ID --format FORMAT [--output FILE] [--language sr] [--kept-only] [--raw]

Every export of console/exports/catalog.py, streamed to a file or standard output."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from console.exports.catalog import EXPORTS, ExportOptions
from crawlweb.models import Crawl


class Command(BaseCommand):
    help = "Export a crawl: " + "; ".join(f"{name}: {export.description}" for name, export in EXPORTS.items())

    def add_arguments(self, parser):
        parser.add_argument("crawl_id", type=int)
        parser.add_argument("--format", choices=list(EXPORTS), default="jsonl")
        parser.add_argument("--output", type=Path, help="file to write (default: standard output)")
        parser.add_argument("--language", help="page records (jsonl, dc): only pages identified in this language")
        parser.add_argument("--kept-only", action="store_true", help="pairs-tsv: only the pairs the filter kept")
        parser.add_argument("--raw", action="store_true",
                            help="CSV and TSV: text as stored, for pipelines (by default a cell starting with "
                                 "=, +, -, @ gets a leading ' so that spreadsheets do not run it as a formula)")

    def handle(self, *args, crawl_id, format, output, language, kept_only, raw, **options):
        crawl = Crawl.objects.filter(pk=crawl_id).first()
        if crawl is None:
            raise CommandError(f"no crawl with id {crawl_id}")
        if output is not None and not output.parent.is_dir():
            raise CommandError(f"cannot write {output}: folder {output.parent} does not exist")
        chunks = EXPORTS[format].chunks(crawl, ExportOptions(language=language, kept_only=kept_only,
                                                                 raw=raw))
        if output is None:
            stream = getattr(self.stdout, "buffer", None)  # OutputWrapper passes it on
            if stream is None:  # a text stream (call_command with StringIO): decode what we write
                for chunk in chunks:
                    self.stdout.write(chunk.decode("utf-8", errors="replace"), ending="")
                return
            for chunk in chunks:
                stream.write(chunk)
            stream.flush()
            return
        with output.open("wb") as stream:
            for chunk in chunks:
                stream.write(chunk)
