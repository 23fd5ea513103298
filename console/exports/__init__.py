"""Exports of a crawl's results: bilingual sites, page pairs, WARC files and page records.

Every export is a generator of chunks built over ``.iterator(chunk_size=…)`` querysets, so the
dashboard (StreamingHttpResponse) and ``manage.py export`` write a crawl of any size in bounded
memory. catalog.EXPORTS names them all; the pure writers (text, tables, tmx, gzip_members) import
no Django."""
