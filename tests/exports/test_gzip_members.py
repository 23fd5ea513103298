"""A WARC file still being written is served up to its last complete record, readable by warcio."""
import io

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from console.exports.gzip_members import complete_members


def _warc(urls):
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    for url in urls:
        writer.write_record(writer.create_warc_record(
            url, "response", payload=io.BytesIO(b"<html>" + url.encode() * 200 + b"</html>"),
            http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")))
    return out.getvalue()


def _uris(data: bytes) -> list[str]:
    return [r.rec_headers.get_header("WARC-Target-URI") for r in ArchiveIterator(io.BytesIO(data))]


def test_a_file_cut_inside_a_record_keeps_the_records_before_it():
    whole = _warc([f"http://a.rs/{n}" for n in range(3)])
    two = len(_warc(["http://a.rs/0", "http://a.rs/1"]))
    for cut in (two + 5, len(whole) - 1):
        kept = b"".join(complete_members(io.BytesIO(whole[:cut]), chunk_size=97))
        assert _uris(kept) == ["http://a.rs/0", "http://a.rs/1"]


def test_a_complete_file_comes_through_byte_for_byte():
    whole = _warc([f"http://a.rs/{n}" for n in range(5)])
    assert b"".join(complete_members(io.BytesIO(whole), chunk_size=50)) == whole


def test_bytes_that_are_not_gzip_give_nothing():
    assert b"".join(complete_members(io.BytesIO(b"WARC/1.0\r\nnot compressed"))) == b""
