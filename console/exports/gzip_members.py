"""The complete gzip members at the start of a byte stream. Pure.

A WARC file (crawlweb/crawler/warc.py) is a sequence of gzip members, one a record, and the file a
crawl worker still writes (NAME.warc.gz.open) may end in the middle of one. Walking the members
with zlib (RFC 1952: each member is a header, a deflate stream and a trailer; wbits=31 reads one)
finds where the last complete member ends, so a download of a file still being written is a valid
WARC file of the records finished so far. Concatenated members are themselves a valid .warc.gz,
which is also how several files become one download."""
from __future__ import annotations

import zlib
from typing import BinaryIO, Iterator

CHUNK = 1 << 16


def complete_members(stream: BinaryIO, chunk_size: int = CHUNK) -> Iterator[bytes]:
    """Yield the stream's bytes up to the end of its last complete gzip member, in chunks;
    a partial member at the end (or bytes that are not gzip) is left out."""
    pending = bytearray()  # bytes of the member being read, not yet known to be complete
    decoder = zlib.decompressobj(31)
    while True:
        data = stream.read(chunk_size)
        if not data:
            return
        while data:
            try:
                decoder.decompress(data, 0)  # output is discarded: only the member's end matters
            except zlib.error:
                return
            if not decoder.eof:
                pending += data  # memory: at most one record, whose body the page size cap bounds
                break
            used = len(data) - len(decoder.unused_data)
            pending += data[:used]
            yield bytes(pending)
            pending.clear()
            data = decoder.unused_data
            decoder = zlib.decompressobj(31)
