"""Which charset an undeclared (or wrongly declared) page is in: a statistical detector, and the check
that a page reads in the crawl's own alphabets.

The detector is chardet 7 (byte-pair and character models for the web's encodings, with CJK multi-byte
analysis), shown only the pieces of text that hold bytes beyond ASCII (`evidence`) and limited to the encodings
web pages are written in: its "modern web" and "legacy ISO" eras,
which hold the WHATWG Encoding Standard's charsets. Its answer is mapped to the family browsers decode
(charset_codecs.family). Where it hesitates between readings (confidences within DETECTOR_TIE), one
without C1 controls wins, then one that reads in the expected alphabets: a Serbian page between
windows-1250 and ISO-8859-2.

The alphabet check (`alphabet_score`) is older than the detector: Serbian pages under Apache's default
"iso-8859-1" header, whose windows-1250 or windows-1251 bytes a Western reading turns into symbols and
stray accents. It now only decides whether such a Western declaration is contradicted
(`reads_better_in_region`); it never overrides a specific declaration.
Pure: no Django.
"""
from __future__ import annotations

import re

import chardet
from chardet.enums import EncodingEra

from .charset_codecs import family, strict_decode

# Letters beyond ASCII that a Serbian–English page is expected to contain.
SERBIAN_LETTERS = frozenset("čćđšžČĆĐŠŽ" "абвгдђежзијклљмнњопрстћуфхцчџш" "АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШ")
# Single-byte charsets used for Serbian: a Western declaration is contradicted when one of them reads
# clearly better in the expected alphabets.
REGIONAL_CHARSETS = ("cp1250", "iso8859_2", "cp1251", "iso8859_5")
WEB_ERAS = EncodingEra.MODERN_WEB | EncodingEra.LEGACY_ISO
DETECTOR_TIE = 0.9    # a reading within 90 % of the detector's best confidence is a near-tie
DETECT_BYTES = 128 * 1024
SCORE_CHARS = 1024 * 1024
WESTERN = frozenset({"cp1252", "iso8859-15", "mac-roman"})
_PIECES = re.compile(rb"[<>]")
_HIGH = re.compile(rb"[\x80-\xff]")
_CONTROLS = re.compile("[\x80-\x9f\ufffd]")
_WORD = re.compile(r"[^\W\d_]+")
_ODD_SYMBOL = re.compile(r"[^\w\s\x00-\xa0«»–—„“”’‘•…©®°€]")


def detect(body: bytes, expected: frozenset[str] = SERBIAN_LETTERS) -> list[tuple[str, float]]:
    """The detector's best reading of body that decodes strictly, with the readings of near-tie confidence
    after it: (family codec, confidence), best first."""
    try:
        found = chardet.detect_all(evidence(body), encoding_era=WEB_ERAS, compat_names=False,
                                   max_bytes=DETECT_BYTES)
    except Exception:  # the detector must not take the crawl down on odd input
        return []
    readings: dict[str, float] = {}
    for guess in sorted(found, key=lambda g: -(g.get("confidence") or 0.0)):
        confidence = guess.get("confidence") or 0.0
        if readings and confidence < DETECTOR_TIE * max(readings.values()):
            break  # the rest are not near-ties of the best reading
        codec = family(guess["encoding"]) if guess.get("encoding") else None
        if codec and codec not in readings and strict_decode(body, codec) is not None:
            readings[codec] = confidence
    return _prefer_expected(body, list(readings.items()), expected)


def evidence(body: bytes) -> bytes:
    """The pieces of text between tags (and inside them: attribute values) that hold bytes beyond ASCII,
    one per line: markup and ASCII-only text read the same in every ASCII-compatible charset, and a page of
    60 KB with 300 bytes of Korean in its menus otherwise looks Western to the detector; the ASCII words
    around the accents stay, as a French or English sentence needs them. Splitting at angle brackets
    never cuts a character: no multi-byte charset uses those bytes inside one."""
    return b"\n".join(piece.strip() for piece in _PIECES.split(body) if _HIGH.search(piece))[:DETECT_BYTES]


