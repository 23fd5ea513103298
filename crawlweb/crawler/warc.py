"""WARC archiving of fetches with warcio: one warcinfo record per file, then a request and a response
record per HTTP exchange (redirect hops included), gzip per record, files rotated at a size.

The response record holds the status line, headers and body as received, with one exception: the body
is stored de-chunked (the HTTP library removes chunking), so a Transfer-Encoding header is left out of
the record, otherwise readers would try to de-chunk it again. Content-Encoding (gzip) is kept as received.
A body cut at the size cap is marked with the standard "WARC-Truncated: length" field.
Files are written as NAME.warc.gz.open and renamed to NAME.warc.gz when complete.
A write that fails (a full disk) is cut off again: the file ends with its last whole record, and the
error names the directory.
"""
from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from .fetch import FetchResult, HttpExchange

DEFAULT_MAX_FILE_BYTES = 1024 ** 3


class WarcWriter:
    def __init__(self, directory: str | os.PathLike, prefix: str, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
                 software: str = "crawlweb bilingual crawler", operator: str = ""):
        if not prefix or "/" in prefix:
            raise ValueError(f"bad WARC file prefix {prefix!r}: it must be non-empty and contain no '/'")
        if max_file_bytes <= 0:
            raise ValueError(f"max_file_bytes must be positive, got {max_file_bytes}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.prefix = prefix
        self.max_file_bytes = max_file_bytes
        self.software = software
        self.operator = operator
        self.finished: list[Path] = []  # complete files, in order
        self._lock = threading.Lock()
        self._local = threading.local()
        self._serial = 0
        self._fh = None
        self._writer: WARCWriter | None = None
        self._path: Path | None = None
        self._closed = False

    # --- files ---------------------------------------------------------------------------------------

    def _open(self) -> None:
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
        self._serial += 1
        name = f"{self.prefix}-{stamp}-{self._serial:05d}-{os.getpid()}.warc.gz"
        self._path = self.directory / name
        # Unbuffered: a failed write leaves nothing pending in a buffer, so the file can be cut back.
        self._fh = open(str(self._path) + ".open", "wb", buffering=0)
        self._writer = WARCWriter(self._fh, gzip=True)
        info = {"software": self.software, "format": "WARC File Format 1.0",
                "conformsTo": "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/",
                "operator": self.operator}
        try:
            self._writer.write_record(self._writer.create_warcinfo_record(name, info))
        except OSError as error:
            self._fh.close()
            os.unlink(str(self._path) + ".open")
            self._fh = self._writer = self._path = None
            raise self._write_error(error) from error

    def _finish(self) -> None:
        if self._fh is None:
            return
        self._fh.close()
        os.replace(str(self._path) + ".open", self._path)
        self.finished.append(self._path)
        self._fh = self._writer = self._path = None

    def close(self) -> None:
        with self._lock:
            self._finish()
            self._closed = True

    def __enter__(self) -> "WarcWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def current_path(self) -> Path | None:
        return self._path

    # --- records -------------------------------------------------------------------------------------

    def write_fetch(self, result: FetchResult) -> int:
        """Archive every exchange of a fetch; returns the number of records written.

        The records are digested and gzipped into memory first, outside the lock (zlib and hashlib
        let other threads run meanwhile), and appended to the file under it: each record is a gzip
        member of its own, so members written by different threads concatenate into a valid file."""
        writer, buffer = self._thread_writer()
        count = sum(self._write_exchange(writer, exchange) for exchange in result.exchanges)
        records = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        with self._lock:
            if self._closed:
                raise RuntimeError("WarcWriter is closed")
            if self._fh is None:
                self._open()
            self._append(records)  # unbuffered: readers (stored copies, WARC downloads) see every record
            if self._fh.tell() >= self.max_file_bytes:
                self._finish()
            return count

    def _append(self, records: bytes) -> None:
        """Append whole records, or nothing: a failed write is truncated back to the last record."""
        start = self._fh.tell()
        try:
            view = memoryview(records)
            while view:
                view = view[self._fh.write(view):]
        except OSError as error:
            os.ftruncate(self._fh.fileno(), start)
            self._fh.seek(start)
            raise self._write_error(error) from error

    def _write_error(self, error: OSError) -> OSError:
        return OSError(error.errno, f"{error.strerror or error}: writing WARC files in {self.directory}")

    def _thread_writer(self) -> tuple[WARCWriter, io.BytesIO]:
        """This thread's record builder and its in-memory output (making a WARCWriter per fetch
        asks the system for the host name every time)."""
        made = getattr(self._local, "writer", None)
        if made is None:
            buffer = io.BytesIO()
            made = self._local.writer = (WARCWriter(buffer, gzip=True), buffer)
        return made

    @staticmethod
    def _write_exchange(writer: WARCWriter, ex: HttpExchange) -> int:
        parts = urlsplit(ex.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ex.fetched_at or time.time()))
        req_headers = [("Host", parts.netloc)] + [(k, v) for k, v in ex.request_headers if k.lower() != "host"]
        request = writer.create_warc_record(
            ex.url, "request", payload=io.BytesIO(b""), length=0,
            http_headers=StatusAndHeaders(f"{ex.method} {target} {ex.http_version}", req_headers,
                                          is_http_request=True),
            warc_headers_dict={"WARC-Date": date})
        resp_headers = [(k, v) for k, v in ex.raw_headers if k.lower() != "transfer-encoding"]
        warc_fields = {"WARC-Date": date,
                       "WARC-Concurrent-To": request.rec_headers.get_header("WARC-Record-ID")}
        if ex.truncated:
            warc_fields["WARC-Truncated"] = "length"
        response = writer.create_warc_record(
            ex.url, "response", payload=io.BytesIO(ex.raw_body), length=len(ex.raw_body),
            http_headers=StatusAndHeaders(f"{ex.status} {ex.reason}".strip(), resp_headers,
                                          protocol=ex.http_version),
            warc_headers_dict=warc_fields)
        writer.write_record(response)
        writer.write_record(request)
        return 2
