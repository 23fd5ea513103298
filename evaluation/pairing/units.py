"""URL units (Pupsniffer, Def. 1 preliminaries).

A URL is split into a set of PATH units and a set of FILE-NAME units, on the
separators / . - _ ? & = ; units are percent-decoded and case-folded.

Host treatment (our decision): the subdomain labels of the host, minus a leading
"www", are path units placed before the path, so ``en.site.rs/a.html`` and
``site.rs/a.html`` give ⟨en, ε⟩ and ``en.site.rs`` vs ``sr.site.rs`` give ⟨en, sr⟩.
The registrable domain (``site.rs``, ``ana.github.io``: crawlweb.crawler.suffixes) is
not a unit: it is part of every index key, so pairs never cross registrable domains.
Scheme, port and fragment are ignored.
The file name is everything after the last "/" of the path plus the query; a URL
ending in "/" has an empty file-name set.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

from crawlweb.crawler.suffixes import split_registrable

SEPARATORS = re.compile(r"[/.\-_?&=]+")


@dataclass(frozen=True)
class UrlUnits:
    path: frozenset[str]
    file: frozenset[str]
    domain: str

    @property
    def union(self) -> frozenset[str]:
        return self.path | self.file


def split_units(text: str) -> list[str]:
    """Case-folded units of a piece of URL, in order (duplicates kept)."""
    if "%" in text:
        text = unquote(text)
    return [u for u in SEPARATORS.split(text.casefold()) if u]


@lru_cache(maxsize=4096)
def split_host(host: str) -> tuple[tuple[str, ...], str]:
    """(subdomain labels without 'www', registrable domain) of a host."""
    host = host.casefold().rstrip(".")
    labels, registrable = split_registrable(host)
    if labels and labels[0] == "www":
        labels = labels[1:]
    return labels, registrable


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::\d*)?([^?#]*)(?:\?([^#]*))?")


def url_units(url: str) -> UrlUnits:
    """Path units (host subdomain labels + directories) and file-name units (name + query)."""
    match = _URL.match(url) if isinstance(url, str) else None
    if not match or not match.group(1):
        raise ValueError(f"not an absolute URL with a host: {url!r}")
    host, path, query = match.groups()
    labels, domain = split_host(host)
    directory, _, filename = path.rpartition("/")
    path_units = [*labels, *split_units(directory)]
    file_units = split_units(filename)
    if query:
        file_units += split_units(query)
    return UrlUnits(frozenset(path_units), frozenset(file_units), domain)
