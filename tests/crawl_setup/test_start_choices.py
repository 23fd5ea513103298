"""Starting a crawl from the dashboard's New crawl form and from `crawl start`: the same choices,
the same presets, the same one-line errors, and nothing created when a value is bad."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from console.crawl_setup.presets import PRESETS
from crawlweb.models import Crawl, SeedList

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sync_crawls(settings, crawl_settings, through_test_web, empty_queues):
    """Crawls run to their end inside the request or command that starts them, on the test web."""
    settings.REDIS_URL = None
    settings.JOBS_INPROCESS_MODE = "sync"
    truth = through_test_web.web.truth()
    return [next(iter(s["home_urls"].values())) for s in truth["sites"] if s["bilingual_sr_en"]][:1]


def run(*args) -> str:
    out = StringIO()
    call_command("crawl", "start", *args, stdout=out, stderr=out)
    return out.getvalue()


def post_form(client, **fields):
    data = {"name": "from the form", "strategy": "bfs", "pair": "sr-en", "page_budget": "1000",
            "parallel_steps": "1", "follow_out_of_site": "on", "weight_m01": "3", "weight_m03": "1",
            "topic_cutoff": "10", **fields}
    return client.post("/crawls/new/", data)


def preset_fields(client, slug: str) -> dict:
    """What the browser sends after picking the preset: the form as the server filled it."""
    response = client.get("/crawls/new/", {"preset": slug}, HTTP_HX_REQUEST="true")
    form = response.context["form"]
    return {name: form[name].value() for name in form.fields if form[name].value() not in (None, "")}


@pytest.mark.parametrize("preset", PRESETS, ids=[p.slug for p in PRESETS])
def test_each_preset_starts_the_same_crawl_from_the_form_and_from_the_command(preset, admin_client, sync_crawls):
    fields = preset_fields(admin_client, preset.slug)
    fields.update(name="form", start_urls=sync_crawls[0], page_budget="3", host_interval="0")
    fields.pop("follow_out_of_site", None)  # an unticked box is not sent: in-site only, like --in-site-only
    response = admin_client.post("/crawls/new/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    run("--preset", preset.name, "--name", "command", "--url", sync_crawls[0], "--budget", "3",
        "--host-interval", "0", "--in-site-only", "--no-wait")
    from_form, from_command = Crawl.objects.get(name="form"), Crawl.objects.get(name="command")
    assert from_form.strategy == from_command.strategy == preset.values["strategy"]
    assert from_form.config == from_command.config
    assert (from_command.source_language, from_command.target_language) == ("sr", "en")
    assert not from_form.follow_out_of_site and not from_command.follow_out_of_site
    for crawl in (from_form, from_command):
        assert crawl.state == Crawl.State.FINISHED, crawl.last_error
        assert crawl.pages_fetched == 3 and crawl.status_message.startswith("page budget spent"), crawl.status_message


def test_presets_fill_the_method_fields_they_name(admin_client):
    barbosa = preset_fields(admin_client, "barbosa-cobfc")
    assert barbosa["strategy"] == "cobfc" and barbosa["backlink_providers"] == ["graph"]
    layered = preset_fields(admin_client, "layered-m01-m03")
    assert layered["strategy"] == "bfs" and layered["modules"] == ["M01", "M03"]
    focused = preset_fields(admin_client, "combine-focused")
    assert focused["strategy"] == "focc" and "srpski=LANG" in focused["topic_definition"]
    # Without JavaScript: the "Fill" button sends the form by GET; what was typed stays.
    page = admin_client.get("/crawls/new/", {"preset": "combine-focused", "name": "mine", "page_budget": "77"})
    assert page.context["form"]["name"].value() == "mine" and page.context["form"]["page_budget"].value() == "77"
    assert page.context["form"]["strategy"].value() == "focc"


def test_flags_choose_cobfc_with_m01_and_m03_for_a_pair(sync_crawls, settings):
    settings.JOBS_INPROCESS_MODE = "thread"  # started, not run: the configuration is what is checked
    output = run("--strategy", "cobfc", "--modules", "M01,M03", "--weights", "M01=4,M03=1", "--pair", "sr-en",
                 "--backlinks", "graph,http", "--backlink-url-template", "http://backlinks.test/?url={url}",
                 "--url", sync_crawls[0], "--budget", "20", "--time-limit", "600", "--no-wait")
    crawl = Crawl.objects.get()
    crawl_control_stop(crawl)
    assert crawl.strategy == "cobfc" and crawl.time_limit_seconds == 600
    assert crawl.config["modules"] == {"M01": {"pair": "sr-en"}, "M03": {}}
    assert crawl.config["priority"] == {"module_weights": {"M01": 4.0, "M03": 1.0}}
    assert [p["kind"] for p in crawl.config["backlinks"]["providers"]] == ["graph", "http"]
    assert "Module M01: on, weight 4" in output and "Barbosa et al. 2011" in output


def test_a_config_file_is_a_preset_plus_fields_and_flags_win(tmp_path, sync_crawls, settings):
    settings.JOBS_INPROCESS_MODE = "thread"
    path = tmp_path / "crawl.json"
    path.write_text(json.dumps({"preset": "Layered M01+M03", "modules": ["M01"], "page_budget": 50,
                                "extra_config": {"random_seed": 7}}))
    run("--config", str(path), "--budget", "30", "--url", sync_crawls[0], "--no-wait")
    crawl = Crawl.objects.get()
    crawl_control_stop(crawl)
    assert crawl.page_budget == 30
    assert crawl.config["modules"] == {"M01": {"pair": "sr-en"}} and crawl.config["random_seed"] == 7


def crawl_control_stop(crawl):
    """Stop the crawl the command started in the background, unless it already finished: its job thread
    may spend a small budget on the tiny web before the test gets here."""
    from crawlweb.jobs.crawl_control import CrawlStateError, stop_crawl

    try:
        stop_crawl(crawl)
    except CrawlStateError:
        crawl.refresh_from_db()
        assert crawl.state == Crawl.State.FINISHED, (crawl.state, crawl.last_error)


# (form fields, command flags, the error line both must show)
BAD_VALUES = [
    ({"page_budget": "0"}, ["--budget", "0"], "page_budget: Ensure this value is greater than or equal to 1."),
    ({"pair": "de-fr"}, ["--pair", "de-fr"], "pair: no language data for de-fr (pairs with data: hr-en, sr-en)"),
    ({"strategy": "dfs"}, ["--strategy", "dfs"], "strategy: Select a valid choice. dfs is not one of the available"),
    ({"modules": ["M02"]}, ["--modules", "M02"], "modules: Select a valid choice. M02 is not one of the available"),
    ({"strategy": "focc"}, ["--strategy", "focc"], "topic_definition: FocC needs a topic definition"),
    ({"backlink_providers": ["graph"]}, ["--backlinks", "graph"], "backlink_providers: only OBFC and COBFC use "
                                                                   "backlinks, not bfs"),
    ({"strategy": "obfc", "edge_file": "/nonexistent/edges.tsv"},
     ["--strategy", "obfc", "--edge-file", "/nonexistent/edges.tsv"], "edge_file: no such file '/nonexistent/edges.tsv'"),
    ({"host_interval": "-1"}, ["--host-interval", "-1"], "host_interval: Ensure this value is greater than or equal to 0."),
    ({"time_limit": "0"}, ["--time-limit", "0"], "time_limit: Ensure this value is greater than or equal to 1."),
    ({"address_policy": "anywhere"}, ["--address-policy", "anywhere"], "address_policy: Select a valid choice."),
    ({"modules": ["M01"], "weight_m01": "0"}, ["--modules", "M01", "--weights", "M01=0"],
     "weight_m01: Ensure this value is greater than or equal to 0.001."),
    ({"modules": ["M01"], "pair": "hr-en"}, ["--modules", "M01", "--pair", "hr-en"],
     "modules: Hunspell dictionary hr_HR for language 'hr' is missing"),  # the field named once
    ({"extra_config": '{"detector": {"min_likelihood": 2}}'}, None, "extra_config: detector: must be {min_likelihood"),
    ({"extra_config": '{"modules": {}}'}, None, "extra_config: modules: set with the form's own fields, not here"),
    ({"start_urls": "ftp://x.rs/"}, ["--url", "ftp://x.rs/"], "start_urls: line 1: "),
]


@pytest.mark.parametrize("fields,flags,line", BAD_VALUES, ids=[b[2].split(":")[0] + str(i) for i, b in
                                                               enumerate(BAD_VALUES)])
def test_a_bad_value_gets_the_same_one_line_error_from_both_and_creates_nothing(
        fields, flags, line, admin_client, tmp_path):
    start = {"start_urls": "http://www.primer.rs/"}
    response = post_form(admin_client, **{**start, **fields})
    assert response.status_code == 400
    shown = [l for l in response.context["error_lines"] if l.startswith(line)]
    assert shown, response.context["error_lines"]
    if flags is None:  # a JSON setting: the command takes it from a --config file
        path = tmp_path / "c.json"
        path.write_text(json.dumps({"extra_config": json.loads(fields["extra_config"])}))
        flags = ["--config", str(path)]
    with pytest.raises(CommandError) as error:
        run(*(["--url", "http://www.primer.rs/"] if "--url" not in flags else []), *flags)
    assert shown[0] in str(error.value).splitlines(), str(error.value)
    assert not Crawl.objects.exists()
    assert not SeedList.objects.exists()


def test_the_command_names_an_unknown_preset_and_a_bad_config_file(tmp_path):
    with pytest.raises(CommandError, match=r'preset: no preset named .Combine. \(presets: "Barbosa COBFC"'):
        run("--preset", "Combine", "--url", "http://www.primer.rs/")
    bad = tmp_path / "bad.json"
    bad.write_text('{"strategy": "cobfc", "budget": 3}')
    with pytest.raises(CommandError, match="config: unknown keys budget in"):
        run("--config", str(bad), "--url", "http://www.primer.rs/")
    with pytest.raises(CommandError, match="config: cannot read"):
        run("--config", str(tmp_path / "none.json"), "--url", "http://www.primer.rs/")
    with pytest.raises(CommandError, match="seed_list: give a seed list or start URLs"):
        run("--strategy", "fc")
    assert not Crawl.objects.exists()
