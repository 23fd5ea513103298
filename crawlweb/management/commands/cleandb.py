from django.core.management.base import BaseCommand, CommandError

from crawlweb.models import Crawl
from crawlweb.services.maintenance import delete_pages, sanity_check


class Command(BaseCommand):
    help = "Check (and repair) a crawl's consistency, or delete pages by host, URL prefix, MD5 or page id."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        check = actions.add_parser("check", help="report inconsistencies (exit 1 when any)")
        check.add_argument("crawl_id", type=int)
        check.add_argument("--repair", action="store_true", help="fix what is found")
        delete = actions.add_parser("delete", help="delete pages, their links and the targets that led to them")
        delete.add_argument("crawl_id", type=int)
        delete.add_argument("--host")
        delete.add_argument("--prefix", help="URL prefix, e.g. http://www.primer.rs/calendar/")
        delete.add_argument("--md5")
        delete.add_argument("--page", type=int, dest="page_id")

    def handle(self, *args, action, crawl_id, **options):
        crawl = Crawl.objects.filter(pk=crawl_id).first()
        if crawl is None:
            raise CommandError(f"no crawl with id {crawl_id}")
        if action == "delete":
            try:
                pages, targets = delete_pages(crawl, host=options["host"], prefix=options["prefix"],
                                              md5=options["md5"], page_id=options["page_id"])
            except ValueError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"deleted {pages} pages and {targets} targets")
            return
        report = sanity_check(crawl, repair=options["repair"])
        for name, count in report.problems.items():
            fixed = report.repaired.get(name)
            self.stdout.write(f"{name}: {count}" + (f" (repaired {fixed})" if fixed is not None else ""))
        if not report.clean and not options["repair"]:
            raise CommandError("inconsistencies found; run again with --repair to fix them")
