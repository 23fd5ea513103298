"""The inputs a probe found answering 500 or creating useless crawls: each is now a clear message."""
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from crawlweb.models import Crawl, Seed, SeedList
from evaluation.models import CandidatePair
from frontier.models import Target

pytestmark = pytest.mark.django_db
LONG_URL = "http://long.example.rs/" + "a" * 5000


def crawl_change(admin_client, crawl, config_text):
    url = reverse("admin:crawlweb_crawl_change", args=[crawl.pk])
    form = {"name": crawl.name, "strategy": crawl.strategy, "state": crawl.state, "page_budget": 10,
            "pages_fetched": 0, "source_language": "sr", "target_language": "en", "max_depth": 20,
            "parallel_steps": 1, "config": config_text}
    return admin_client.post(url, form)


@pytest.mark.parametrize("config_text, message", [
    ('{"host_interval": -1}', "host_interval: must be a number of seconds &gt;= 0"),
    ('{"bogus_key": 1}', "unknown keys: bogus_key"),
    ('{"host_interval": NaN}', "not a finite number at host_interval"),
    ('{"host_interval": Infinity}', "not a finite number at host_interval"),
    ('{"host_interval": 1e400}', "not a finite number at host_interval"),
    ('{"priority": {"module_weights": {"M01": -Infinity}}}', "not a finite number at priority.module_weights.M01"),
])
def test_a_bad_crawl_config_in_the_admin_is_a_form_error_not_a_500(admin_client, config_text, message):
    crawl = Crawl.objects.create(name="probe", config={"host_interval": 2})
    response = crawl_change(admin_client, crawl, config_text)
    assert response.status_code == 200
    assert message in response.content.decode()
    crawl.refresh_from_db()
    assert crawl.config == {"host_interval": 2}


def test_a_good_crawl_config_in_the_admin_is_saved(admin_client):
    crawl = Crawl.objects.create(name="probe")
    assert crawl_change(admin_client, crawl, '{"host_interval": 0.5}').status_code == 302
    crawl.refresh_from_db()
    assert crawl.config == {"host_interval": 0.5}


def test_a_seed_file_with_an_overlong_url_imports_the_rest_and_names_the_line(admin_client):
    seed_list = SeedList.objects.create(name="probe")
    content = f"http://one.example.rs/\n{LONG_URL}\nhttp://two.example.rs/\n".encode()
    response = admin_client.post(reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk]),
                                 {"file": SimpleUploadedFile("seeds.txt", content)}, follow=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert "2 seeds added" in body and "line 2: URL longer than 2000 characters (5023)" in body
    assert sorted(Seed.objects.filter(seed_list=seed_list).values_list("url", flat=True)) == [
        "http://one.example.rs/", "http://two.example.rs/"]


def run(*args):
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("flags, message", [
    (["--budget", "-5"], "page_budget: Ensure this value is greater than or equal to 1."),
    (["--budget", "0"], "page_budget: Ensure this value is greater than or equal to 1."),
    (["--budget", "99999999999999999999999"], "page_budget: Ensure this value is less than or equal to 2147483647."),
    (["--time-limit", "99999999999999999999999"], "time_limit: Ensure this value is less than or equal to"),
    (["--parallel-steps", "-1"], "parallel_steps: Ensure this value is greater than or equal to 1."),
    (["--host-interval", "nan"], "host_interval: Enter a number."),
    (["--host-interval", "inf"], "host_interval: Enter a number."),
    (["--url", "javascript:alert(1)"], "start_urls: line 2: not an http(s) URL: 'javascript:alert(1)'"),
])
def test_bad_crawl_start_values_stop_before_anything_is_created(flags, message):
    with pytest.raises(CommandError) as info:
        run("crawl", "start", "--url", "http://www.primer.rs/", "--no-wait", *flags)
    assert message in str(info.value)
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


def test_a_seed_file_that_is_not_utf8_stops_crawl_start_before_anything_is_created(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_bytes("http://www.primer.rs/čćž\n".encode("cp1250"))
    with pytest.raises(CommandError, match="no usable URL in it; nothing was created"):
        run("crawl", "start", "--seeds", str(seeds), "--no-wait")
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


def test_crawl_start_imports_the_good_seed_lines_and_says_why_others_are_not_scheduled(tmp_path, settings):
    settings.JOBS_INPROCESS_MODE, settings.REDIS_URL = "sync", None
    settings.CRAWLER_ADDRESS_POLICY = "public"  # nothing is fetched: *.invalid hosts do not resolve
    seeds = tmp_path / "seeds.txt"
    over_250 = "http://three.invalid/" + "b" * 300
    seeds.write_text(f"http://one.invalid/\n{LONG_URL}\nhttp://two.invalid/\n{over_250}\n")
    crawl_control_log = StringIO()
    import logging
    handler = logging.StreamHandler(crawl_control_log)
    logging.getLogger("crawlweb.jobs.crawl_control").addHandler(handler)
    try:
        out, err = run("crawl", "start", "--seeds", str(seeds), "--no-wait", "--budget", "1")
    finally:
        logging.getLogger("crawlweb.jobs.crawl_control").removeHandler(handler)
    assert "line 2: URL longer than 2000 characters" in err
    assert "3 seeds imported" in out and "2 start URLs scheduled" in out
    assert ("1 of 3 start URLs not scheduled: 1 URL is 321 characters long, over the limit of 250"
            in crawl_control_log.getvalue())
    assert Target.objects.filter(origin=Target.Origin.SEED).count() == 2


@pytest.mark.parametrize("query", ["crawl=%C2%B2", "crawl=99999999999999999999999", "crawl=-1", "crawl=1e3"])
def test_a_bad_crawl_id_in_the_harvest_query_is_ignored(admin_client, query):
    crawl = Crawl.objects.create(name="shown")
    response = admin_client.get(f"{reverse('frontier:harvest')}?{query}&crawl={crawl.pk}")
    assert response.status_code == 200
    assert list(response.context["chosen"]) == [crawl.pk]


@pytest.mark.parametrize("path", ["/frontier/targets/99999999999999999999999/",
                                  "/pairs/crawls/99999999999999999999999/pairs/",
                                  "/frontier/crawls/99999999999999999999999/layers/"])
def test_an_id_no_table_can_hold_is_404_not_500(admin_client, path):
    assert admin_client.get(path).status_code == 404


def test_a_stored_javascript_url_is_shown_as_text_never_as_a_link(admin_client):
    from tests.labeling.conftest import make_crawl
    crawl = make_crawl(pairs=1)
    pair = CandidatePair.objects.get(crawl=crawl)
    CandidatePair.objects.filter(pk=pair.pk).update(source_url="javascript:alert(1)")
    page = pair.source_page
    target = Target.objects.create(crawl=crawl, url="javascript:alert(2)", host=page.host, site=page.site)
    pairs_page = admin_client.get(reverse("evaluation:pairs", args=[crawl.pk])).content.decode()
    target_page = admin_client.get(reverse("frontier:target", args=[target.pk])).content.decode()
    assert "javascript:alert(1)" in pairs_page and 'href="javascript:' not in pairs_page
    assert f'href="{pair.target_url}"' in pairs_page  # an http URL stays a link
    assert "javascript:alert(2)" in target_page and 'href="javascript:' not in target_page
