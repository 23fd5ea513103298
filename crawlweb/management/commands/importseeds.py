from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from crawlweb.models import SeedList
from crawlweb.services.seeds import import_seeds


class Command(BaseCommand):
    help = "Import a seed file (one URL a line, or CSV url,label) into a seed list; bad lines are reported."

    def add_arguments(self, parser):
        parser.add_argument("seed_list", help="seed list name (created when missing)")
        parser.add_argument("file", type=Path)

    def handle(self, *args, seed_list, file, **options):
        if not file.is_file():
            raise CommandError(f"seed file {file} does not exist")
        target, _ = SeedList.objects.get_or_create(name=seed_list)
        added, errors = import_seeds(target, file.read_bytes(), file.name)
        for error in errors:
            self.stderr.write(f"{file}: {'' if error.whole_file else 'skipped '}{error}")
        self.stdout.write(f"{added} seeds added to '{target.name}' ({len(errors)} lines skipped)")
