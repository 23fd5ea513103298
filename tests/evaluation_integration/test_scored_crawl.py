"""What a user finds after crawling five test-web sites: patterns, credibility, pairs, variants, checks.

All tests read one crawl (conftest.crawled), scored by the follow-up jobs while it ran.
"""
import json
import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from crawlweb.crawler.urls import normalize_url
from crawlweb.models import Crawl, Host, Page
from crawlweb.services import leasing
from crawlweb.services.crawl_config import CrawlConfig
from evaluation.models import (
    CandidatePair,
    DeepCheck,
    DiscoveredSite,
    ScriptVariant,
    SiteCredibility,
    UrlPattern,
    total_scored_pages,
)
from evaluation.services import deep, scoring
from frontier.models import Target
from tests.evaluation_integration.helpers import site_name_of, truth_pairs

pytestmark = pytest.mark.django_db


def _site(crawled, kind, layout):
    return next(s for s in crawled.sites if s["kind"] == kind and s["layout"] == layout)


def test_each_site_has_its_url_convention_as_best_pattern(crawled):
    best = {c.site.name: c.best_pattern for c in SiteCredibility.objects.filter(crawl_id=crawled.crawl_id)}
    assert best[site_name_of(_site(crawled, "bilingual-sr-en", "dirs"))] == "⟨srpski, english⟩"
    assert best[site_name_of(_site(crawled, "bilingual-sr-en", "subdomain"))] == "⟨ε, en⟩", "www.x.rs ↔ en.x.rs"
    assert best[site_name_of(_site(crawled, "bilingual-sr-en", "suffix-dot"))] == "⟨sr, en⟩"
    assert best[site_name_of(_site(crawled, "bilingual-sr-en", "query"))] == "⟨sr, en⟩"
    assert best[site_name_of(_site(crawled, "sr-cyrl-latn", "dirs"))] == "", "no sr–en pattern on an sr-only site"
    assert len(best) == len(crawled.sites), "www.x.rs and en.x.rs are one site, stored once"


def test_stored_credibilities_follow_def_3_4_and_5_from_the_stored_counts(crawled):
    credibilities = list(SiteCredibility.objects.filter(crawl_id=crawled.crawl_id).select_related("site"))
    for credibility in credibilities:
        stored = Page.objects.filter(crawl_id=crawled.crawl_id, site__registrable_domain=credibility.site.name,
                                     status_code=200).count()
        assert credibility.pages == stored, "|w| counts the pages of every host of the site"
        rows = UrlPattern.objects.filter(crawl_id=crawled.crawl_id, site=credibility.site)
        for row in rows:  # Def. 3: C(k, w) = N(k, w)/|w| with N = 2·p
            assert row.pages_matched == 2 * row.frequency
            assert row.local_credibility == pytest.approx(2 * row.frequency / stored)
        assert credibility.credibility == pytest.approx(max((r.local_credibility for r in rows), default=0.0))
    total = sum(c.pages for c in credibilities)
    globals_ = UrlPattern.objects.global_rows(crawled.crawl_id)
    assert globals_.exists() and total_scored_pages(crawled.crawl_id) == total
    for glob in globals_:  # Def. 4
        per_site = UrlPattern.objects.filter(crawl_id=crawled.crawl_id, site__isnull=False,
                                             source_unit=glob.source_unit, target_unit=glob.target_unit)
        weighted = sum(r.pages_matched * r.local_credibility for r in per_site)
        assert glob.global_credibility_unnormalized == pytest.approx(weighted)
        assert glob.global_credibility == pytest.approx(weighted / total)
        assert glob.sites == per_site.count()
    top = globals_.order_by("-global_credibility_unnormalized").first()
    assert top.label == "⟨sr, en⟩" and top.sites == 2


