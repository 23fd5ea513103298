"""The charset corpus: real pages in 13 encodings (CHARSET_CORPUS_DIR, built by
scripts/build_charset_corpus.py from data/charsets/manifest.json), served over HTTP on loopback and
read on the crawler's path (Fetcher, content classification, charset.decode_response), with their
declarations, without any, and under a server's default "ISO-8859-1" header."""
import pytest

from crawlweb.devdata import charset_corpus_dir
from crawlweb.testweb.charset_corpus import CharsetCorpusMissing, load_corpus, page_modes
from crawlweb.testweb.charset_serving import CharsetCorpusServer, loopback_fetcher, read_as_crawler

ISSUE_ENCODINGS = {"UTF-8", "UTF-16", "windows-1250", "windows-1251", "windows-1252", "ISO-8859-2",
                   "ISO-8859-5", "KOI8-R", "EUC-KR", "Shift_JIS", "EUC-JP", "GB18030", "Big5"}


@pytest.fixture(scope="module")
def corpus():
    try:
        return load_corpus(charset_corpus_dir())
    except CharsetCorpusMissing as missing:
        pytest.skip(str(missing))


def test_the_corpus_holds_real_pages_in_every_encoding_of_the_issue(corpus):
    encodings = {page.encoding for page in corpus}
    assert encodings >= ISSUE_ENCODINGS
    assert len(corpus) >= 40
    for page in corpus:
        assert page.body.decode(page.codec) and not page.body.decode(page.codec).isascii()


def test_every_page_decodes_right_with_and_without_declarations(corpus):
    served = [item for page in corpus for item in page_modes(page)]
    wrong = []
    with CharsetCorpusServer(served) as server, loopback_fetcher() as fetcher:
        for item in served:
            reading = read_as_crawler(fetcher, server.url(item))
            if reading.text != item.truth():
                wrong.append(f"{item.page.id} [{item.mode}, header {item.header}]: {reading.codec}, "
                             f"not {item.page.codec}")
    assert wrong == []
    assert {item.mode for item in served} == {"declared", "undeclared", "western_header", "western_only"}


def test_the_issue_31_pages_keep_their_consistent_euc_kr_declaration(corpus):
    # Apache's Korean manual: EUC-KR in the header (AddCharset) and in <meta>.
    pages = [page for page in corpus if page.encoding == "EUC-KR" and page.header and page.meta]
    assert pages
    with CharsetCorpusServer([page_modes(page)[0] for page in pages]) as server, loopback_fetcher() as fetcher:
        for page in pages:
            reading = read_as_crawler(fetcher, server.url(page_modes(page)[0]))
            assert reading.codec == "euc_kr" and reading.text == page.body.decode("euc_kr")
