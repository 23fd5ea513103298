"""The operator's journey on the command line: `crawl start --strategy cobfc --modules M01,M03 --pair sr-en`
stores the configuration the dashboard's New crawl form stores for the same choices, follows the crawl to
its end with plain progress lines, finds the bilingual sites, and `export` writes every file, each read by
the tool that would read it downstream."""
import re
from io import StringIO

import pytest
from django.core.management import call_command

from crawlweb.jobs.queueing import wait_for_in_process_jobs
from crawlweb.models import Crawl
from evaluation.models import CandidatePair
from frontier.models import SiteVerdict
from tests.crawl_setup.test_start_choices import preset_fields
from tests.evaluation_integration.helpers import home_urls, pick_sites, site_name_of
from tests.exports_integration import validators

pytestmark = pytest.mark.django_db(transaction=True)
KINDS = [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"), ("mono-sr-cyrl", "single")]


@pytest.fixture
def three_sites(settings, crawl_settings, through_test_web, empty_queues):
    """Two bilingual test-web sites and a Serbian-only one; jobs on an in-process thread, as embedded."""
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "thread"
    sites = pick_sites(through_test_web.web.truth(), KINDS)
    yield sites
    assert wait_for_in_process_jobs(120), "the crawls' jobs ended"


def _url_rules(sites) -> str:
    return "allow HOST:^(" + "|".join(re.escape(h) for s in sites for h in sorted(s["hosts"])) + ")$"


def _bilingual(crawl) -> set[str]:
    return set(SiteVerdict.objects.filter(crawl=crawl, bilingual=True).values_list("site__name", flat=True))


def test_crawl_start_with_flags_is_the_form_s_cobfc_crawl_and_its_exports_validate(
        three_sites, admin_client, tmp_path):
    rules = tmp_path / "rules.txt"
    rules.write_text(_url_rules(three_sites) + "\n")
    out = StringIO()
    call_command("crawl", "start", "--strategy", "cobfc", "--modules", "M01,M03", "--pair", "sr-en",
                 *[arg for url in home_urls(three_sites) for arg in ("--url", url)], "--url-rules", str(rules),
                 "--budget", "60", "--host-interval", "0", "--name", "command", stdout=out, stderr=out)
    assert wait_for_in_process_jobs(120), "the crawl's follow-ups (pairs, verdicts) ended"
    command = Crawl.objects.get(name="command")
    printed = out.getvalue()
    # Followed to its end: plain progress lines (not a terminal), the last one saying how it ended.
    progress = [line for line in printed.splitlines() if line.startswith(f"crawl {command.pk}: pages ")]
    assert progress and progress[-1].endswith("finished"), printed
    assert "Barbosa et al. 2011" in printed and "Module M03: on" in printed

    # The same choices on the dashboard: the Barbosa COBFC preset, then M01 and M03 ticked.
    fields = preset_fields(admin_client, "barbosa-cobfc")
    fields.update(name="form", modules=["M01", "M03"], start_urls="\n".join(home_urls(three_sites)),
                  url_rules=_url_rules(three_sites), page_budget="60", host_interval="0")
    response = admin_client.post("/crawls/new/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert wait_for_in_process_jobs(120)
    form = Crawl.objects.get(name="form")
    assert form.config == command.config
    assert (form.strategy, form.page_budget, form.follow_out_of_site, form.source_language, form.target_language) \
        == (command.strategy, command.page_budget, command.follow_out_of_site, "sr", "en") \
        == ("cobfc", 60, True, "sr", "en")
    assert command.config["modules"] == {"M01": {"pair": "sr-en"}, "M03": {}}
    assert command.config["backlinks"] == {"providers": [{"kind": "graph"}]}, "COBFC's default provider, stored"

    truly_bilingual = {site_name_of(s) for s in three_sites if s["bilingual_sr_en"]}
    for crawl in (command, form):
        crawl.refresh_from_db()
        assert crawl.state == Crawl.State.FINISHED, (crawl.state, crawl.last_error)
        assert _bilingual(crawl) == truly_bilingual, crawl.name

    def export(fmt: str, *flags) -> bytes:
        path = tmp_path / f"export-{fmt}"
        call_command("export", str(command.pk), "--format", fmt, "--output", str(path), *flags, stdout=StringIO())
        return path.read_bytes()

    sites_csv = validators.read_sites_csv(export("sites-csv"))
    assert {r["site"] for r in sites_csv if r["verdict"] == "bilingual"} == truly_bilingual
    assert {r["site"] for r in validators.read_json(export("sites-json"))} == {r["site"] for r in sites_csv}
    pairs = validators.read_pairs_tsv(export("pairs-tsv"))
    assert len(pairs) == CandidatePair.objects.filter(crawl=command).count() > 0
    kept = validators.read_pairs_tsv(export("pairs-tsv", "--kept-only"))
    assert kept and {r["verdict"] for r in kept} == {"kept"}
    units = validators.read_tmx(export("pairs-tmx"))
    assert units and {(u["x-source-url"], u["x-target-url"]) for u in units} == \
        {(r["src_url"], r["trg_url"]) for r in kept}
    assert validators.read_segments_tsv(export("segments-tsv"))
    warc = validators.read_warc(export("warc"))
    assert len({uri for kind, uri in warc if kind == "response"}) >= command.pages_fetched > 0
    records = export("jsonl").decode("utf-8").splitlines()
    assert len(records) == command.pages.count() and all(validators.read_json(r.encode())["url"] for r in records)