def test_kept_pairs_are_each_sites_true_pairs_tagged_by_the_methods_that_found_them(crawled):
    for site in crawled.sites[:4]:
        pairs = CandidatePair.objects.filter(crawl_id=crawled.crawl_id, site__name=site_name_of(site))
        kept = pairs.filter(kept=True)
        assert {frozenset((p.source_url, p.target_url)) for p in kept} == truth_pairs(site), site["host"]
        for pair in kept:
            assert "local" in pair.methods, "a site with a URL convention pairs its pages by pattern"
            assert pair.has_pattern or pair.method in ("hreflang", "switch")
            assert (pair.source_language, pair.target_language) == ("sr", "en") and pair.languages_confirmed
            assert pair.similarity > 0
        if site["hreflang"]:
            assert all("hreflang" in p.methods for p in kept), "declared alternates are a method of their own"
        assert all(p.reason for p in pairs), "every verdict says why"
        half = {frozenset(normalize_url(u) for u in p) for p in site["half_translated_pairs"]}
        assert not half & {frozenset((p.source_url, p.target_url)) for p in kept}


def test_cyrillic_and_latin_pages_of_one_text_are_script_variants_never_pairs(crawled):
    site = _site(crawled, "sr-cyrl-latn", "dirs")
    truth = {frozenset(normalize_url(u) for u in p) for p in site["other_language_pairs"]}
    variants = {frozenset((v.latin_url, v.cyrillic_url))
                for v in ScriptVariant.objects.filter(crawl_id=crawled.crawl_id, site__name=site_name_of(site))}
    assert variants == truth
    assert not CandidatePair.objects.filter(crawl_id=crawled.crawl_id, site__name=site_name_of(site)).exists()
    serbian_both = [p for p in CandidatePair.objects.filter(crawl_id=crawled.crawl_id)
                    if p.source_language == p.target_language == "sr"]
    assert not serbian_both


def test_the_filter_stores_why_it_removed_a_pair(crawled):
    site = _site(crawled, "bilingual-sr-en", "suffix-dot")
    pair = CandidatePair.objects.filter(crawl_id=crawled.crawl_id, site__name=site_name_of(site), kept=True).first()
    Page.objects.filter(pk=pair.target_page_id).update(text="Contact")  # the English page lost its body
    scoring.score_site(crawled.crawl_id, pair.site_id)
    pair.refresh_from_db()
    assert not pair.kept
    assert pair.reason.startswith("text-length ratio") and pair.scores["length_ratio"] < 0.33


def test_rescoring_a_site_whose_pages_did_not_change_rewrites_none_of_its_pairs(crawled):
    site = _site(crawled, "bilingual-sr-en", "dirs")
    site_id = CandidatePair.objects.filter(crawl_id=crawled.crawl_id, site__name=site_name_of(site)).first().site_id
    scoring.score_site(crawled.crawl_id, site_id)
    before = list(CandidatePair.objects.filter(site_id=site_id).order_by("pk").values())
    with CaptureQueriesContext(connection) as queries:
        scoring.score_site(crawled.crawl_id, site_id)
    table = CandidatePair._meta.db_table
    assert not [q["sql"] for q in queries if q["sql"].startswith(f'UPDATE "{table}"')]
    assert list(CandidatePair.objects.filter(site_id=site_id).order_by("pk").values()) == before


def test_rescoring_twice_duplicates_nothing(crawled):
    def snapshot():
        return (sorted(CandidatePair.objects.filter(crawl_id=crawled.crawl_id).values_list("pk", "kept", "method")),
                UrlPattern.objects.filter(crawl_id=crawled.crawl_id).count(),
                sorted(ScriptVariant.objects.filter(crawl_id=crawled.crawl_id).values_list("pk", flat=True)),
                SiteCredibility.objects.filter(crawl_id=crawled.crawl_id).count(),
                DeepCheck.objects.filter(crawl_id=crawled.crawl_id).count())

    scoring.score_crawl(crawled.crawl_id)
    first = snapshot()
    scoring.score_crawl(crawled.crawl_id)
    assert snapshot() == first
    assert first[3] == len(crawled.sites)