def western_contradicted(body: bytes, western_text: str, expected: frozenset[str] = SERBIAN_LETTERS) -> bool:
    """Whether a generic Western declaration (ISO-8859-1, windows-1252, US-ASCII: what servers and editors
    default to) is contradicted by the bytes: they read clearly better in a regional charset of the
    crawl's languages, or the detector's best reading is another charset, not a near-tie with a
    Western one, that gives another text."""
    if reads_better_in_region(body, western_text, expected):
        return True
    readings = detect(body, expected)
    if not readings:
        return False
    best_codec, best_confidence = readings[0]
    if best_codec in WESTERN:
        return False
    western = max((confidence for codec, confidence in readings if codec in WESTERN), default=0.0)
    return western < DETECTOR_TIE * best_confidence and strict_decode(body, best_codec) != western_text


def reads_better_in_region(body: bytes, western_text: str, expected: frozenset[str]) -> bool:
    """The Serbian-alphabet check: a regional reading scores positively and clearly above the Western one
    (a French page correctly declared windows-1252 must not become windows-1250)."""
    sample = western_text[:DETECT_BYTES]
    base = alphabet_score(sample, expected)
    non_ascii = sum(1 for ch in sample if ch >= "\x80")
    needed = max(0, base + max(2, non_ascii // 10))
    for codec in REGIONAL_CHARSETS:
        text = strict_decode(body, codec)
        if text is not None and alphabet_score(text[:DETECT_BYTES], expected) > needed:
            return True
    return False


def alphabet_score(text: str, expected: frozenset[str]) -> int:
    """How well a decoding reads in the expected alphabets: +1 per expected non-ASCII letter, -1 per other
    non-ASCII character, -5 per C1 control or replacement character, and -2 per non-ASCII letter of a word
    that mixes Cyrillic with Latin letters (the shape of Latin text decoded as windows-1251). Letters
    count inside words of two letters or more."""
    score = -5 * len(_CONTROLS.findall(text))
    for chunk in text.split():
        if chunk.isascii():
            continue  # most of a page: nothing to score (and str.split/isascii are fast where a regex is not)
        for word in _WORD.findall(chunk):
            if word.isascii() or len(word) == 1:
                continue  # a lone letter is no word: "£825" read as windows-1251 is "Ј825"
            cyrillic = sum(1 for ch in word if "\u0400" <= ch <= "\u04ff")
            if cyrillic and cyrillic != len(word):
                score -= 2 * sum(1 for ch in word if ch >= "\x80")
                continue
            score += sum(1 if ch in expected else -1 for ch in word if ch >= "\x80")
        # Symbols beyond ASCII that are not letters (such as ¤ ¦ ¨ in mojibake); typography is fine.
        score -= len(_ODD_SYMBOL.findall(chunk))
    return score


def _prefer_expected(body: bytes, ranked: list[tuple[str, float]], expected: frozenset[str]):
    """Among the detector's near-ties with its best reading: the one with fewer C1 controls comes first
    (no web page means them: ISO-8859-15 and windows-1252 agree until the first curly quote, which may
    lie past the detector's window), then one that reads in the expected alphabets (a Serbian page
    between windows-1250 and ISO-8859-2); otherwise the detector's order stands."""
    if len(ranked) < 2:
        return ranked
    top = ranked[0][1]
    tied = [item for item in ranked if item[1] >= DETECTOR_TIE * top]
    if len(tied) < 2:
        return ranked

    def merit(item: tuple[str, float]) -> tuple[int, int]:
        text = strict_decode(body, item[0])[:SCORE_CHARS]  # the whole page, not the detector's window
        return len(_CONTROLS.findall(text)), -max(0, alphabet_score(text, expected))

    return sorted(tied, key=merit) + [item for item in ranked if item not in tied]
