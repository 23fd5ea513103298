"""The web fuzzer (issue 34): Hypothesis generates small webs of hostile answers (crawlweb/testweb/fuzz.py,
fuzz_strategies.py), the test web serves them, and a real crawl of each must end (finished: budget spent
or frontier empty), store no content twice, and leave every Target in a recorded state.

A fixed seed (derandomize) and few examples keep it repeatable and within a minute; bench/hardening.py
runs the same property over ten thousand cases and more (docs/fuzzing.md).
"""
import pytest
from hypothesis import HealthCheck, example, given, settings as hypothesis_settings

from bench.support.fuzz_crawl import FUZZ_SETTINGS, crawl_fuzz_web
from crawlweb.testweb.fuzz import FuzzAnswer, FuzzHost, FuzzWeb, render
from crawlweb.testweb.fuzz_strategies import fuzz_webs

pytestmark = pytest.mark.django_db(transaction=True)

# One web that holds the findings the fuzzer was built after: a Crawl-delay of 1e300, links and
# redirects to invalid ports and IPv6 literals, other schemes, an odd status, a Content-Length lie.
KNOWN_HOSTILE = FuzzWeb(hosts=(
    FuzzHost(robots=FuzzAnswer(content_type="text/plain", body="robots",
                               robots_lines=("User-agent: *", "Crawl-delay: 1e300", "Disallow: /%zz")),
             pages=(FuzzAnswer(links=("http://{h1}:99999/", "http://{h1}:abc/", "http://[::1]:99999/",
                                      "javascript:alert(1)", "/p1.html", "http://{h1}/")),
                    FuzzAnswer(status=302, location="http://{h1}:abc/"))),
    FuzzHost(robots=None,
             pages=(FuzzAnswer(links=("/p1.html", "/p2.html", "/p3.html")), FuzzAnswer(status=999),
                    FuzzAnswer(length="more"),
                    FuzzAnswer(encoding="invalid", charset="bogus-1e300", bom=True, location="http://[::1]:abc/"))),
))


def assert_the_crawl_held(result):
    assert result.stopped == [], result.stopped
    assert result.problems == [], result.problems
    assert result.lost == 0


@hypothesis_settings(derandomize=True, max_examples=5, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))
@given(web=fuzz_webs(max_hosts=3, max_pages=3))
@example(web=KNOWN_HOSTILE)  # besides the drawn webs, always the findings the fuzzer was built after
def test_every_generated_hostile_web_is_crawled_to_a_recorded_end(fuzz_settings, web):
    result = crawl_fuzz_web(fuzz_settings, web)
    assert_the_crawl_held(result)


def test_the_known_hostile_answers_end_in_recorded_states(fuzz_settings):
    from frontier.models import Target

    result = crawl_fuzz_web(fuzz_settings, KNOWN_HOSTILE)
    assert_the_crawl_held(result)
    targets = Target.objects.filter(crawl_id=result.crawl_id)
    assert result.cases_served >= 5, [(t.url, t.state, t.error_kind, t.last_error) for t in targets]
    ends = dict(targets.values_list("url", "error_kind"))
    assert not any(url.startswith("javascript:") for url in ends)
    assert all(kind == "invalid_url" for url, kind in ends.items() if ":99999" in url)


@pytest.mark.services
def test_a_hostile_web_is_crawled_to_its_end_by_a_real_rq_worker(settings, crawl_settings, through_test_web,
                                                                  empty_queues, run_jobs):
    from crawlweb.models import Crawl

    for name, value in FUZZ_SETTINGS.items():
        setattr(settings, name, value)
    settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    fuzz = through_test_web.web.fuzz
    names = fuzz.install(KNOWN_HOSTILE)
    crawl = Crawl.objects.create(name="fuzz rq", page_budget=30, time_limit_seconds=60)
    from crawlweb.jobs.crawl_control import start_crawl

    start_crawl(crawl, extra_urls=[f"http://{name}/" for name in names])
    run_jobs()
    crawl.refresh_from_db()
    from bench.support.fuzz_crawl import FuzzCrawl, check_crawl

    result = FuzzCrawl(crawl.pk, names, 0, 0.0)
    check_crawl(crawl, result)
    fuzz.uninstall(names)
    assert_the_crawl_held(result)


def test_a_content_length_lie_closes_the_connection_and_keeps_its_lie():
    answer = FuzzAnswer(length="more", links=("http://{h1}/p1.html",))
    response = render(answer, "a.rs/", ("a.rs", "b.rs"), oversized_bytes=1024)
    body = response.read()
    assert int(response.headers["Content-Length"]) == len(body) + 100
    assert response.headers["Connection"] == "close"
    assert b'href="http://b.rs/p1.html"' in body


NUL_WEBS = {
    "robots": FuzzWeb(hosts=(FuzzHost(robots=FuzzAnswer(content_type="text/plain", body="robots",
                                                        robots_lines=("User-agent: *\x00", "Disallow: /x")),
                                      pages=(FuzzAnswer(),)),)),
    "content_type": FuzzWeb(hosts=(FuzzHost(robots=None, pages=(FuzzAnswer(content_type="text/html\x00"),)),)),
    "charset": FuzzWeb(hosts=(FuzzHost(robots=None, pages=(FuzzAnswer(charset="utf\x008"),)),)),
    "meta_charset": FuzzWeb(hosts=(FuzzHost(robots=None, pages=(FuzzAnswer(charset=None, meta_charset="utf\x008"),)),)),
    "link": FuzzWeb(hosts=(FuzzHost(robots=None, pages=(FuzzAnswer(links=("http://{h0}/\x00",)),)),)),
    "location": FuzzWeb(hosts=(FuzzHost(robots=None, pages=(FuzzAnswer(status=302, location="/p1.html\x00"),
                                                            FuzzAnswer())),)),
}


@pytest.mark.parametrize("where", NUL_WEBS)
def test_a_nul_character_stays_with_its_target(fuzz_settings, where):
    assert_the_crawl_held(crawl_fuzz_web(fuzz_settings, NUL_WEBS[where]))
