"""robots.txt variants, the crawler trap and every broken page, with the status, headers and
bytes a crawler will see."""
from __future__ import annotations

import io
import time
import zipfile

from bs4 import BeautifulSoup
from protego import Protego

from tests.testweb.conftest import SLOW_DELAY_S


def test_robots_with_disallow_rules_block_a_page_that_exists(truth, client):
    robots = client(truth["special_urls"]["robots_disallow"])
    assert robots.status_code == 200 and robots.headers["Content-Type"].startswith("text/plain")
    private = truth["special_urls"]["robots_disallowed_page"]
    rules = Protego.parse(robots.text)
    assert not rules.can_fetch(private, "bilingual-crawler")
    assert rules.can_fetch(private.replace("/private/interno.html", "/"), "bilingual-crawler")
    assert client(private).status_code == 200


def test_robots_with_a_crawl_delay(truth, client):
    rules = Protego.parse(client(truth["special_urls"]["robots_crawl_delay"]).text)
    assert rules.crawl_delay("bilingual-crawler") == 1


def test_most_sites_have_no_robots_file(truth, client):
    without = [s for s in truth["sites"] if s["robots"] == "none"]
    assert len(without) > len(truth["sites"]) / 2
    assert client(truth["special_urls"]["robots_none"]).status_code == 404


def test_one_robots_file_answers_500_and_one_is_huge_garbage(truth, client):
    assert client(truth["special_urls"]["robots_error_500"]).status_code == 500
    garbage = client(truth["special_urls"]["robots_garbage"])
    assert garbage.status_code == 200 and len(garbage.content) > 500_000
    assert b"\x00" in garbage.content


def test_the_calendar_trap_links_to_next_and_previous_months_forever(truth, client):
    url = truth["special_urls"]["trap"]
    for _ in range(30):
        page = client(url)
        assert page.status_code == 200
        links = [a["href"] for a in BeautifulSoup(page.content, "lxml").find_all("a")]
        url = links[1]
    assert url.endswith("/calendar/2029/5")  # 30 months after November 2026
    first = BeautifulSoup(client(truth["special_urls"]["trap"]).content, "lxml")
    assert first.find("a")["href"].endswith("/calendar/2026/10")


def test_wrong_charset_header_over_a_utf8_body(truth, client):
    page = client(truth["special_urls"]["charset_wrong_header"])
    assert page.headers["Content-Type"] == "text/html; charset=iso-8859-1"
    assert "Ђ" not in page.text  # decoding as declared garbles it
    assert "Ćilim" in page.content.decode("utf-8") or "ćilim" in page.content.decode("utf-8")


def test_windows_1250_body_with_a_meta_charset(truth, client):
    page = client(truth["special_urls"]["charset_windows_1250_meta"])
    assert page.headers["Content-Type"] == "text/html"
    assert b'charset=windows-1250' in page.content
    assert "Čačak" in page.content.decode("cp1250")
    assert "Čačak".encode("cp1250") in page.content and "Čačak".encode("utf-8") not in page.content


def test_a_page_without_any_charset(truth, client):
    page = client(truth["special_urls"]["charset_missing"])
    assert page.headers["Content-Type"] == "text/html" and b"charset" not in page.content
    assert "Đerdap" in page.content.decode("utf-8")


def test_truncated_html_ends_inside_a_tag(truth, client):
    page = client(truth["special_urls"]["truncated"])
    assert page.status_code == 200 and not page.content.rstrip().endswith(b"</html>")
    assert page.content.endswith(b'<a href="ht')  # cut inside an attribute value
    assert int(page.headers["Content-Length"]) == len(page.content)


def test_not_found_and_server_error(truth, client):
    assert client(truth["special_urls"]["not_found"]).status_code == 404
    assert client(truth["special_urls"]["server_error"]).status_code == 500


def test_redirect_chain_is_301_then_302_then_200(truth, client):
    page = client(truth["special_urls"]["redirect_chain"], allow_redirects=True)
    assert [r.status_code for r in page.history] == [301, 302]
    assert page.status_code == 200 and page.url == truth["special_urls"]["redirect_chain_final"]


def test_redirect_loop_never_ends(truth, client):
    first = client(truth["special_urls"]["redirect_loop"])
    second = client(first.headers["Location"])
    assert first.status_code in (301, 302) and second.status_code in (301, 302)
    assert second.headers["Location"] == truth["special_urls"]["redirect_loop"]


def test_redirects_to_loopback_and_private_addresses(truth, client):
    loopback = client(truth["special_urls"]["redirect_to_loopback"])
    private = client(truth["special_urls"]["redirect_to_private"])
    assert loopback.headers["Location"] == "http://127.0.0.1:9/"
    assert private.headers["Location"] == "http://10.0.0.1/"


def test_the_slow_page_waits_the_configured_delay(truth, client):
    started = time.monotonic()
    page = client(truth["special_urls"]["slow"])
    elapsed = time.monotonic() - started
    assert page.status_code == 200 and SLOW_DELAY_S <= elapsed < SLOW_DELAY_S + 2


def test_the_oversized_page_is_streamed_and_larger_than_ten_megabytes(truth, client):
    page = client(truth["special_urls"]["oversized"], stream=True)
    assert int(page.headers["Content-Length"]) == 11 * 1024 * 1024
    received = sum(len(chunk) for chunk in page.iter_content(1 << 16))
    assert received == 11 * 1024 * 1024


def test_binary_files_served_as_html(truth, client):
    png = client(truth["special_urls"]["binary_png"])
    assert png.headers["Content-Type"].startswith("text/html") and png.content.startswith(b"\x89PNG\r\n")
    archive = client(truth["special_urls"]["binary_zip"])
    assert archive.headers["Content-Type"].startswith("text/html")
    assert zipfile.ZipFile(io.BytesIO(archive.content)).namelist() == ["izvestaj.txt"]


def test_conditional_get_answers_304_for_a_known_etag_or_date(truth, client):
    url = truth["special_urls"]["conditional"]
    page = client(url)
    etag, modified = page.headers["ETag"], page.headers["Last-Modified"]
    assert client(url, headers={"If-None-Match": etag}).status_code == 304
    assert client(url, headers={"If-Modified-Since": modified}).status_code == 304
    assert client(url, headers={"If-None-Match": '"other"'}).status_code == 200
    assert client(url, headers={"If-Modified-Since": "Mon, 01 Jan 2024 00:00:00 GMT"}).status_code == 200
    unchanged = client(url, headers={"If-None-Match": etag})
    assert unchanged.content == b"" and unchanged.headers["ETag"] == etag
