"""Charset detection and decoding to text (Combine: "the character-set is detected and normalized to UTF-8").

Order of evidence: a byte-order mark wins; then the HTTP header charset, then <meta charset> /
http-equiv in the first 4 KB (HTML's prescan window), then detection with charset-normalizer.
Declarations are often wrong on real Serbian sites (Apache's default "iso-8859-1" header on windows-1250
or UTF-8 pages), so a declaration loses when:
  * the body is valid UTF-8 with non-ASCII characters and the declaration is a single-byte charset
    (multi-byte UTF-8 sequences practically never occur by chance in single-byte text), or
  * it does not decode, or
  * an alternative decoding (the detector's guesses and the regional single-byte charsets) reads clearly
    better in the expected alphabets (by default Serbian Latin, Serbian Cyrillic and English).
Garbage never raises: the last resort is UTF-8 with replacement characters.
"""
from __future__ import annotations

import codecs
import re

import charset_normalizer

# Letters beyond ASCII that a Serbian–English page is expected to contain.
SERBIAN_LETTERS = frozenset("čćđšžČĆĐŠŽ" "абвгдђежзијклљмнњопрстћуфхцчџш" "АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШ")
# Single-byte charsets used for Serbian, tried when the declared one looks wrong.
REGIONAL_CHARSETS = ("cp1250", "iso8859_2", "cp1251", "iso8859_5")
_SNIFF_BYTES = 4096
_DETECT_BYTES = 128 * 1024

