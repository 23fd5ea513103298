from django.db import transaction

from crawlweb.models import Seed, SeedList
from crawlweb.seed_import import SeedError, parse_seed_file


@transaction.atomic
def import_seeds(seed_list: SeedList, content: str | bytes, filename: str = "") -> tuple[int, list[SeedError]]:
    """Add the good lines of a seed file to ``seed_list``; return (added, errors by line)."""
    entries, errors = parse_seed_file(content, filename)
    existing = set(seed_list.seeds.values_list("url", flat=True))
    new = [Seed(seed_list=seed_list, url=e.url, label=e.label) for e in entries if e.url not in existing]
    Seed.objects.bulk_create(new, ignore_conflicts=True)
    return len(new), errors
