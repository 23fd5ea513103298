import codecs
import random

import pytest

from crawlweb.crawler.charset import charset_label, decode_html, sniff_meta_charset

LATIN = ("Dobro došli na sajt Društva za međunarodnu saradnju. Čuvamo šume, žive ćelije i đačke radove; "
         "ČĆĐŠŽ su velika slova. ")
CYRILLIC = ("Добро дошли на сајт Друштва за међународну сарадњу. Чувамо шуме, живе ћелије и ђачке радове; "
            "Љубав, њива, џак. ")


def page(text: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>Naslov</title></head><body><p>{text}</p></body></html>"


def decoded(body: bytes, header: str | None) -> str:
    return decode_html(body, header)[0]


def test_utf8_body_declared_utf8_in_the_header():
    text, codec = decode_html(page(LATIN).encode("utf-8"), "utf-8")
    assert LATIN in text and codec == "utf-8"


def test_utf8_serbian_body_wins_over_a_wrong_iso_8859_1_header():
    text, codec = decode_html(page(LATIN * 3).encode("utf-8"), "ISO-8859-1")
    assert LATIN in text and codec == "utf-8"


def test_utf8_body_wins_over_a_wrong_meta_declaration():
    body = page(CYRILLIC, '<meta charset="windows-1250">').encode("utf-8")
    assert CYRILLIC in decoded(body, None)


@pytest.mark.parametrize("header, head", [
    ("windows-1250", ""),
    (None, '<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">'),
    ("iso-8859-1", '<meta charset="windows-1250">'),  # a server default against the page's own meta
    ("iso-8859-1", ""),  # the header alone is wrong
    (None, ""),  # nothing declared: detection
])
def test_windows_1250_serbian_latin_decodes_right(header, head):
    assert LATIN * 2 in decoded(page(LATIN * 2, head).encode("cp1250"), header)


@pytest.mark.parametrize("header", [None, "iso-8859-1"])
def test_iso_8859_2_serbian_latin_decodes_right(header):
    assert LATIN * 2 in decoded(page(LATIN * 2).encode("iso-8859-2"), header)


@pytest.mark.parametrize("header, head", [
    ("windows-1251", ""),
    (None, '<meta charset="windows-1251">'),
    ("iso-8859-1", ""),
    (None, ""),
])
def test_windows_1251_serbian_cyrillic_decodes_right(header, head):
    text, codec = decode_html(page(CYRILLIC * 2, head).encode("cp1251"), header)
    assert CYRILLIC * 2 in text and codec == "cp1251"


def test_a_correct_western_declaration_is_kept_for_a_french_page():
    french = "Voilà une très belle église, à côté du château; l'élève français, le garçon, père et mère. " * 3
    text, codec = decode_html(page(french).encode("cp1252"), "iso-8859-1")
    assert french in text and codec == "cp1252"


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                                        (codecs.BOM_UTF16_BE, "utf-16-be")])
def test_a_byte_order_mark_wins_over_every_declaration(bom, codec):
    body = bom + page(LATIN, '<meta charset="windows-1250">').encode(codec)
    text, used = decode_html(body, "iso-8859-1")
    assert LATIN in text and used == codec


def test_plain_ascii_is_returned_unchanged():
    assert decode_html(b"<p>Hello</p>", None) == ("<p>Hello</p>", "utf-8")
    assert decode_html(b"", "utf-8") == ("", "utf-8")


def test_an_unknown_declared_charset_is_ignored():
    assert LATIN in decoded(page(LATIN).encode("utf-8"), "x-no-such-charset")


def test_garbage_never_raises():
    rng = random.Random(11)
    for header in (None, "utf-8", "iso-8859-1", "bogus"):
        for _ in range(5):
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5000)))
            text, codec = decode_html(body, header)
            assert isinstance(text, str) and codecs.lookup(codec)


def test_broken_utf8_declared_utf8_falls_back_without_raising():
    body = page(LATIN).encode("utf-8")[:-40] + b"\xff\xfe\xc3" + b"</p></body></html>"
    text, _ = decode_html(body, "utf-8")
    assert "Dobro došli" in text


def test_meta_charset_is_only_sniffed_in_the_first_4_kb():
    assert sniff_meta_charset(b'<meta charset="windows-1251">') == "windows-1251"
    assert sniff_meta_charset(b" " * 5000 + b'<meta charset="windows-1251">') is None


@pytest.mark.parametrize("label, codec", [
    ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("ISO-8859-1", "cp1252"), ("latin1", "cp1252"),
    ("windows-1250", "cp1250"), ("Windows-1251", "cp1251"), ("nonsense", None), (None, None),
])
def test_charset_labels_follow_the_browsers_aliases(label, codec):
    assert charset_label(label) == codec


def test_a_utf8_body_cut_mid_character_stays_utf8():
    body = page(LATIN * 20).encode("utf-8")
    cut = body[: body.rindex("đ".encode()) + 1]  # the size cap fell inside a two-byte letter
    text, codec = decode_html(cut, "iso-8859-1")
    assert codec == "utf-8"
    assert text.startswith(page(LATIN * 19)[:-len("</p></body></html>")])


def test_a_charset_label_with_a_nul_is_unknown_and_the_page_still_decodes():
    # Found by the web fuzzer: codecs.lookup raises ValueError (not LookupError) for "utf\0-8", which
    # failed the page's whole batch and left its crawl running.
    assert charset_label("utf\x00-8") is None
    text, codec = decode_html(page(LATIN).encode("utf-8"), "utf\x00-8")
    assert LATIN in text and codec == "utf-8"
