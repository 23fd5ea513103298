"""A crawl's WARC files (WARC_DIR/crawl-<id>/, written by crawlweb/crawler/warc.py), listed and read.

A finished file (NAME.warc.gz) is served as it is. A file a worker still writes (NAME.warc.gz.open)
is served up to its last complete record (gzip_members), so every download is a valid WARC file."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from console.exports.gzip_members import CHUNK, complete_members

OPEN_SUFFIX = ".open"
_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.warc\.gz(\.open)?$")


@dataclass(frozen=True)
class WarcFile:
    name: str
    path: Path
    size: int

    @property
    def finished(self) -> bool:
        return not self.name.endswith(OPEN_SUFFIX)


def crawl_directory(warc_dir: Path, crawl_id: int) -> Path:
    return Path(warc_dir) / f"crawl-{int(crawl_id)}"


def list_warc_files(warc_dir: Path, crawl_id: int) -> list[WarcFile]:
    directory = crawl_directory(warc_dir, crawl_id)
    if not directory.is_dir():
        return []
    files = [WarcFile(path.name, path, path.stat().st_size) for path in sorted(directory.iterdir())
             if path.is_file() and _FILE_NAME.match(path.name)]
    return files


def find_warc_file(warc_dir: Path, crawl_id: int, name: str) -> WarcFile | None:
    """The listed file of that exact name; any other name (a path, '..') finds nothing."""
    if not _FILE_NAME.match(name):
        return None
    return next((f for f in list_warc_files(warc_dir, crawl_id) if f.name == name), None)


def read_warc_file(warc_file: WarcFile) -> Iterator[bytes]:
    with open(warc_file.path, "rb") as stream:
        if warc_file.finished:
            while chunk := stream.read(CHUNK):
                yield chunk
        else:
            yield from complete_members(stream)


def crawl_warc(warc_dir: Path, crawl_id: int) -> Iterator[bytes]:
    """All the crawl's WARC files as one .warc.gz (concatenated gzip members are one valid file)."""
    for warc_file in list_warc_files(warc_dir, crawl_id):
        yield from read_warc_file(warc_file)
