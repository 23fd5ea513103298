"""Each backlink provider as the crawl builds it from its config."""
import pytest

from crawlweb.models import Link
from crawlweb.jobs.crawl_control import start_crawl
from frontier.backlinks.base import RateLimited
from frontier.backlinks.factory import collect_backlinks, providers_for
from tests.discovery_integration.conftest import discovery_crawl

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_provider_answers_and_a_failing_one_is_reported(sync_jobs, through_test_web, crawl_settings, tmp_path):
    crawl = discovery_crawl(through_test_web, "fc", budget=12)
    start_crawl(crawl)
    link = Link.objects.filter(page__crawl=crawl, out_of_site=True).select_related("page").first()
    edges = tmp_path / "edges.tsv"
    edges.write_text(f"# source\ttarget\nhttp://elsewhere.example/links\t{link.target_url}\n")
    crawl.config["backlinks"] = {"providers": [
        {"kind": "graph"}, {"kind": "edge_file", "path": str(edges)},
        {"kind": "http", "url_template": "http://backlinks.test/?url={url}"},
        {"kind": "http", "url_template": "http://no-such-service.test/?url={url}"},
    ], "rate": 1000}
    providers = providers_for(crawl)
    assert [isinstance(p, RateLimited) for p in providers] == [False, False, True, True], \
        "the rate is the HTTP services' quota; the crawl's own graph and an edge file are local reads"
    graph, edge_file, http, _ = providers
    assert link.page.url in graph.backlinks(link.target_url)
    assert edge_file.backlinks(link.target_url) == ["http://elsewhere.example/links"]
    home = through_test_web.web.truth()["sites"][2]["home_urls"]
    assert http.backlinks(next(iter(home.values())))
    found, errors = collect_backlinks(providers, link.target_url)
    assert link.page.url in found and "http://elsewhere.example/links" in found
    assert len(found) == len(set(found))
    assert len(errors) == 1 and "502" in errors[0], "the unreachable service is reported, not raised"


def test_the_crawls_own_graph_is_asked_without_waiting_for_the_http_services_rate(sync_jobs, through_test_web,
                                                                                   crawl_settings, tmp_path):
    import time

    crawl = discovery_crawl(through_test_web, "fc", budget=12)
    start_crawl(crawl)
    link = Link.objects.filter(page__crawl=crawl, out_of_site=True).select_related("page").first()
    crawl.config["backlinks"] = {"providers": [
        {"kind": "graph"}, {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}], "rate": 0.01}
    graph, http = providers_for(crawl)  # one HTTP call per 100 s
    started = time.monotonic()
    for _ in range(5):
        assert link.page.url in graph.backlinks(link.target_url)
    assert time.monotonic() - started < 60, "five graph reads took no turn of the quota (each would wait 100 s)"
    assert http.bucket.try_acquire() and not http.bucket.try_acquire(), "the HTTP service's one call is still there"
