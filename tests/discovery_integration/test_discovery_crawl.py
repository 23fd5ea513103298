"""The BS Detector and the back/forward crawl in real crawls of the test web."""
import pytest

from crawlweb.crawler.urls import site_name
from crawlweb.models import Crawl
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict, Target
from tests.discovery_integration.conftest import bilingual_homes, discovery_crawl

pytestmark = pytest.mark.django_db(transaction=True)


def truth_of(server):
    return {site_name(h): s for s in server.web.truth()["sites"] for h in s["hosts"]}


def test_obfc_stores_verdicts_with_evidence_and_crawls_back_and_forth(job_mode, through_test_web, crawl_settings,
                                                                     run_jobs):
    crawl = discovery_crawl(through_test_web, "obfc", budget=20)
    start_crawl(crawl)
    run_jobs()
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    truth = truth_of(through_test_web)
    seed_site = site_name(bilingual_homes(through_test_web)[0].split("/")[2])
    verdict = SiteVerdict.objects.get(crawl=crawl, site__name=seed_site)
    assert verdict.bilingual
    assert verdict.evidence["languages"] == ["en", "sr"]
    assert verdict.evidence["link_scores"] and verdict.evidence["page"].startswith("http://")
    fetched_for_decision = [p for p in verdict.evidence["pages"] if p["score"] >= 0.8]
    assert verdict.pages_downloaded == len(verdict.evidence["pages"]) == len(fetched_for_decision) >= 1
    # No site is called bilingual that is not (a page that timed out under load may hide a
    # bilingual one, so the other direction is not asserted here).
    decided = SiteVerdict.objects.filter(crawl=crawl).select_related("site")
    assert decided.count() >= 3
    assert all(truth[v.site.name]["bilingual_sr_en"] for v in decided if v.bilingual and v.site.name in truth)
    # Backlinks of bilingual sites were collected into the backlink queue...
    backlinks = Target.objects.filter(crawl=crawl, origin=Target.Origin.BACKLINK)
    assert backlinks.exists()
    assert verdict.evidence["backlinks_found"] >= 1 and verdict.evidence["backlink_errors"] == []
    # ...only out-of-site links were followed, and no outlink of a forward page (Targets of origin
    # "refill", added only when the queues ran dry, are frontier.strategies.refill's and tested there).
    for target in Target.objects.filter(crawl=crawl, origin=Target.Origin.FORWARD).select_related("source_page"):
        assert target.site_id != target.source_page.site_id
        source = Target.objects.filter(crawl=crawl, page=target.source_page).values_list("origin", flat=True)
        assert Target.Origin.FORWARD not in set(source), f"{target.url} came from a forward page"
    if job_mode == "sync":  # one RQ worker runs the crawl queue first; in-process the detector keeps up
        assert backlinks.filter(state=Target.State.DONE).exists()
        assert Target.objects.filter(crawl=crawl, origin=Target.Origin.FORWARD,
                                     source_page__targets__origin=Target.Origin.BACKLINK).exists()


def test_a_failing_backlink_provider_does_not_stop_the_crawl(sync_jobs, through_test_web, crawl_settings, tmp_path):
    crawl = discovery_crawl(through_test_web, "obfc", budget=12, backlinks={"providers": [
        {"kind": "http", "url_template": "http://no-such-service.test/?url={url}"},
        {"kind": "edge_file", "path": str(tmp_path / "missing.tsv")},
        {"kind": "http", "url_template": "http://backlinks.test/?url={url}"}], "rate": 1000})
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED
    verdict = SiteVerdict.objects.filter(crawl=crawl, bilingual=True).first()
    errors = verdict.evidence["backlink_errors"]
    assert len(errors) == 2 and any("502" in e for e in errors) and any("missing.tsv" in e for e in errors)
    assert verdict.evidence["backlinks_found"] >= 1, "the working provider still answered"
    assert Target.objects.filter(crawl=crawl, origin=Target.Origin.BACKLINK).exists()


def test_fc_follows_in_site_links_in_seeded_random_order(sync_jobs, through_test_web, crawl_settings):
    crawl = discovery_crawl(through_test_web, "fc", budget=15)
    start_crawl(crawl)
    forward = Target.objects.filter(crawl=crawl, origin=Target.Origin.FORWARD).select_related("source_page")
    assert any(t.site_id == t.source_page.site_id for t in forward), "FC follows links inside a site too"
    priorities = [t.priority for t in forward]
    assert all(-1 < p < 0 for p in priorities) and len(set(priorities)) > len(priorities) * 0.9
    assert not Target.objects.filter(crawl=crawl, origin=Target.Origin.BACKLINK).exists()
    assert SiteVerdict.objects.filter(crawl=crawl, bilingual=True).exists(), "FC runs the detector too"


def test_focc_follows_only_links_of_relevant_pages(sync_jobs, through_test_web, crawl_settings):
    off_topic = discovery_crawl(through_test_web, "focc", budget=10,
                                topic={"definition": "50: zzqx astronautics=SPACE", "cutoff": 10})
    start_crawl(off_topic)
    off_topic.refresh_from_db()
    # Nothing is relevant: only the two seeds are fetched, and the pages the BS Detector read to
    # judge their sites (real requests, counted like any page).
    read = sum(SiteVerdict.objects.filter(crawl=off_topic).values_list("pages_downloaded", flat=True))
    assert off_topic.pages_fetched == 2 + read
    fetched = Target.objects.filter(crawl=off_topic, fetched_at__isnull=False)
    assert fetched.filter(origin=Target.Origin.SEED).count() == 2
    assert set(fetched.values_list("origin", flat=True)) == {Target.Origin.SEED, Target.Origin.DETECTOR}
    assert not Target.objects.filter(crawl=off_topic, origin=Target.Origin.FORWARD).exists()
    on_topic = discovery_crawl(through_test_web, "focc", budget=10,
                               topic={"definition": "10: [a-z]+=ANY", "cutoff": 1})
    start_crawl(on_topic)
    on_topic.refresh_from_db()
    assert on_topic.pages_fetched == 10


def test_when_dry_a_directory_seed_is_expanded_one_level_so_the_sites_it_lists_are_reached(sync_jobs, through_test_web,
                                                                                   crawl_settings):
    # A directory's home page links only its own category pages; the sites are listed on those. When the
    # queues run dry, the refill's last stage makes those pages seeds (frontier.strategies.refill).
    truth = through_test_web.web.truth()
    directories = list(truth["seed_urls"])
    crawl = discovery_crawl(through_test_web, "obfc", budget=40, seeds=directories)
    start_crawl(crawl)
    crawl.refresh_from_db()
    seed_site_pages = Target.objects.filter(crawl=crawl, origin=Target.Origin.SEED, depth=1)
    assert seed_site_pages.exists(), "the directories' category pages become seeds"
    assert all(target.site.name in {site_name(url.split("/")[2]) for url in directories}
               for target in seed_site_pages.select_related("site"))
    assert not Target.objects.filter(crawl=crawl, origin=Target.Origin.SEED, depth__gt=1).exists(), "one level only"
    reached = set(Target.objects.filter(crawl=crawl, origin=Target.Origin.FORWARD).values_list("site__name", flat=True))
    listed_sites = {site_name(h) for s in truth["sites"] if s.get("kind") not in ("directory", "special")
                    for h in s["hosts"]}
    assert len(reached & listed_sites) >= 5, "sites listed on the category pages are queued as forward links"
    assert crawl.pages_fetched > 10
