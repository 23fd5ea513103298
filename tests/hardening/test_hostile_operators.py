"""Hostile operators: seed files in other encodings, huge seed files, and URL rules that backtrack
catastrophically. Each bad value is one clear line, and nothing is created."""
import codecs
import time
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from crawlweb.crawler.urls import RuleError, UrlRules
from crawlweb.models import Crawl, Seed, SeedList
from crawlweb.seed_import import MAX_SEED_FILE_BYTES, MAX_SEED_LINES, parse_seed_file

SEEDS = "# Sajtovi iz Čačka i Niša\nhttp://www.primer.rs/čćž\nhttp://www.čačak.rs/\n"
URLS = ["http://www.primer.rs/čćž", "http://www.čačak.rs/"]
CATASTROPHIC = ["URL:(a+)+$", "URL:(\\w+\\s?)+$", "HOST:(.*a){20}", "URL:(x+x+)+y"]


@pytest.mark.parametrize("encoded", [
    codecs.BOM_UTF8 + SEEDS.encode("utf-8"),
    SEEDS.encode("utf-16"), codecs.BOM_UTF16_BE + SEEDS.encode("utf-16-be"),
    SEEDS.encode("utf-32"), codecs.BOM_UTF32_BE + SEEDS.encode("utf-32-be"),
], ids=["utf-8-bom", "utf-16-le-bom", "utf-16-be-bom", "utf-32-le-bom", "utf-32-be-bom"])
def test_seed_files_with_a_byte_order_mark_are_read(encoded):
    entries, errors = parse_seed_file(encoded, "seeds.txt")
    assert [e.url for e in entries] == URLS and errors == []


@pytest.mark.parametrize("encoded, named", [
    (SEEDS.encode("cp1250"), "cp1250"),
    (SEEDS.encode("utf-16-le"), "utf_16"),
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8, "binary data"),
], ids=["cp1250", "utf-16-without-bom", "binary"])
def test_other_encodings_are_refused_whole_naming_the_likely_one(encoded, named):
    entries, errors = parse_seed_file(encoded, "seeds.txt")
    assert entries == [] and len(errors) == 1
    assert "not UTF-8" in errors[0].problem and named in errors[0].problem
    assert "\n" not in str(errors[0])


def test_a_file_of_a_million_lines_is_refused_before_it_is_parsed():
    content = "".join(f"http://s{n}.primer.rs/\n" for n in range(1_000_000)).encode()
    started = time.thread_time()  # CPU of this thread: a busy machine's other work does not count
    entries, errors = parse_seed_file(content, "seeds.txt")
    assert time.thread_time() - started < 2
    assert entries == [] and f"over the limit of {MAX_SEED_LINES:,}" in errors[0].problem


def test_a_file_over_the_size_limit_is_refused_whole():
    entries, errors = parse_seed_file(b"http://a.rs/" + b"a" * (MAX_SEED_FILE_BYTES + 10) + b"\nhttp://b.rs/\n")
    assert entries == [] and f"over the limit of {MAX_SEED_FILE_BYTES:,}" in errors[0].problem


def test_duplicates_and_other_schemes_are_reported_per_line():
    content = b"http://a.rs/\nftp://a.rs/\nhttp://a.rs/\njavascript:alert(1)\nmailto:x@a.rs\nhttp://b.rs/\n"
    entries, errors = parse_seed_file(content, "seeds.txt")
    assert [e.url for e in entries] == ["http://a.rs/", "http://b.rs/"]
    assert [(e.line, e.problem) for e in errors] == [
        (2, "not an http(s) URL"), (3, "duplicate of line 1"), (4, "not an http(s) URL"), (5, "not an http(s) URL")]


@pytest.mark.parametrize("rule", CATASTROPHIC)
def test_a_rule_that_backtracks_catastrophically_is_refused_at_once(rule):
    started = time.thread_time()  # CPU of this thread: a busy machine's other work does not count
    with pytest.raises(RuleError, match="refused: .* exponential time"):
        UrlRules.parse(f"exclude {rule}")
    assert time.thread_time() - started < 0.5


