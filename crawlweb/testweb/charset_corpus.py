"""The charset corpus: real pages in many encodings, and the ways a crawler may receive them.

scripts/build_charset_corpus.py writes the corpus from data/charsets/manifest.json (pinned commits of
public repositories) into CHARSET_CORPUS_DIR: `corpus.json` (the manifest's entries, each with its
`file`) and `pages/<id>.html`, the page's bytes as the repository holds them. Third-party pages never
enter this repository.

A page reaches the crawler in one of these modes (`page_modes`):
  * declared:        the HTTP header charset its server sends (the manifest's `header`) and the page
                     as it is, with its own <meta> / <?xml encoding?> declarations;
  * undeclared:      no header charset, the page's declarations removed;
  * western_header:  a server default "ISO-8859-1" header over the page with its own declarations
                     (Apache's AddDefaultCharset), for pages that declare something themselves;
  * western_only:    that header, the page's declarations removed;
both Western modes only for pages that are not windows-1252 (there the declaration is right).
The truth of a mode is the strict decode of the bytes served with the page's true codec.
Pure: no Django.
"""
from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from pathlib import Path

WESTERN_DEFAULT = "ISO-8859-1"
MODES = ("declared", "undeclared", "western_header", "western_only")

_META_DECLARATION = re.compile(r"""<meta\b[^>]*?charset\s*=[^>]*>""", re.IGNORECASE)
_XML_ENCODING = re.compile(r"""(<\?xml\b[^>]*?)\s+encoding\s*=\s*["'][^"']*["']""", re.IGNORECASE)
_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


class CharsetCorpusMissing(LookupError):
    """The built corpus is not there; the message says how to build it."""


@dataclass(frozen=True)
class CorpusPage:
    id: str
    encoding: str         # the true encoding's name, as the issue lists them (UTF-8, windows-1250, Big5...)
    codec: str            # the Python codec whose strict decode is the truth
    header: str | None    # the charset its server sends in Content-Type, or None
    meta: str | None      # the charset the page names in <meta> in its first 4 KB, or None
    body: bytes
    source: str           # owner/repo@commit
    path: str


@dataclass(frozen=True)
class Served:
    """One page as served in one mode."""
    page: CorpusPage
    mode: str
    header: str | None
    body: bytes

    @property
    def content_type(self) -> str:
        return f"text/html; charset={self.header}" if self.header else "text/html"

    def truth(self) -> str:
        return self.body.decode(self.page.codec)


def load_corpus(directory: Path) -> list[CorpusPage]:
    index = directory / "corpus.json"
    if not index.is_file():
        raise CharsetCorpusMissing(
            f"the charset corpus is not built in {directory} (CHARSET_CORPUS_DIR): build it with "
            f".venv/bin/python scripts/build_charset_corpus.py --out {directory}")
    entries = json.loads(index.read_text(encoding="utf-8"))["pages"]
    return [CorpusPage(id=e["id"], encoding=e["encoding"], codec=e["codec"], header=e["header"], meta=e["meta"],
                       body=(directory / e["file"]).read_bytes(), source=e["source"], path=e["path"])
            for e in entries]


def strip_declarations(body: bytes, codec: str) -> bytes:
    """The page without its <meta charset> / http-equiv declarations and <?xml encoding?> pseudo-attribute.
    A byte-order mark stays: it is the text's first bytes, not a declaration one can leave out."""
    bom = next((mark for mark in _BOMS if body.startswith(mark)), b"")
    rest = body[len(bom):]
    if codecs.lookup(codec).name.startswith("utf-16"):
        # The declarations are UTF-16 code units: edit the text, keep the byte order.
        order = _utf16_order(bom, codec)
        text = rest.decode(order)
        return bom + _strip_text(text).encode(order)
    return bom + _strip_ascii_compatible(rest)


def page_modes(page: CorpusPage) -> list[Served]:
    stripped = strip_declarations(page.body, page.codec)
    served = [Served(page, "declared", page.header, page.body), Served(page, "undeclared", None, stripped)]
    if page.encoding != "windows-1252":
        if stripped != page.body:
            served.append(Served(page, "western_header", WESTERN_DEFAULT, page.body))
        served.append(Served(page, "western_only", WESTERN_DEFAULT, stripped))
    return served


def _strip_text(text: str) -> str:
    return _XML_ENCODING.sub(r"\1", _META_DECLARATION.sub("", text))


def _strip_ascii_compatible(body: bytes) -> bytes:
    # Declarations are ASCII; latin-1 maps every byte to one character and back, so the page's other
    # bytes (whatever their encoding) are untouched.
    return _strip_text(body.decode("latin-1")).encode("latin-1")


def _utf16_order(bom: bytes, codec: str) -> str:
    if bom == codecs.BOM_UTF16_LE:
        return "utf-16-le"
    if bom == codecs.BOM_UTF16_BE:
        return "utf-16-be"
    return codecs.lookup(codec).name
