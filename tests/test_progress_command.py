"""`crawl start` followed in a log (not a terminal): plain progress lines of a real short crawl of the
test web, pages against the budget, rate, bilingual sites and ETA, ending with the finished state."""
import io
import re

import pytest
from django.core.management import call_command

from crawlweb.models import Crawl

pytestmark = pytest.mark.django_db(transaction=True)
LINE = re.compile(r"^crawl (\d+): pages (\d+)/12 \((\d+)%\), (\d+\.\d)/min, bilingual sites (\d+), ETA (\S+), (\w+)$")


def test_a_followed_crawl_writes_plain_progress_lines_when_not_on_a_terminal(settings, crawl_settings,
                                                                              through_test_web):
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"  # the crawl runs beside the command, which follows it
    settings.PROGRESS_LINE_SECONDS = 0.5
    out = io.StringIO()
    call_command("crawl", "start", "--url", "http://www.primer.rs/", "--budget", "12", "--in-site-only",
                 "--host-interval", "0.3", stdout=out)
    text = out.getvalue()
    assert "\r" not in text, "a log gets whole lines"
    lines = [LINE.match(line) for line in text.splitlines() if line.startswith("crawl ") and "/min" in line]
    assert all(lines) and len(lines) >= 3, text
    crawl = Crawl.objects.get()
    assert {int(m[1]) for m in lines} == {crawl.pk}
    pages = [int(m[2]) for m in lines]
    assert pages == sorted(pages), "pages never go back"
    assert any(0 < n < 12 and m[7] == "running" for n, m in zip(pages, lines)), "lines while it runs"
    last = lines[-1]
    assert (int(last[2]), last[3], last[6], last[7]) == (crawl.pages_fetched, "100", "0:00", "finished")
    assert float(last[4]) > 0
    assert f"pages fetched: {crawl.pages_fetched}/12" in text, "the summary follows"
