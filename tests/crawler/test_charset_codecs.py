"""Charset labels and families as browsers read them, and strict decoding (crawlweb/crawler/charset_codecs.py).
Byte strings are written here by hand for these tests."""
import pytest

from crawlweb.crawler.charset_codecs import (
    UTF16, charset_label, is_single_byte, strict_decode, utf16_byte_order, utf8_multibyte)


@pytest.mark.parametrize("label, family", [
    ("Shift_JIS", "shift_jis"), ("windows-31j", "shift_jis"), ("x-sjis", "shift_jis"),
    ("EUC-KR", "euc_kr"), ("ks_c_5601-1987", "euc_kr"), ("windows-949", "euc_kr"),
    ("GB2312", "gb18030"), ("GBK", "gb18030"), ("Big5", "big5"), ("big5-hkscs", "big5"),
    ("ISO-8859-1", "cp1252"), ("US-ASCII", "cp1252"), ("windows-1252", "cp1252"),
    ("KOI8-r", "koi8-r"), ("ISO-8859-5", "iso8859-5"), ("x-euc-jp", "euc_jp"),
    ("UTF-16", UTF16), ("UCS-2", UTF16), ("unicode", UTF16), ("utf-16le", UTF16),
])
def test_labels_name_the_family_browsers_decode_with(label, family):
    assert charset_label(label) == family


def test_shift_jis_reads_the_wave_dash_as_jis_does_and_takes_windows_extensions_from_cp932():
    wave_dash = b"\x81\x60"          # JIS X 0208: U+301C; cp932 alone would say U+FF5E
    numbered = b"\x87\x40"           # a NEC extension (circled 1), not in JIS X 0208
    assert strict_decode(wave_dash + numbered, "shift_jis") == "\u301c\u2460"


def test_euc_kr_takes_the_extended_hangul_of_windows_949():
    # "똠" is outside KS X 1001's 2,350 syllables: windows-949 encodes it as 8C 63.
    assert strict_decode("가 똠".encode("cp949"), "euc_kr") == "가 똠"


def test_big5_takes_the_eten_extensions():
    assert strict_decode(b"\xb3\x6f\xf9\xd8", "big5") == "這裏"  # F9D8 is one of ETEN's seven additions


def test_gb2312_labels_decode_gbk_characters():
    assert strict_decode("镕".encode("gbk"), charset_label("gb2312")) == "镕"


def test_bytes_that_are_not_in_the_charset_do_not_decode():
    assert strict_decode(b"\x81\x60 \xff\xff\xff middle", "shift_jis") is None
    assert strict_decode("Dobro došli, čast je naša".encode("utf-8") + b"\xff and more text", "utf-8") is None


def test_a_multibyte_character_cut_at_the_end_is_left_out():
    body = "한국어 문서".encode("euc_kr")
    assert strict_decode(body[:-1], "euc_kr") == "한국어 문"


def test_utf16_without_a_byte_order_mark_is_known_by_its_zero_bytes():
    page = "<html><body><p>Добро дошли</p></body></html>"
    assert utf16_byte_order(page.encode("utf-16-le")) == "utf-16-le"
    assert utf16_byte_order(page.encode("utf-16-be")) == "utf-16-be"
    assert strict_decode(page.encode("utf-16-be"), UTF16) == page


def test_single_byte_text_and_binary_data_are_not_utf16():
    assert utf16_byte_order("<p>Obična strana</p>".encode("cp1250") * 4) is None
    assert utf16_byte_order(bytes(range(256)) * 4) is None
    assert strict_decode(b"<p>plain bytes, no zeros</p>", UTF16) is None


def test_valid_utf8_with_multibyte_sequences_is_recognised():
    assert utf8_multibyte("čćđ".encode("utf-8"))
    assert not utf8_multibyte(b"plain ascii")
    assert not utf8_multibyte("čćđ".encode("cp1250"))


def test_single_and_multi_byte_families():
    assert is_single_byte("cp1250") and is_single_byte("koi8_r")
    assert not any(is_single_byte(codec) for codec in ("utf-8", "euc_kr", "shift_jis", "gb18030", "big5", UTF16))
