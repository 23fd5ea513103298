"""Smaller findings: a seed file refused whole or empty says so in plain words and creates nothing, and
`cleandb check` finds nothing wrong with a crawl that followed a redirect."""
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from crawlweb.models import Crawl, Seed, SeedList
from crawlweb.seed_import import parse_seed_file
from tests.served_site import crawl_of_site, served_site

NOT_UTF8 = "http://www.primer.rs/čćž\n".encode("cp1250")


def run(*args):
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("content, problem", [
    (NOT_UTF8, "file is not UTF-8 text"),
    (b"", "no URL in the file: it is empty, or holds only blank lines and # comments"),
    (b"# just a comment\n\n   \n", "no URL in the file: it is empty, or holds only blank lines and # comments"),
])
def test_a_file_refused_whole_is_one_message_about_the_whole_file(content, problem):
    entries, errors = parse_seed_file(content, "seeds.txt")
    assert entries == [] and len(errors) == 1
    assert str(errors[0]).startswith(f"the whole file: {problem}")
    assert "line 0" not in str(errors[0]) and not str(errors[0]).endswith("''")


@pytest.mark.django_db
def test_the_admin_says_nothing_was_imported_from_a_file_refused_whole(admin_client):
    seed_list = SeedList.objects.create(name="probe")
    response = admin_client.post(reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk]),
                                 {"file": SimpleUploadedFile("seeds.txt", NOT_UTF8)}, follow=True)
    body = response.content.decode()
    assert "Nothing imported from seeds.txt: file is not UTF-8 text" in body
    assert "line 0" not in body and "0 seeds added" not in body
    assert not Seed.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("content", [NOT_UTF8, b"", b"# nothing yet\n"])
def test_crawl_start_with_a_refused_seed_file_and_a_url_creates_nothing(tmp_path, content):
    seeds = tmp_path / "seeds.txt"
    seeds.write_bytes(content)
    with pytest.raises(CommandError, match=f"seed file {seeds}: no usable URL in it; nothing was created"):
        run("crawl", "start", "--seeds", str(seeds), "--url", "http://www.primer.rs/", "--no-wait")
    assert not Crawl.objects.exists() and not SeedList.objects.exists()


@pytest.mark.django_db
def test_importseeds_names_an_empty_file(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("")
    out, err = run("importseeds", "probe", str(seeds))
    assert err == f"{seeds}: the whole file: no URL in the file: it is empty, or holds only blank lines and # comments\n"
    assert "0 seeds added" in out


HOST = "preusmerenja.example.rs"
FILES = {"index.html": '<html lang="sr"><body><p>Početna strana.</p><a href="/sr">Srpski</a></body></html>',
         "sr/index.html": '<html lang="sr"><body><p>Srpska strana sajta.</p><a href="/">Početna</a></body></html>'}


@pytest.mark.django_db(transaction=True)
def test_cleandb_check_finds_nothing_wrong_with_a_crawl_that_followed_a_redirect(tmp_path, settings, crawl_settings,
                                                                               empty_queues, monkeypatch):
    with served_site(tmp_path, HOST, FILES, pairs=[]) as server, \
            crawl_of_site(server, HOST, f"http://{HOST}/", monkeypatch, settings, name="redirects") as crawl:
        crawl.refresh_from_db()
        assert crawl.state == Crawl.State.FINISHED, crawl.last_error
        assert crawl.targets.filter(url=f"http://{HOST}/sr").get().page.final_url == f"http://{HOST}/sr/"
        out, _ = run("cleandb", "check", str(crawl.pk))
    assert "fetched-page counter below the fetched targets: 0" in out
