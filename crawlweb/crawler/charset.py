"""Charset detection and decoding to text (Combine: "the character-set is detected and normalized to UTF-8").

The rule, in order:
  1. A byte-order mark wins; UTF-16 without one is known by its zero bytes.
  2. Valid UTF-8 with multi-byte sequences is UTF-8, whatever is declared: such sequences practically
     never occur by chance in another charset (a page saved as UTF-8 under a template's old <meta>).
     UTF-8 apart from a few broken sequences wins over single-byte declarations too.
  3. A declared charset that decodes strictly is kept: the HTTP header's, then <meta charset> /
     http-equiv in the first 4 KB (HTML's prescan window), then <?xml encoding?>. Labels are read as
     browsers read them (charset_codecs). A declaration that does not decode strictly is passed over.
  4. Except a generic Western default (ISO-8859-1, windows-1252, US-ASCII: what servers such as Apache
     and editors put on pages of every language) contradicted by the bytes: another declaration of the
     page names a charset that decodes, or the bytes read as the crawl's languages in a regional
     charset (Serbian Latin in windows-1250, Cyrillic in windows-1251), or the detector reads them as
     another charset (charset_detect.western_contradicted).
  5. Nothing usable declared: the detector's best reading (charset_detect.detect).
A correct, consistent declaration is never rewritten: pages declared EUC-KR in header and <meta> were
once decoded as ISO-8859-5 because the Cyrillic mojibake scored higher in the Serbian-alphabet check
(issue 31). Garbage never raises: the last resort is UTF-8 with replacement characters.
"""
from __future__ import annotations

import codecs
import re

from .charset_codecs import UTF16, charset_label, is_single_byte, strict_decode, utf16_byte_order, utf8_multibyte
from .charset_detect import SERBIAN_LETTERS, detect, western_contradicted

__all__ = ["SERBIAN_LETTERS", "charset_label", "decode_html", "decode_response", "header_charset",
           "sniff_meta_charset", "sniff_xml_encoding"]

_SNIFF_BYTES = 4096
_META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml\b[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']""", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_WESTERN_DEFAULT = "cp1252"  # every generic Western label resolves to it (charset_codecs)


def sniff_meta_charset(body: bytes) -> str | None:
    """Charset named by <meta charset> or <meta http-equiv=Content-Type content=...> in the first 4 KB."""
    match = _META_CHARSET.search(body[:_SNIFF_BYTES])
    return match.group(1).decode("ascii", "replace") if match else None


def sniff_xml_encoding(body: bytes) -> str | None:
    """Encoding named by an XML declaration at the start (XHTML pages generated from XML carry it)."""
    match = _XML_ENCODING.match(body[:_SNIFF_BYTES])
    return match.group(1).decode("ascii", "replace") if match else None


def header_charset(content_type: str) -> str | None:
    """The charset parameter of a Content-Type header value, or None."""
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.strip().lower() == "charset" and value:
            return value.strip("\"' ")
    return None


def decode_response(body: bytes, content_type: str, *,
                    expected_letters: frozenset[str] = SERBIAN_LETTERS) -> tuple[str, str]:
    """Decode a fetched body as the crawler does, with the charset of its Content-Type header."""
    return decode_html(body, header_charset(content_type or ""), expected_letters=expected_letters)


def decode_html(body: bytes, header_charset: str | None,
                *, expected_letters: frozenset[str] = SERBIAN_LETTERS) -> tuple[str, str]:
    """Decode an HTML (or text) body; returns (text, Python codec name used)."""
    if not body:
        return "", "utf-8"
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return body[len(bom):].decode(codec, errors="replace"), codec
    order = utf16_byte_order(body)
    if order:
        return body.decode(order, errors="replace"), order

    declared = _declarations(body, header_charset)
    if body.isascii():
        codec = next((c for c in declared if c != UTF16 and (is_single_byte(c) or c == "utf-8")), "utf-8")
        return body.decode(codec, errors="replace"), codec
    if utf8_multibyte(body):
        return strict_decode(body, "utf-8"), "utf-8"
    nearly = _nearly_utf8(body)
    if nearly is not None and all(is_single_byte(c) or c == "utf-8" for c in declared):
        return nearly, "utf-8"  # UTF-8 apart from a stray byte: a single-byte declaration is the template's

    for codec in declared:
        text = strict_decode(body, codec)  # a UTF-16 label over bytes without its zeros decodes to None
        if text is None:
            continue
        if codec == _WESTERN_DEFAULT and _western_loses(body, text, declared, expected_letters):
            continue
        return text, codec

    if nearly is not None:
        return nearly, "utf-8"
    for codec, _confidence in detect(body, expected_letters):
        return strict_decode(body, codec), codec
    return body.decode("utf-8", errors="replace"), "utf-8"


def _declarations(body: bytes, header: str | None) -> list[str]:
    labels = (header, sniff_meta_charset(body), sniff_xml_encoding(body))
    return list(dict.fromkeys(codec for codec in map(charset_label, labels) if codec))


def _western_loses(body: bytes, text: str, declared: list[str], expected: frozenset[str]) -> bool:
    """A generic Western declaration gives way to a specific one of the page that decodes, else to what
    the bytes say (charset_detect.western_contradicted)."""
    others = [c for c in declared if c != _WESTERN_DEFAULT]
    if any(strict_decode(body, c) is not None for c in others):
        return True
    return western_contradicted(body, text, expected)


def _nearly_utf8(body: bytes) -> str | None:
    """The UTF-8 reading of body when it is UTF-8 apart from a few broken sequences (a stray byte, a
    pasted fragment), else None. Valid multi-byte sequences are rare in any other charset."""
    text = body.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ch >= "\x80") - bad
    return text if good >= 4 * bad else None