def test_deep_guesses_are_checked_through_the_polite_fetcher_and_recorded(crawled):
    checks = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=False)
    assert checks.exists()
    heads = {(r.method, r.url) for r in crawled.requests}
    for check in checks.filter(outcome__startswith="HEAD"):
        assert ("HEAD", check.guessed_url) in heads
        assert check.exists == (200 <= check.status_code < 300)
    orphans = {normalize_url(u) for s in crawled.sites[:4] for u in s["orphan_pages"]}
    assert orphans & set(checks.values_list("page_url", flat=True)), "pages without counterpart get guesses"
    assert not checks.filter(exists=True, page_url__in=orphans).exists(), "an orphan's counterpart does not exist"


def test_a_deep_check_waits_while_another_worker_holds_the_host_and_frees_it_after(
        crawled, test_web_server, monkeypatch):
    """The HEAD of a deep check is a request to the host like any other: it claims the host as a
    crawl step's lease does, so it never runs beside another worker's request."""
    monkeypatch.setattr(leasing, "EXTRA_WAIT_S", 0.3)
    check = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD").first()
    assert check is not None
    DeepCheck.objects.filter(pk=check.pk).update(checked_at=None, outcome="", exists=None)
    check.refresh_from_db()
    crawl = Crawl.objects.get(pk=crawled.crawl_id)
    config = CrawlConfig.for_crawl(crawl)
    host = Host.objects.get(name=urlsplit(check.guessed_url).hostname)
    leased_until = timezone.now() + timedelta(seconds=120)
    Host.objects.filter(pk=host.pk).update(busy_until=leased_until, next_fetch_at=None)  # a worker's lease
    served = len(test_web_server.requests)

    wait = deep.check_one(crawl, check, config)
    check.refresh_from_db()
    assert check.checked_at is None and 100 < wait <= 120, "passed over, with the time the host is held for"
    assert [r.url for r in test_web_server.requests[served:]] == [], "no request while the host is held"

    Host.objects.filter(pk=host.pk).update(busy_until=None)  # that worker's request is over
    deep.check_one(crawl, check, config)
    check.refresh_from_db()
    assert check.outcome.startswith("HEAD") and check.checked_at is not None
    assert [(r.method, r.url) for r in test_web_server.requests[served:]] == [("HEAD", check.guessed_url)]
    host.refresh_from_db()
    assert host.busy_until is None and host.next_fetch_at is not None, "freed, its clock moved on"


def test_a_deep_check_job_takes_turns_between_hosts_and_passes_over_a_held_one(crawled, test_web_server):
    """A job checks several sites' guesses in turns: a host held by another worker is passed over, the
    other site's guess is checked meanwhile, and the held site leaves the job at once instead of the
    job sleeping out the hold (its time limit is a minute, its patience for idle hosts MAX_IDLE_SECONDS);
    the guess left says why and waits for the site's next claim."""
    # two sites with no other guess left unchecked (a guess on a host whose robots.txt the crawl never
    # fetched stays waiting): the job is then given exactly the two guesses reset here
    waiting = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=True).values("site_id")
    checked = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD").exclude(site_id__in=waiting)
    held = checked.first()
    free = checked.exclude(site_id=held.site_id).first() if held is not None else None
    assert held is not None and free is not None, "HEAD-checked guesses on two sites"
    DeepCheck.objects.filter(pk__in=[held.pk, free.pk]).update(checked_at=None, outcome="", exists=None)
    assert set(DeepCheck.objects.filter(crawl_id=crawled.crawl_id, site_id__in=[held.site_id, free.site_id],
                                        checked_at__isnull=True).values_list("pk", flat=True)) == {held.pk, free.pk}
    host = Host.objects.get(name=urlsplit(held.guessed_url).hostname)
    Host.objects.filter(pk=host.pk).update(busy_until=timezone.now() + timedelta(seconds=120), next_fetch_at=None)
    Host.objects.filter(name=urlsplit(free.guessed_url).hostname).update(busy_until=None, next_fetch_at=None)
    served = len(test_web_server.requests)

    started = time.monotonic()
    assert deep.check_deep_pages(crawled.crawl_id, [held.site_id, free.site_id], limit=10) == 1
    assert time.monotonic() - started < deep.MAX_IDLE_SECONDS, "no sleeping out the other worker's hold"
    assert [(r.method, r.url) for r in test_web_server.requests[served:]] == [("HEAD", free.guessed_url)]
    held.refresh_from_db()
    free.refresh_from_db()
    assert free.checked_at is not None and free.outcome.startswith("HEAD")
    assert held.checked_at is None and held.outcome == "waiting: host busy or its politeness clock"
    Host.objects.filter(pk=host.pk).update(busy_until=None)


