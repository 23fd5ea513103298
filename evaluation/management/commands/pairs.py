"""python manage.py pairs score CRAWL_ID | pairs export CRAWL_ID --format tsv|jsonl [--output FILE]
                        | pairs discover CRAWL_ID"""
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from crawlweb.models import Crawl
from evaluation.models import CandidatePair
from evaluation.services import discovery, scoring
from evaluation.services.pairs import METHODS


class Command(BaseCommand):
    help = "Score a crawl's parallel page pairs now, export the kept pairs, or discover new sites."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        score = sub.add_parser("score", help="run every pairing method on every site now; print a summary")
        score.add_argument("crawl_id", type=int)
        export = sub.add_parser("export", help="write the kept pairs: source URL, target URL, method, similarity")
        export.add_argument("crawl_id", type=int)
        export.add_argument("--format", choices=("tsv", "jsonl"), default="tsv")
        export.add_argument("--output", help="file to write (default: standard output)")
        discover = sub.add_parser("discover", help="rank external sites (ΣLinkout, ΣPR, ΣWPR), add the top K as seeds")
        discover.add_argument("crawl_id", type=int)

    def handle(self, *args, action, crawl_id, **options):
        if not Crawl.objects.filter(pk=crawl_id).exists():
            raise CommandError(f"no crawl with id {crawl_id}")
        getattr(self, f"_{action}")(crawl_id, **options)

    def _score(self, crawl_id, **options):
        summary = scoring.score_crawl(crawl_id)
        self.stdout.write(f"crawl {crawl_id}: {summary.sites} sites, {summary.pages} pages scored")
        self.stdout.write(f"{'method':<16}{'proposed':>10}{'kept':>8}")
        for method in METHODS:
            self.stdout.write(f"{method:<16}{summary.by_method.get(method, 0):>10}"
                              f"{summary.kept_by_method.get(method, 0):>8}")
        self.stdout.write(f"{'all':<16}{sum(summary.by_method.values()):>10}{sum(summary.kept_by_method.values()):>8}")
        self.stdout.write(f"script variants: {summary.script_variants}")

    def _export(self, crawl_id, format, output=None, **options):
        rows = CandidatePair.objects.filter(crawl_id=crawl_id, kept=True).order_by("site_id", "source_url")
        out = open(output, "w", encoding="utf-8") if output else sys.stdout
        try:
            for pair in rows.iterator():
                similarity = pair.similarity if pair.similarity is not None else ""
                if format == "tsv":
                    out.write(f"{pair.source_url}\t{pair.target_url}\t{pair.method}\t{similarity}\n")
                else:
                    out.write(json.dumps({"source_url": pair.source_url, "target_url": pair.target_url,
                                          "method": pair.method, "similarity": pair.similarity},
                                         ensure_ascii=False) + "\n")
        finally:
            if output:
                out.close()

    def _discover(self, crawl_id, **options):
        rows = discovery.discover(crawl_id)
        for row in rows[:20]:
            self.stdout.write(f"{row.rank:>4} {row.host:<40} Linkout={row.sum_linkout:.0f} PR={row.sum_pr:.4f} "
                              f"WPR={row.sum_wpr:.4f}{' seed' if row.added_as_seed else ''}")
        self.stdout.write(f"{len(rows)} external sites ranked; {sum(r.added_as_seed for r in rows)} added as seeds")
