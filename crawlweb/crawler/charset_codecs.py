"""Charset labels, codec families and strict decoding, as browsers read them (WHATWG Encoding Standard).

A label names a family rather than one Python codec: browsers read "ISO-8859-1" as windows-1252,
"EUC-KR" as windows-949, "Shift_JIS" as JIS X 0208 plus the Windows extensions, "Big5" with the HKSCS
and ETEN additions, "GB2312" as GB18030. `strict_decode` decodes with the family's base codec and
takes a byte sequence the base lacks from the Windows or later superset; any other error means the
bytes are not in that charset. Pure: no Django.
"""
from __future__ import annotations

import codecs

UTF16 = "utf-16"  # a UTF-16 label: the byte order comes from the BOM or the bytes (utf16_byte_order)

# Labels browsers resolve differently from Python's codec registry (WHATWG Encoding Standard).
_LABELS = {
    "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252", "l1": "cp1252",
    "us-ascii": "cp1252", "ascii": "cp1252", "ansi_x3.4-1968": "cp1252", "iso_8859-1": "cp1252",
    "cp819": "cp1252", "ibm819": "cp1252", "x-user-defined": "cp1252", "windows-1252": "cp1252",
    "iso-8859-9": "cp1254", "latin5": "cp1254", "tis-620": "cp874", "iso-8859-11": "cp874",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "chinese": "gb18030",
    "unicode": UTF16, "utf-16": UTF16, "utf-16le": UTF16, "utf-16be": UTF16, "ucs-2": UTF16,
    "iso-10646-ucs-2": UTF16, "csunicode": UTF16, "unicodefeff": UTF16, "unicodefffe": UTF16,
    "windows-31j": "shift_jis", "x-sjis": "shift_jis", "ms932": "shift_jis", "ms_kanji": "shift_jis",
    "windows-949": "euc_kr", "ks_c_5601-1987": "euc_kr", "ks_c_5601-1989": "euc_kr", "ksc5601": "euc_kr",
    "x-euc-jp": "euc_jp", "x-mac-cyrillic": "mac_cyrillic", "macintosh": "mac_roman",
    "iso-8859-8-i": "iso8859_8",
}
# Python codec name -> the family it belongs to (the base codec `strict_decode` starts from).
_FAMILY = {
    "latin_1": "cp1252", "ascii": "cp1252", "iso8859_1": "cp1252",
    "cp932": "shift_jis", "shift_jis_2004": "shift_jis", "shift_jisx0213": "shift_jis",
    "cp949": "euc_kr", "uhc": "euc_kr",
    "big5hkscs": "big5", "cp950": "big5",
    "gb2312": "gb18030", "gbk": "gb18030",
    "euc_jis_2004": "euc_jp", "euc_jisx0213": "euc_jp",
    "iso8859_9": "cp1254", "tis_620": "cp874", "utf_16": UTF16, "utf_16_le": UTF16, "utf_16_be": UTF16,
}
# Where a family's base codec has no mapping, the superset that browsers use has one: its codecs, and
# the lengths of the byte sequences taken from them (double-byte charsets only take double bytes: cp932
# would read a stray 0xFF as a private-use character, where browsers see an error).
_SUPERSETS = {"shift_jis": (("cp932",), (2,)), "euc_kr": (("cp949",), (2,)),
              "big5": (("big5hkscs", "cp950"), (2,)), "euc_jp": (("euc_jis_2004",), (2, 3)),
              "cp1252": (("latin_1",), (1,))}
MULTI_BYTE = frozenset({"utf-8", UTF16, "gb18030", "big5", "shift_jis", "euc_jp", "euc_kr", "iso2022_jp",
                        "iso2022_kr", "johab", "hz"})


def charset_label(label: str | None) -> str | None:
    """The family codec a charset label names, or None when the label is missing or unknown."""
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _LABELS.get(label, label)
    if label == UTF16:
        return UTF16
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a label with a NUL in it (found by the web fuzzer)
        return None
    return family(name)


def family(codec: str) -> str:
    name = codecs.lookup(codec).name if codec != UTF16 else UTF16
    return _FAMILY.get(name.replace("-", "_"), name)


def is_single_byte(codec: str) -> bool:
    return family(codec) not in MULTI_BYTE


def strict_decode(body: bytes, codec: str) -> str | None:
    """The text of body in this charset family, or None when the bytes are not in it. A multi-byte
    character cut at the end (the fetch's size cap) is left out rather than counted against the charset."""
    base = family(codec)
    if base == UTF16:
        order = utf16_byte_order(body)
        return _decode(body, order) if order else None
    text = _decode(body, base)
    if text is None and base in _SUPERSETS:
        text = _decode(body, base, errors=_superset_handler(base))
    return text


def utf16_byte_order(body: bytes) -> str | None:
    """"utf-16-le"/"utf-16-be" for UTF-16 text without a byte-order mark: markup and Latin text put a zero
    byte in every other place, always the same one (high byte first in big-endian). Binary data has
    its zeros anywhere."""
    sample = body[:4096]
    sample = sample[:len(sample) - len(sample) % 2]
    pairs = len(sample) // 2
    if pairs < 8:
        return None
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if even >= pairs // 5 and odd * 20 <= even:
        return "utf-16-be"
    if odd >= pairs // 5 and even * 20 <= odd:
        return "utf-16-le"
    return None


def utf8_multibyte(body: bytes) -> bool:
    """Whether body is valid UTF-8 holding multi-byte sequences (a character cut at the end allowed):
    such sequences practically never occur by chance in text of another charset."""
    text = _decode(body, "utf-8")
    return text is not None and not text.isascii()


def _decode(body: bytes, codec: str, errors: str = "strict") -> str | None:
    # Incremental, not final: a character cut at the end stays pending instead of failing the whole body.
    try:
        return codecs.getincrementaldecoder(codec)(errors).decode(body, final=False)
    except (UnicodeDecodeError, LookupError):
        return None


def _superset_handler(base: str) -> str:
    name = f"crawlweb-superset-{base}"
    try:
        codecs.lookup_error(name)
    except LookupError:
        codecs.register_error(name, _make_handler(*_SUPERSETS[base]))
    return name


def _make_handler(supersets: tuple[str, ...], lengths: tuple[int, ...]):
    def handler(error: UnicodeDecodeError):
        for superset in supersets:
            for length in lengths:
                chunk = error.object[error.start:error.start + length]
                if len(chunk) < length:
                    continue
                try:
                    text = chunk.decode(superset)
                except UnicodeDecodeError:
                    continue
                if len(text) == 1:  # one character from the whole sequence, not single bytes read apart
                    return text, error.start + length
        raise error
    return handler
