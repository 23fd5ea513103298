"""`pairs score` on the real short crawl, followed in a log: a plain line per phase (mining patterns,
pairing) with sites done against sites to do, and a last line with every site paired."""
import io
import re

import pytest
from django.core.management import call_command

from evaluation.models import CandidatePair

pytestmark = pytest.mark.django_db
LINE = re.compile(r"^pairs score crawl (\d+): sites (\d+)/(\d+) \(\d+%\), [\d.]+/min, pairs kept (\d+), ETA \S+, "
                  r"(mining patterns|pairing)$")


def test_pairs_score_shows_its_progress_by_phase(watched_crawl):
    out = io.StringIO()
    call_command("pairs", "score", str(watched_crawl.pk), stdout=out)
    lines = [LINE.match(line) for line in out.getvalue().splitlines() if line.startswith("pairs score crawl")]
    assert all(lines) and lines, out.getvalue()
    assert [m[5] for m in lines][0] == "mining patterns" and lines[-1][5] == "pairing"
    last = lines[-1]
    assert last[2] == last[3], "the last line has every site paired"
    assert int(last[4]) == CandidatePair.objects.filter(crawl=watched_crawl, kept=True).count()
