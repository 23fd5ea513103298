from concurrent.futures import ThreadPoolExecutor

import pytest
from warcio.archiveiterator import ArchiveIterator

from crawlweb.crawler.fetch import Fetcher, FetchResult
from crawlweb.crawler.warc import WarcWriter

from .conftest import BIG_BODY, SERBIAN_PAGE

pytestmark = pytest.mark.usefixtures("no_proxy_env")


@pytest.fixture
def fetcher():
    with Fetcher("CrawlwebBot/0.1", address_policy="loopback", max_bytes=50_000) as f:
        yield f


def read_records(paths):
    records = []
    for path in paths:
        with open(path, "rb") as fh:
            for record in ArchiveIterator(fh):
                records.append({
                    "type": record.rec_type,
                    "uri": record.rec_headers.get_header("WARC-Target-URI"),
                    "status": record.http_headers.get_statuscode() if record.http_headers and
                    record.rec_type == "response" else None,
                    "headers": record.http_headers,
                    "warc": record.rec_headers,
                    "content": record.content_stream().read(),
                    "path": path,
                })
    return records


def test_fetches_are_archived_and_read_back(web, fetcher, tmp_path):
    writer = WarcWriter(tmp_path, "crawl-test")
    writer.write_fetch(fetcher.fetch(f"{web.base}/r1"))
    writer.write_fetch(fetcher.fetch(f"{web.base}/gzip"))
    writer.close()
    assert len(writer.finished) == 1 and writer.finished[0].name.endswith(".warc.gz")
    assert not list(tmp_path.glob("*.open"))
    records = read_records(writer.finished)
    assert records[0]["type"] == "warcinfo"
    responses = [r for r in records if r["type"] == "response"]
    requests = [r for r in records if r["type"] == "request"]
    assert [(r["uri"], r["status"]) for r in responses] == [
        (f"{web.base}/r1", "301"), (f"{web.base}/r2", "302"), (f"{web.base}/page", "200"), (f"{web.base}/gzip", "200")]
    assert len(requests) == 4
    assert responses[2]["content"].decode("utf-8") == SERBIAN_PAGE
    assert responses[0]["headers"].get_header("Location") == "/r2"
    # the gzip response is stored as received: Content-Encoding kept, warcio decodes it on reading
    assert responses[3]["headers"].get_header("Content-Encoding") == "gzip"
    assert responses[3]["content"].decode("utf-8") == SERBIAN_PAGE
    # a request record names the response it belongs to
    ids = {r["warc"].get_header("WARC-Record-ID") for r in requests}
    assert all(r["warc"].get_header("WARC-Concurrent-To") in ids for r in responses)
    first = requests[0]["headers"]
    assert (first.protocol, first.statusline) == ("GET", "/r1 HTTP/1.1")
    assert first.get_header("User-Agent") == "CrawlwebBot/0.1" and first.get_header("Host") == web.base[7:]


def test_a_truncated_body_is_marked(web, fetcher, tmp_path):
    with WarcWriter(tmp_path, "trunc") as writer:
        result = fetcher.fetch(f"{web.base}/big")
        writer.write_fetch(result)
    response = next(r for r in read_records(writer.finished) if r["type"] == "response")
    assert response["warc"].get_header("WARC-Truncated") == "length"
    assert response["content"] == BIG_BODY[:50_000]


def test_chunked_responses_are_stored_readably(web, fetcher, tmp_path):
    with WarcWriter(tmp_path, "chunk") as writer:
        writer.write_fetch(fetcher.fetch(f"{web.base}/chunked"))
    response = next(r for r in read_records(writer.finished) if r["type"] == "response")
    assert response["content"] == b"<p>first second</p>"


def test_files_rotate_at_the_size_limit_each_with_warcinfo(web, fetcher, tmp_path):
    with WarcWriter(tmp_path, "rot", max_file_bytes=200) as writer:
        for i in range(3):
            writer.write_fetch(fetcher.fetch(f"{web.base}/page?n={i}"))
    assert len(writer.finished) == 3
    for path in writer.finished:
        types = [r["type"] for r in read_records([path])]
        assert types == ["warcinfo", "response", "request"]
        with open(path, "rb") as fh:
            assert fh.read(2) == b"\x1f\x8b"  # gzip


def test_concurrent_writes_from_threads_all_survive(web, fetcher, tmp_path):
    urls = [f"{web.base}/page?t={i}" for i in range(30)]
    with WarcWriter(tmp_path, "threads") as writer, ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda url: writer.write_fetch(fetcher.fetch(url)), urls))
    records = read_records(writer.finished)
    assert sorted(r["uri"] for r in records if r["type"] == "response") == sorted(urls)
    assert all(r["content"].decode() == SERBIAN_PAGE for r in records if r["type"] == "response")


def test_writing_after_close_and_bad_prefixes_are_refused(tmp_path):
    writer = WarcWriter(tmp_path, "x")
    writer.close()
    with pytest.raises(RuntimeError, match="closed"):
        writer.write_fetch(FetchResult(requested_url="http://a/", final_url="http://a/"))
    with pytest.raises(ValueError, match="bad WARC file prefix"):
        WarcWriter(tmp_path, "a/b")