@pytest.mark.parametrize("rule", ["URL:^https?://[^/]+/sr/", "HOST:(?:[a-z0-9-]+\\.)*rs$", "URL:([^/]+/)*x$",
                                  "URL:\\.(pdf|docx?)$", "URL:/(sr|en)+/", "URL:(\\d+\\.)+\\d+$"])
def test_ordinary_rules_stay_allowed_and_run_fast_on_a_hostile_url(rule):
    rules = UrlRules.parse(f"exclude {rule}", default_excludes=False)
    started = time.thread_time()  # CPU of this thread: a busy machine's other work does not count
    rules.check("http://www.napad.rs/" + "a/1." * 60 + "!")
    assert time.thread_time() - started < 0.5


def run_start(*args):
    out = StringIO()
    call_command("crawl", "start", *args, stdout=out, stderr=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_form_the_command_and_the_admin_refuse_a_catastrophic_rule_alike(admin_client, tmp_path):
    rules = "exclude URL:(a+)+$"
    response = admin_client.post("/crawls/new/", {
        "name": "x", "strategy": "bfs", "pair": "sr-en", "page_budget": "10", "parallel_steps": "1",
        "start_urls": "http://www.primer.rs/", "url_rules": rules, "weight_m01": "3", "weight_m03": "1",
        "topic_cutoff": "10"})
    assert response.status_code == 400
    shown = [line for line in response.context["error_lines"] if "exponential time" in line]
    assert len(shown) == 1 and shown[0].startswith("url_rules: line 1: ")  # the field named once
    assert "line 1: regular expression '(a+)+$' refused" in shown[0]
    path = tmp_path / "rules.txt"
    path.write_text(rules)
    with pytest.raises(CommandError) as error:
        run_start("--url", "http://www.primer.rs/", "--url-rules", str(path), "--no-wait")
    assert shown[0] in str(error.value).splitlines()
    crawl = Crawl.objects.create(name="probe", config={"host_interval": 2})
    change = admin_client.post(reverse("admin:crawlweb_crawl_change", args=[crawl.pk]), {
        "name": crawl.name, "strategy": crawl.strategy, "state": crawl.state, "page_budget": 10, "pages_fetched": 0,
        "source_language": "sr", "target_language": "en", "max_depth": 20, "parallel_steps": 1,
        "config": '{"url_rules": "exclude URL:(a+)+$"}'})
    assert change.status_code == 200 and "exponential time" in change.content.decode()
    crawl.refresh_from_db()
    assert crawl.config == {"host_interval": 2}
    assert list(Crawl.objects.values_list("name", flat=True)) == ["probe"] and not SeedList.objects.exists()


@pytest.mark.django_db
def test_crawl_start_refuses_a_million_line_seed_file_and_creates_nothing(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("".join(f"http://s{n}.primer.rs/\n" for n in range(1_000_000)))
    with pytest.raises(CommandError, match="nothing was created"):
        run_start("--seeds", str(seeds), "--no-wait")
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


@pytest.mark.django_db
def test_the_admin_imports_a_utf16_seed_file_and_refuses_a_cp1250_one(admin_client):
    seed_list = SeedList.objects.create(name="probe")
    url = reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk])
    response = admin_client.post(url, {"file": SimpleUploadedFile("s.txt", SEEDS.encode("utf-16"))}, follow=True)
    assert response.status_code == 200 and "2 seeds added" in response.content.decode()
    response = admin_client.post(url, {"file": SimpleUploadedFile("t.txt", SEEDS.encode("cp1250"))}, follow=True)
    body = response.content.decode()
    assert response.status_code == 200 and "it looks like cp1250: save it as UTF-8" in body
    assert sorted(Seed.objects.values_list("url", flat=True)) == sorted(URLS)