@pytest.mark.services
def test_with_other_jobs_waiting_a_check_job_sets_a_polite_host_aside_and_a_step_queues_it_again(
        crawled, test_web_server, settings, empty_queues, django_capture_on_commit_callbacks):
    """A worker does not sleep out a host's politeness clock while crawl steps or scoring wait for it: the
    job ends at once, the guess set aside until the clock has run (retry_at), and a crawl step's sweep
    (evaluation.followup.after_step) queues a new check job for it once it has."""
    import django_rq

    from crawlweb.services.followups import StepResult
    from evaluation.followup import after_step
    from tests.conftest import set_job_mode

    waiting = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=True).values("site_id")
    guess = (DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD")
             .exclude(site_id__in=waiting).first())
    assert guess is not None, "a HEAD-checked guess on a site with nothing else left to check"
    DeepCheck.objects.filter(pk=guess.pk).update(checked_at=None, outcome="", exists=None, queued_at=timezone.now())
    host = Host.objects.get(name=urlsplit(guess.guessed_url).hostname)
    Host.objects.filter(pk=host.pk).update(busy_until=None, next_fetch_at=timezone.now() + timedelta(seconds=2))
    state = Crawl.objects.get(pk=crawled.crawl_id).state
    Crawl.objects.filter(pk=crawled.crawl_id).update(state=Crawl.State.RUNNING)
    set_job_mode(settings, "rq")
    score = django_rq.get_queue("score")
    score.enqueue("builtins.len", "another job waiting for the worker")
    served = len(test_web_server.requests)
    try:
        started = time.monotonic()
        assert deep.check_deep_pages(crawled.crawl_id, [guess.site_id], limit=10) == 0
        assert time.monotonic() - started < 1.5, "no sleeping out the 2 s clock"
        assert [r.url for r in test_web_server.requests[served:]] == [], "no request before the clock has run"
        guess.refresh_from_db()
        assert guess.checked_at is None and guess.queued_at is None and guess.outcome == deep.HOST_WAIT_NOTE
        assert timedelta(seconds=1) < guess.retry_at - timezone.now() <= timedelta(seconds=2.25)
        assert deep.sites_left_unchecked(crawled.crawl_id, [guess.site_id]) == [], "left to the steps' sweep"

        score.empty()
        with django_capture_on_commit_callbacks(execute=True):
            after_step(Crawl.objects.get(pk=crawled.crawl_id), StepResult(crawled.crawl_id))
        assert score.count == 0, "not queued again before the host's clock has run"
        DeepCheck.objects.filter(pk=guess.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
        with django_capture_on_commit_callbacks(execute=True):  # jobs are queued as the step's transaction commits
            after_step(Crawl.objects.get(pk=crawled.crawl_id), StepResult(crawled.crawl_id))
        jobs = score.get_jobs()
        assert [(job.func_name, job.args) for job in jobs] == [
            ("evaluation.jobs.check_deep_pages", (crawled.crawl_id, [guess.site_id]))]
        guess.refresh_from_db()
        assert guess.queued_at is not None and guess.retry_at is None, "claimed for that job, once"
        assert deep.claim_guesses_due(crawled.crawl_id) == []
    finally:
        score.empty()
        Crawl.objects.filter(pk=crawled.crawl_id).update(state=state)
        Host.objects.filter(pk=host.pk).update(next_fetch_at=None)


def test_with_no_other_job_waiting_a_check_job_waits_for_the_host_clock(crawled, test_web_server):
    """In-process queues count no waiting job (and a finished crawl has no step to sweep): the job sleeps for a
    short politeness clock and checks the guess, as a lone worker should."""
    waiting = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=True).values("site_id")
    guess = (DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD")
             .exclude(site_id__in=waiting).first())
    assert guess is not None
    DeepCheck.objects.filter(pk=guess.pk).update(checked_at=None, outcome="", exists=None)
    Host.objects.filter(name=urlsplit(guess.guessed_url).hostname).update(
        busy_until=None, next_fetch_at=timezone.now() + timedelta(seconds=1))
    served = len(test_web_server.requests)
    started = time.monotonic()
    assert deep.check_deep_pages(crawled.crawl_id, [guess.site_id], limit=10) == 1
    assert time.monotonic() - started >= 0.9, "waited for the clock"
    assert [(r.method, r.url) for r in test_web_server.requests[served:]] == [("HEAD", guess.guessed_url)]
    guess.refresh_from_db()
    assert guess.checked_at is not None and guess.retry_at is None


