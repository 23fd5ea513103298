"""The declaration rule of crawlweb/crawler/charset.py (issue 31): a declared charset that decodes strictly
is kept, unless it is a generic Western default contradicted by the bytes. The pages are short texts
written here for these tests, encoded in the charset each test names."""
import codecs

import pytest

from crawlweb.crawler.charset import decode_html, decode_response, header_charset, sniff_xml_encoding
from crawlweb.crawler.fetch import looks_binary

KOREAN = "한국어 웹 페이지의 본문입니다. 서버와 문서가 모두 같은 문자 집합을 밝힙니다. 서울, 부산, 대구, 인천. "
JAPANESE = "日本語のページです。文字コードの宣言はありませんが、本文は長めに書いてあります。東京〜大阪。"
CHINESE = "这是一个中文网页。服务器没有声明字符集，但正文足够长，可以看出是简体中文。北京，上海。"
GREEK = "Καλημέρα κόσμε. Αυτή είναι μια ελληνική σελίδα με αρκετό κείμενο για να φανεί η γλώσσα. "
RUSSIAN = "Это русская страница. Сервер не знает её кодировку, но текст достаточно длинный. "
LATIN = "Dobro došli na sajt Društva za međunarodnu saradnju. Čuvamo šume, žive ćelije i đačke radove. "
GERMAN = "Grüße aus München! Die Größe der Änderungen überrascht Jürgen, aber Straßen bleiben schön. "


def page(text: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>Naslov</title></head><body><p>{text}</p></body></html>"


def test_a_page_declared_euc_kr_in_header_and_meta_is_decoded_as_euc_kr():
    # Issue 31: such pages were decoded as ISO-8859-5, whose Cyrillic mojibake scored higher in the
    # Serbian-alphabet check, and stored as garbage identified uk/ru.
    body = page(KOREAN * 3, '<meta http-equiv="Content-Type" content="text/html; charset=EUC-KR">').encode("euc_kr")
    text, codec = decode_html(body, "EUC-KR")
    assert KOREAN * 3 in text and codec == "euc_kr"


@pytest.mark.parametrize("text, label, codec", [
    (GREEK, "ISO-8859-7", "iso8859-7"),      # also decodes as ISO-8859-5 Cyrillic
    (RUSSIAN, "KOI8-R", "koi8-r"),           # also decodes as windows-1251, ISO-8859-5
    (JAPANESE, "Shift_JIS", "shift_jis"),
    (CHINESE, "GB2312", "gb18030"),
    (LATIN, "ISO-8859-2", "iso8859-2"),      # also decodes as windows-1250, with other letters
])
def test_a_specific_declaration_that_decodes_strictly_is_kept(text, label, codec):
    body = page(text * 2).encode(codec)
    decoded, used = decode_html(body, label)
    assert text * 2 in decoded and used == codec


def test_a_declaration_that_does_not_decode_gives_way_to_what_the_bytes_are():
    quotes = "„Die Größe“ – sagt er – ist „schön“. " * 4  # windows-1252 quotes: not UTF-8 bytes
    body = page(quotes, '<meta charset="utf-8">').encode("cp1252")
    text, codec = decode_html(body, None)
    assert quotes in text and codec == "cp1252"


def test_valid_utf8_wins_over_a_multibyte_declaration_too():
    body = page(JAPANESE * 2, '<meta charset="Shift_JIS">').encode("utf-8")
    assert decode_html(body, "Shift_JIS") == (page(JAPANESE * 2, '<meta charset="Shift_JIS">'), "utf-8")


@pytest.mark.parametrize("text, codec", [(JAPANESE, "euc_jp"), (KOREAN, "euc_kr"), (CHINESE, "gb18030")])
@pytest.mark.parametrize("western", ["ISO-8859-1", "US-ASCII", "windows-1252"])
def test_a_western_default_header_over_cjk_bytes_is_contradicted(text, codec, western):
    decoded, used = decode_html(page(text * 2).encode(codec), western)
    assert text * 2 in decoded and used == codec


def test_a_western_default_header_gives_way_to_the_pages_own_specific_meta():
    body = page(RUSSIAN * 2, '<meta charset="koi8-r">').encode("koi8_r")
    assert RUSSIAN * 2 in decode_html(body, "ISO-8859-1")[0]


def test_a_correct_western_declaration_of_a_german_page_is_kept():
    text, codec = decode_html(page(GERMAN * 2).encode("cp1252"), "ISO-8859-1")
    assert GERMAN * 2 in text and codec == "cp1252"


def test_a_utf16_label_over_bytes_that_are_not_utf16_is_passed_over():
    body = page(LATIN, '<meta charset="utf-16">').encode("utf-8")
    assert LATIN in decode_html(body, "UTF-16")[0]


def test_utf16_without_a_byte_order_mark_decodes_and_is_not_taken_for_binary():
    # Apache 1.3 served its Russian test page as UCS-2 big-endian, without a BOM, header "UCS-2".
    body = page(RUSSIAN).encode("utf-16-be")
    assert body.isascii()  # Cyrillic code units 04xx: every byte below 0x80
    assert decode_html(body, "UCS-2") == (page(RUSSIAN), "utf-16-be")
    assert decode_html(page(RUSSIAN).encode("utf-16-le"), None) == (page(RUSSIAN), "utf-16-le")
    assert not looks_binary(body) and looks_binary(b"\x00\x01\x02binary\x00\x00\x07" * 40)


def test_an_xml_declaration_names_the_charset_of_an_xhtml_page():
    head = '<?xml version="1.0" encoding="KOI8-R"?>\n'
    body = (head + page(RUSSIAN)).encode("koi8_r")
    assert sniff_xml_encoding(body) == "KOI8-R"
    assert decode_html(body, None) == (head + page(RUSSIAN), "koi8-r")


@pytest.mark.parametrize("content_type, charset", [
    ('text/html; charset="EUC-KR"', "EUC-KR"), ("text/html;charset=utf-8;q=1", "utf-8"),
    ("text/html; Charset = windows-1251", "windows-1251"), ("text/html", None), ("", None),
])
def test_the_header_charset_is_read_from_content_type(content_type, charset):
    assert header_charset(content_type) == charset


def test_decode_response_reads_the_header_charset_as_the_crawler_receives_it():
    body = page(KOREAN * 2).encode("euc_kr")
    assert decode_response(body, "text/html; charset=EUC-KR") == decode_html(body, "EUC-KR")


def test_a_byte_order_mark_still_wins_over_a_kept_declaration():
    body = codecs.BOM_UTF8 + page(KOREAN).encode("utf-8")
    assert decode_html(body, "EUC-KR") == (page(KOREAN), "utf-8")
