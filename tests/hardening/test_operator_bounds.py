"""What an operator types is bounded where it enters: a host interval above an hour and crawl-config JSON
nested thousands deep are refused with a message naming the field, by the New crawl form, `crawl start`
and the admin alike; nothing is created and nothing answers 500."""
import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from console.crawl_setup.form import CrawlSetupForm
from crawlweb.models import Crawl, SeedList
from crawlweb.services.crawl_config import CrawlConfig

pytestmark = pytest.mark.django_db
DEEP = "[" * 3000 + "]" * 3000


def post_new_crawl(client, **fields):
    data = {"name": "bounds", "strategy": "bfs", "pair": "sr-en", "page_budget": "10", "parallel_steps": "1",
            "start_urls": "http://www.primer.rs/", **fields}
    return client.post("/crawls/new/", data)


def crawl_start(*flags):
    with pytest.raises(CommandError) as error:
        call_command("crawl", "start", "--url", "http://www.primer.rs/", "--no-wait", *flags,
                     stdout=StringIO(), stderr=StringIO())
    return str(error.value)


def admin_config(client, crawl, config_text):
    form = {"name": crawl.name, "strategy": crawl.strategy, "state": crawl.state, "page_budget": 10,
            "pages_fetched": 0, "source_language": "sr", "target_language": "en", "max_depth": 20,
            "parallel_steps": 1, "config": config_text}
    return client.post(reverse("admin:crawlweb_crawl_change", args=[crawl.pk]), form)


@pytest.mark.parametrize("value", ["1e308", "3601"])
def test_a_host_interval_over_an_hour_is_refused_by_the_form_and_the_command(admin_client, value):
    line = "host_interval: Ensure this value is less than or equal to 3600.0."
    response = post_new_crawl(admin_client, host_interval=value)
    assert response.status_code == 400
    assert line in response.context["error_lines"]
    assert line in crawl_start("--host-interval", value).splitlines()
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


def test_an_hour_is_still_a_host_interval_the_form_takes():
    form = CrawlSetupForm({"name": "bounds", "strategy": "bfs", "pair": "sr-en", "page_budget": "10",
                           "parallel_steps": "1", "start_urls": "http://www.primer.rs/", "host_interval": "3600"})
    assert form.is_valid(), form.errors
    assert form.config["host_interval"] == 3600


@pytest.mark.parametrize("value", [1e12, 1e308, 3600.5])
def test_the_crawl_config_refuses_a_host_interval_over_an_hour(admin_client, value):
    with pytest.raises(ValidationError, match="must be at most 3600 seconds"):
        CrawlConfig.from_dict({"host_interval": value})
    crawl = Crawl.objects.create(name="probe", config={"host_interval": 2})
    response = admin_config(admin_client, crawl, json.dumps({"host_interval": value}))
    assert response.status_code == 200
    assert f"host_interval: must be at most 3600 seconds (an hour), not {value:g}" in response.content.decode()
    crawl.refresh_from_db()
    assert crawl.config == {"host_interval": 2}


def test_crawl_config_nested_3000_deep_is_a_form_error_in_the_admin(admin_client):
    crawl = Crawl.objects.create(name="probe", config={"host_interval": 2})
    response = admin_config(admin_client, crawl, DEEP)
    assert response.status_code == 200
    assert "nested 3000 levels deep, more than the 20 allowed" in response.content.decode()
    crawl.refresh_from_db()
    assert crawl.config == {"host_interval": 2}


def test_extra_config_nested_3000_deep_is_a_form_error_on_new_crawl(admin_client):
    response = post_new_crawl(admin_client, extra_config='{"detector": ' + DEEP + "}")
    assert response.status_code == 400
    assert "extra_config: nested 3001 levels deep, more than the 20 allowed" in response.context["error_lines"]
    assert not Crawl.objects.exists()


def test_a_config_file_nested_3000_deep_is_one_line_from_crawl_start(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"extra_config": {"detector": ' + DEEP + "}}")
    assert crawl_start("--config", str(path)) == f"config: {path}: nested 3002 levels deep, more than the 20 allowed"
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


def test_a_config_nested_a_little_too_deep_is_refused_after_parsing_too():
    nested = {"detector": json.loads("[" * 25 + "]" * 25)}
    with pytest.raises(ValidationError, match="nested deeper than 20 levels"):
        CrawlConfig.from_dict(nested)
