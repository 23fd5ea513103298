"""Seed lists: import from a text file or CSV; bad lines reported by line number, good ones kept."""
import pytest
from django.urls import reverse

from crawlweb.models import Seed, SeedList
from crawlweb.seed_import import parse_seed_file
from crawlweb.services.seeds import import_seeds

TEXT_FILE = """# seeds for the sr-en crawl
http://www.primer.rs/
https://en.primer.rs/about

ftp://files.example.org/
not a url
http://www.primer.rs/
http://nohost/
http://www.drugi.rs/sr/
"""

CSV_FILE = """url,label
http://www.primer.rs/,bilingual
http://www.primer.rs/ a,broken
http://english-only.co.uk/,monolingual
mailto:someone@example.org,
"""


def test_a_text_file_keeps_good_lines_and_reports_bad_ones_by_number():
    entries, errors = parse_seed_file(TEXT_FILE, "seeds.txt")
    assert [e.url for e in entries] == ["http://www.primer.rs/", "https://en.primer.rs/about",
                                        "http://www.drugi.rs/sr/"]
    assert [(e.line, e.problem) for e in errors] == [
        (5, "not an http(s) URL"),
        (6, "URL contains whitespace"),
        (7, "duplicate of line 2"),
        (8, "URL has no valid host name"),
    ]
    assert str(errors[0]) == "line 5: not an http(s) URL: 'ftp://files.example.org/'"


def test_a_csv_file_reads_labels_and_skips_its_header():
    entries, errors = parse_seed_file(CSV_FILE, "seeds.csv")
    assert [(e.url, e.label) for e in entries] == [("http://www.primer.rs/", "bilingual"),
                                                   ("http://english-only.co.uk/", "monolingual")]
    assert [(e.line, e.problem) for e in errors] == [(3, "URL contains whitespace"), (5, "not an http(s) URL")]


def test_a_file_that_is_not_utf8_is_refused_whole_with_a_reason():
    entries, errors = parse_seed_file(b"http://a.rs/\n\xff\xfe\xfa", "seeds.txt")
    assert entries == []
    assert "not UTF-8" in errors[0].problem


@pytest.mark.django_db
def test_importing_twice_adds_nothing_new():
    seed_list = SeedList.objects.create(name="sr-en")
    added, errors = import_seeds(seed_list, TEXT_FILE, "seeds.txt")
    assert (added, len(errors)) == (3, 4)
    added_again, _ = import_seeds(seed_list, TEXT_FILE, "seeds.txt")
    assert added_again == 0
    assert seed_list.seeds.count() == 3


@pytest.mark.django_db
def test_an_operator_imports_a_seed_file_in_the_admin(admin_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    seed_list = SeedList.objects.create(name="sr-en")
    url = reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk])
    assert admin_client.get(url).status_code == 200
    upload = SimpleUploadedFile("seeds.csv", CSV_FILE.encode(), content_type="text/csv")
    response = admin_client.post(url, {"file": upload}, follow=True)
    shown = [str(m) for m in response.context["messages"]]
    assert "2 seeds added from seeds.csv." in shown
    assert "Skipped line 3: URL contains whitespace: 'http://www.primer.rs/ a,broken'" in shown
    assert set(Seed.objects.values_list("url", "label")) == {("http://www.primer.rs/", "bilingual"),
                                                             ("http://english-only.co.uk/", "monolingual")}


@pytest.mark.django_db
def test_only_staff_may_import(client):
    seed_list = SeedList.objects.create(name="sr-en")
    response = client.get(reverse("admin:crawlweb_seedlist_import", args=[seed_list.pk]))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