_META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
# WHATWG Encoding Standard: these labels all mean windows-1252 in browsers.
_WHATWG_ALIASES = {"iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252",
                   "l1": "cp1252", "us-ascii": "cp1252", "ascii": "cp1252", "ansi_x3.4-1968": "cp1252",
                   "iso_8859-1": "cp1252", "cp819": "cp1252", "ibm819": "cp1252", "x-user-defined": "cp1252",
                   "iso-8859-9": "cp1254", "latin5": "cp1254", "tis-620": "cp874", "iso-8859-11": "cp874",
                   "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "unicode": "utf-16le",
                   "utf-16": "utf-16le"}
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def charset_label(label: str | None) -> str | None:
    """Python codec name for a charset label, or None when the label is missing or unknown."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _WHATWG_ALIASES.get(label, label)
    try:
        return codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a label with a NUL in it (found by the web fuzzer)
        return None


def sniff_meta_charset(body: bytes) -> str | None:
    """Charset named by <meta charset> or <meta http-equiv=Content-Type content=...> in the first 4 KB."""
    match = _META_CHARSET.search(body[:_SNIFF_BYTES])
    return match.group(1).decode("ascii", "replace") if match else None


def _is_single_byte(codec: str) -> bool:
    return codecs.lookup(codec).name not in ("utf-8", "utf-16-le", "utf-16-be", "utf-16", "utf-32", "gb18030",
                                             "big5", "shift_jis", "euc_jp", "euc_kr", "iso2022_jp", "cp932",
                                             "cp949", "big5hkscs", "gbk", "gb2312", "hz")


def _strict(body: bytes, codec: str) -> str | None:
    try:
        return body.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


_WORD = re.compile(r"[^\W\d_]+")


def _nearly_utf8(body: bytes) -> str | None:
    """The UTF-8 reading of body when it is UTF-8 apart from a few broken sequences (a body cut at the size
    cap mid-character, a stray byte), else None. Valid multi-byte sequences are rare in any other charset."""
    strict = _strict(body, "utf-8")
    if strict is not None:
        return strict
    text = body.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ch >= "\x80") - bad
    return text if good >= 4 * bad else None


def _alphabet_score(text: str, expected: frozenset[str]) -> int:
    """How well a decoding reads in the expected alphabets: +1 per expected non-ASCII letter, -1 per other
    non-ASCII character, -5 per C1 control or replacement character, and -2 per non-ASCII letter of a word
    that mixes Cyrillic with Latin letters (the shape of Latin text decoded as windows-1251)."""
    score = 0
    for ch in text:
        if "\x80" <= ch <= "\x9f" or ch == "\ufffd":
            score -= 5
    for word in _WORD.findall(text):
        if word.isascii():
            continue
        cyrillic = sum(1 for ch in word if "\u0400" <= ch <= "\u04ff")
        if cyrillic and cyrillic != len(word):
            score -= 2 * sum(1 for ch in word if ch >= "\x80")
            continue
        score += sum(1 if ch in expected else -1 for ch in word if ch >= "\x80")
    for ch in _WORD.sub("", text):  # non-letters beyond ASCII (symbols such as ¤ ¦ ¨ in mojibake)
        if ch > "\xa0" and ch not in "«»–—„“”’‘•…©®°€":
            score -= 1
    return score


def _detect(body: bytes):
    try:
        return list(charset_normalizer.from_bytes(body[:_DETECT_BYTES]))
    except Exception:  # the detector must not take the crawl down on odd input
        return []


def decode_html(body: bytes, header_charset: str | None,
                *, expected_letters: frozenset[str] = SERBIAN_LETTERS) -> tuple[str, str]:
    """Decode an HTML (or text) body; returns (text, Python codec name used)."""
    if not body:
        return "", "utf-8"
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return body[len(bom):].decode(codec, errors="replace"), codec

    header = charset_label(header_charset)
    meta = charset_label(sniff_meta_charset(body))
    declared = list(dict.fromkeys(c for c in (header, meta) if c))
    if body.isascii():
        codec = next((c for c in declared if _is_single_byte(c) or c == "utf-8"), "utf-8")
        return body.decode(codec, errors="replace"), codec

    as_utf8 = _nearly_utf8(body)
    if as_utf8 is not None and all(_is_single_byte(c) or c == "utf-8" for c in declared):
        return as_utf8, "utf-8"

    decodable = [(c, t) for c in declared if c != "utf-8" and (t := _strict(body, c)) is not None]
    matches = _detect(body)
    if decodable:
        codec, text = decodable[0]
        if header in ("cp1252",) and meta and meta != header and len(decodable) > 1:
            codec, text = decodable[1]  # a server-default Western header against a specific <meta>: trust the page
        candidates = [charset_label(m.encoding) for m in matches[:3]] + list(REGIONAL_CHARSETS)
        return _pick(body, [(codec, text)], candidates, expected_letters, margin=True)

    candidates = [charset_label(m.encoding) for m in matches[:3]] + list(REGIONAL_CHARSETS)
    return _pick(body, [], candidates, expected_letters, margin=False)


def _pick(body: bytes, incumbent: list[tuple[str, str]], candidates: list[str | None],
          expected: frozenset[str], *, margin: bool) -> tuple[str, str]:
    """The decoding with the best alphabet score; an incumbent (declared) decoding keeps its place unless
    an alternative beats it clearly."""
    options = list(incumbent)
    for codec in dict.fromkeys(c for c in candidates if c):
        if codec not in {c for c, _ in options} and (text := _strict(body, codec)) is not None:
            options.append((codec, text))
    if not options:
        return body.decode("utf-8", errors="replace"), "utf-8"
    scored = [(_alphabet_score(text[:_DETECT_BYTES], expected), i, codec, text)
              for i, (codec, text) in enumerate(options)]
    if margin and incumbent:
        base = scored[0][0]
        non_ascii = sum(1 for ch in incumbent[0][1][:_DETECT_BYTES] if ch >= "\x80")
        # An alternative must read positively in the expected alphabets and clearly better than the
        # declaration: a French page correctly declared windows-1252 must not become "windows-1250".
        needed = max(0, base + max(2, non_ascii // 10))
        better = [s for s in scored[1:] if s[0] > needed]
        if not better:
            return incumbent[0][1], incumbent[0][0]
        scored = better
    best = max(scored, key=lambda s: (s[0], -s[1]))  # ties: earlier option (detector's order) wins
    if best[0] <= 0:
        best = scored[0]  # nothing reads as the expected languages: trust the detector's own first guess
    return best[3], best[2]
