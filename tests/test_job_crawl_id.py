"""Which crawl a job belongs to: the first argument of a job function whose first parameter is crawl_id."""
from crawlweb.jobs.crawl_step import crawl_step
from crawlweb.jobs.queueing import describe_jobs, job_crawl_id
from evaluation.jobs import score_crawl, score_site
from evaluation.services.site_verdicts import combine_site_verdicts
from training.jobs import train


def test_the_crawl_jobs_name_their_crawl():
    assert job_crawl_id(score_site, (3, 12)) == 3
    assert job_crawl_id(score_crawl, (4,)) == 4
    assert job_crawl_id(combine_site_verdicts, (5,)) == 5
    assert job_crawl_id(crawl_step, (6,)) == 6


def test_other_jobs_belong_to_no_crawl():
    assert job_crawl_id(train, (3,)) is None  # a training run's id, not a crawl's
    assert job_crawl_id(print, ("x",)) is None  # no signature to read
    assert job_crawl_id(score_crawl, ()) is None
    assert job_crawl_id(score_crawl, ("3",)) is None


def test_pending_jobs_read_most_first():
    from collections import Counter

    assert describe_jobs(Counter({"score_crawl": 1, "detect_site": 3})) == "3 detect_site, 1 score_crawl"
    assert describe_jobs(Counter()) == ""