def test_a_guess_form_the_crawl_found_missing_nearly_every_time_is_no_longer_requested(
        crawled, test_web_server, monkeypatch, settings):
    """On a national web most sites show one language, and their guesses almost never exist: a form
    tried PAIRS_DEEP_FORM_MIN_TRIES times in the crawl that found a page at most PAIRS_DEEP_FORM_MIN_RATE
    of the time is settled without a request, saying why; below that many tries it is requested."""
    monkeypatch.setattr(deep, "FORM_RECORDS_TTL_S", 0.0)
    monkeypatch.setattr(deep, "EXPLORE_EVERY", 0)
    waiting = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=True).values("site_id")
    guess = (DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD")
             .exclude(site_id__in=waiting).first())
    assert guess is not None, "a HEAD-checked guess on a site with nothing else left to check"
    form = (guess.source_unit, guess.target_unit)
    DeepCheck.objects.filter(pk=guess.pk).update(checked_at=None, outcome="", exists=None, queued_at=None)
    record = deep.form_records(crawled.crawl_id)[form]
    Host.objects.filter(name=urlsplit(guess.guessed_url).hostname).update(busy_until=None, next_fetch_at=None)
    served = len(test_web_server.requests)

    settings.PAIRS_DEEP_FORM_MIN_TRIES, settings.PAIRS_DEEP_FORM_MIN_RATE = record.tries, record.hits / record.tries
    assert deep.check_deep_pages(crawled.crawl_id, [guess.site_id], limit=10) == 0
    guess.refresh_from_db()
    label = f"⟨{form[0] or 'ε'}, {form[1] or 'ε'}⟩"
    assert guess.outcome == f"not checked: guesses of {label} found {record.hits} of {record.tries} in this crawl"
    assert guess.checked_at is not None and guess.exists is None
    assert ("HEAD", guess.guessed_url) not in [(r.method, r.url) for r in test_web_server.requests[served:]]

    DeepCheck.objects.filter(pk=guess.pk).update(checked_at=None, outcome="", exists=None, queued_at=None)
    settings.PAIRS_DEEP_FORM_MIN_TRIES = record.tries + 1  # one try short of judging the form
    assert deep.check_deep_pages(crawled.crawl_id, [guess.site_id], limit=10) == 1
    guess.refresh_from_db()
    assert guess.outcome.startswith("HEAD")
    assert ("HEAD", guess.guessed_url) in [(r.method, r.url) for r in test_web_server.requests[served:]]


