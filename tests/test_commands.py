"""The operator's commands: crawl control, consistency check and repair, deletion, export."""
import json
import xml.etree.ElementTree as ET
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from crawlweb.models import Crawl, Host, Page, Site
from frontier.models import Target

pytestmark = pytest.mark.django_db


@pytest.fixture
def crawl_with_pages():
    site = Site.objects.create(name="primer.rs", registrable_domain="primer.rs")
    host = Host.objects.create(name="www.primer.rs", site=site)
    crawl = Crawl.objects.create(name="c", page_budget=10, pages_fetched=2)
    pages = []
    for n, (path, lang) in enumerate([("/sr/a.html", "sr"), ("/en/a.html", "en")]):
        url = f"http://www.primer.rs{path}"
        page = Page.objects.create(crawl=crawl, site=site, host=host, url=url, final_url=url, status_code=200,
                                   content_type="text/html", md5=f"{n:032x}", title=f"title {n}", language=lang,
                                   text="tekst", fetched_at=timezone.now())
        Target.objects.create(crawl=crawl, url=url, host=host, site=site, state="done", page=page, status_code=200)
        pages.append(page)
    return crawl, host, pages


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue()


def test_sanity_check_finds_and_repairs_what_a_killed_worker_leaves(crawl_with_pages):
    crawl, host, pages = crawl_with_pages
    past = timezone.now() - timedelta(minutes=5)
    Target.objects.create(crawl=crawl, url="http://www.primer.rs/x", host=host, site=host.site, state="leased",
                          lease_expires_at=past)
    Host.objects.filter(pk=host.pk).update(busy_until=past)
    with pytest.raises(CommandError, match="inconsistencies found"):
        run("cleandb", "check", str(crawl.pk))
    output = run("cleandb", "check", str(crawl.pk), "--repair")
    assert "expired leases: 1 (repaired 1)" in output
    assert Target.objects.get(url="http://www.primer.rs/x").state == "pending"
    assert Host.objects.get(pk=host.pk).busy_until is None
    assert "expired leases: 0" in run("cleandb", "check", str(crawl.pk))


def test_delete_by_path_prefix_removes_pages_and_their_targets(crawl_with_pages):
    crawl, _, pages = crawl_with_pages
    assert "deleted 1 pages and 1 targets" in run("cleandb", "delete", str(crawl.pk), "--prefix",
                                                  "http://www.primer.rs/sr/")
    assert list(Page.objects.values_list("language", flat=True)) == ["en"]
    with pytest.raises(CommandError, match="say what to delete"):
        run("cleandb", "delete", str(crawl.pk))


def test_delete_by_md5_and_by_page_id(crawl_with_pages):
    crawl, _, pages = crawl_with_pages
    run("cleandb", "delete", str(crawl.pk), "--md5", pages[0].md5)
    run("cleandb", "delete", str(crawl.pk), "--page", str(pages[1].pk))
    assert not Page.objects.exists()


def test_export_writes_json_lines_and_dublin_core(crawl_with_pages, tmp_path):
    crawl, _, _ = crawl_with_pages
    run("export", str(crawl.pk), "--format", "jsonl", "--output", str(tmp_path / "p.jsonl"))
    records = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert [r["language"] for r in records] == ["sr", "en"] and records[0]["site"] == "primer.rs"
    only_sr = run("export", str(crawl.pk), "--format", "dc", "--language", "sr")
    root = ET.fromstring(only_sr)
    assert len(root) == 1


def test_commands_name_a_missing_crawl():
    with pytest.raises(CommandError, match="no crawl with id 999"):
        run("export", "999")
    with pytest.raises(CommandError, match="no crawl with id 999"):
        run("crawl", "pause", "999")


def test_crawl_control_refuses_a_wrong_state(crawl_with_pages):
    crawl, _, _ = crawl_with_pages
    with pytest.raises(CommandError, match="cannot go to paused"):
        run("crawl", "pause", str(crawl.pk))


def test_crawl_start_reports_bad_seed_lines_and_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        run("crawl", "start", "--seeds", str(tmp_path / "none.txt"))
    with pytest.raises(CommandError, match="bad crawl configuration"):
        run("crawl", "start", "--url", "http://www.primer.rs/", "--host-interval", "-1")
