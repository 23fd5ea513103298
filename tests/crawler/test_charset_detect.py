"""Detection of undeclared pages and the Western-default check (crawlweb/crawler/charset_detect.py).
The texts are written here for these tests."""
import pytest

from crawlweb.crawler.charset import decode_html
from crawlweb.crawler.charset_detect import SERBIAN_LETTERS, alphabet_score, detect, western_contradicted

from .test_charset_declarations import CHINESE, GERMAN, GREEK, JAPANESE, KOREAN, LATIN, RUSSIAN, page

SERBIAN_CYRILLIC = "Добро дошли на сајт Друштва за међународну сарадњу. Чувамо шуме, живе ћелије и ђачке радове. "
ENGLISH_POUNDS = "If Rangers draw and Benfica win I stand to lift £825. Not bad for a £2 bet on three homes. "


@pytest.mark.parametrize("text, codec", [
    (KOREAN, "euc_kr"), (JAPANESE, "euc_jp"), (JAPANESE, "shift_jis"), (CHINESE, "gb18030"),
    ("這是一個繁體中文網頁，伺服器沒有宣告字元集，但內文夠長，可以看出是繁體中文。臺北，高雄。", "big5"),
    (RUSSIAN, "koi8_r"), (RUSSIAN, "cp1251"), (RUSSIAN, "iso8859_5"), (GREEK, "iso8859_7"),
    (SERBIAN_CYRILLIC, "cp1251"), (LATIN, "cp1250"), (LATIN, "iso8859_2"), (GERMAN, "cp1252"),
])
def test_an_undeclared_page_is_detected(text, codec):
    decoded, _ = decode_html(page(text * 2).encode(codec), None)
    assert decoded == page(text * 2)


def test_a_page_with_two_pound_signs_stays_western():
    assert decode_html(page(ENGLISH_POUNDS).encode("cp1252"), None)[0] == page(ENGLISH_POUNDS)


def test_detection_gives_family_codecs_that_decode_strictly():
    readings = detect(page(KOREAN * 2).encode("euc_kr"))
    assert readings[0][0] == "euc_kr" and 0 < readings[0][1] <= 1


@pytest.mark.parametrize("text, codec", [(LATIN, "cp1250"), (SERBIAN_CYRILLIC, "cp1251")])
def test_a_western_default_over_serbian_bytes_is_contradicted(text, codec):
    body = page(text * 2).encode(codec)
    assert western_contradicted(body, body.decode("cp1252", errors="replace"))


@pytest.mark.parametrize("text", [GERMAN, ENGLISH_POUNDS,
                                  "Voilà une très belle église, à côté du château; l'élève français. "])
def test_a_western_default_over_western_text_is_not_contradicted(text):
    body = page(text * 2).encode("cp1252")
    assert not western_contradicted(body, body.decode("cp1252"))


def test_the_alphabet_score_prefers_serbian_letters_to_mojibake():
    body = (LATIN * 2).encode("cp1250")
    right, western = body.decode("cp1250"), body.decode("cp1252")
    assert alphabet_score(right, SERBIAN_LETTERS) > 0 > alphabet_score(western, SERBIAN_LETTERS)
    # Latin text read as windows-1251 mixes Cyrillic with Latin letters inside words.
    assert alphabet_score(body.decode("cp1251"), SERBIAN_LETTERS) < 0