def test_discovery_ranks_linked_sites_by_the_three_measures_and_seeds_the_top_k(crawled, settings):
    settings.PAIRS_DISCOVERY_TOP_K = 2
    Crawl.objects.filter(pk=crawled.crawl_id).update(config={})  # the test crawl's url_rules would refuse them
    call_command("pairs", "discover", str(crawled.crawl_id))
    rows = list(DiscoveredSite.objects.filter(crawl_id=crawled.crawl_id).order_by("rank"))
    assert rows, "the partner pages link to other sites"
    assert [r.sum_wpr for r in rows] == sorted((r.sum_wpr for r in rows), reverse=True)
    assert all(r.sum_linkout >= 0 and r.sum_pr > 0 for r in rows)
    seeded = [r for r in rows if r.added_as_seed]
    assert [r.rank for r in seeded] == [1, 2][:len(rows)]
    for row in seeded:
        assert Target.objects.filter(crawl_id=crawled.crawl_id, origin=Target.Origin.SEED,
                                     url__contains=row.host).exists()


def test_pages_of_the_results_render_for_staff(crawled, client, django_user_model):
    client.force_login(django_user_model.objects.create_user("staff", password="x", is_staff=True))
    for name in ("overview", "patterns", "pairs", "sites", "discovered"):
        response = client.get(f"/pairs/crawls/{crawled.crawl_id}/{'' if name == 'overview' else name + '/'}")
        assert response.status_code == 200, name
    pairs_page = client.get(f"/pairs/crawls/{crawled.crawl_id}/pairs/?method=hreflang").content.decode()
    assert "⟨ε, en⟩" in pairs_page or "hreflang" in pairs_page
    patterns_page = client.get(f"/pairs/crawls/{crawled.crawl_id}/patterns/").content.decode()
    assert "⟨sr, en⟩" in patterns_page
    client.logout()
    assert client.get(f"/pairs/crawls/{crawled.crawl_id}/").status_code == 302, "staff only"


def test_the_score_command_prints_a_summary_per_method(crawled, capsys):
    call_command("pairs", "score", str(crawled.crawl_id))
    lines = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines()[2:] if line.strip()}
    kept = CandidatePair.objects.filter(crawl_id=crawled.crawl_id, kept=True)
    assert int(lines["all"][1]) == kept.count()
    assert int(lines["hreflang"][1]) == kept.filter(method="hreflang").count() > 0


def test_export_writes_the_kept_pairs(crawled, tmp_path):
    out = tmp_path / "pairs.jsonl"
    call_command("pairs", "export", str(crawled.crawl_id), "--format", "jsonl", "--output", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == CandidatePair.objects.filter(crawl_id=crawled.crawl_id, kept=True).count() > 0
    assert set(rows[0]) == {"source_url", "target_url", "method", "similarity"}


def test_the_crawl_wide_pass_checks_the_guesses_it_records(crawled, sync_jobs, test_web_server,
                                                            django_capture_on_commit_callbacks):
    """A guess recorded by the crawl-wide pass (not by a site's own scoring) is HEAD-checked too,
    without waiting for the site to be scored again."""
    from evaluation import jobs

    check = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, outcome__startswith="HEAD", exists=False).first()
    assert check is not None
    assert not Target.objects.filter(crawl_id=crawled.crawl_id, state=Target.State.PENDING).exists()
    check.delete()  # as if the pass were the first to guess it
    served = len(test_web_server.requests)

    with django_capture_on_commit_callbacks(execute=True):  # jobs are enqueued when the transaction commits
        jobs.score_crawl(crawled.crawl_id)

    again = DeepCheck.objects.get(crawl_id=crawled.crawl_id, page_url=check.page_url, guessed_url=check.guessed_url)
    assert again.checked_at is not None and again.outcome.startswith("HEAD") and again.exists is False, again.outcome
    assert ("HEAD", check.guessed_url) in [(r.method, r.url) for r in test_web_server.requests[served:]]
    left = DeepCheck.objects.filter(crawl_id=crawled.crawl_id, checked_at__isnull=True)
    assert all(outcome.startswith("waiting: ") for outcome in left.values_list("outcome", flat=True)), \
        "every other guess of the pass was tried (a host whose robots.txt no request has read yet waits)"
