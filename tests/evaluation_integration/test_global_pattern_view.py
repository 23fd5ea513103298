"""A scoring job reads the global pattern rows it uses (the top ones, its sites' own), not every row of the crawl."""
import pytest

from crawlweb.models import Crawl, Site
from evaluation.models import SiteCredibility, UrlPattern
from evaluation.pairing.patterns import top_global_patterns
from evaluation.services.global_patterns import GlobalPatternView, global_patterns

pytestmark = pytest.mark.django_db


def crawl_with_global_rows(credibilities: list[float | None]) -> Crawl:
    """A crawl whose global rows are ⟨s{i}, t{i}⟩ with these Σ N·C (two sites each, 1,000 pages scored)."""
    crawl = Crawl.objects.create(name="patterns", page_budget=10)
    site = Site.objects.create(name="primer.rs")
    SiteCredibility.objects.create(crawl=crawl, site=site, pages=1000)
    UrlPattern.objects.bulk_create([
        UrlPattern(crawl=crawl, site=None, source_unit=f"s{i}", target_unit=f"t{i}", frequency=i + 1,
                   pages_matched=2 * (i + 1), sites=2 + i % 3, global_credibility_unnormalized=value,
                   examples=[[f"/s{i}.html", f"/t{i}.html"]])
        for i, value in enumerate(credibilities)])
    return crawl


def test_the_view_ranks_as_all_the_rows_do_and_reads_only_the_top_the_ties_and_what_is_asked():
    # 60 rows; the 10th and 11th-13th are tied (40.0), so the top 10 need them all to break the tie by sites
    values = [100.0 - i for i in range(9)] + [40.0] * 4 + [float(i) for i in range(30, 0, -1)] + [None] * 17
    crawl = crawl_with_global_rows(values)
    every = global_patterns(crawl.pk)
    view = GlobalPatternView(crawl.pk, top=10)
    for n in (1, 5, 10):
        assert top_global_patterns(view, n) == top_global_patterns(every, n)
    assert len(view) == 13, "the top 10 and the three rows tied with the 10th, no other"
    low = ("s40", "t40")  # credibility 3.0: read when a site of the job has it
    assert view.get(low) is None
    view.want([low, ("nowhere", "en")])
    assert view.get(low) == every[low] and view.get(("nowhere", "en")) is None
    assert view[("s0", "t0")].credibility == pytest.approx(100.0 / 1000)


def test_with_fewer_credible_rows_than_the_top_every_row_is_read():
    crawl = crawl_with_global_rows([5.0, 3.0, None])
    view = GlobalPatternView(crawl.pk, top=10)
    assert dict(view) == global_patterns(crawl.pk)
