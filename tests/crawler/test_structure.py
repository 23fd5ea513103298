"""A page's STRAND structure and the compact tag signature a crawl keeps instead of the HTML."""
import time

import pytest

from crawlweb.crawler.structure import linearize, signature_tokens, tag_signature, visible_text
from crawlweb.devdata import shared_data_dir
from evaluation.pairing.strand import strand_scores, strand_scores_of_tokens

REAL_HOSTS = shared_data_dir() / "real-sites" / "hosts"
PAGE = ("<!DOCTYPE html><html lang='sr'><head><title>Početna</title><style>p {color: red}</style></head>"
        "<body><nav><a href='/en/'>English</a></nav><h1>Dobro došli</h1><p>Prvi pasus<br>drugi red.</p>"
        "<script>var x = '<p>not a tag</p>';</script><!-- komentar --><img src='a.png'></body></html>")


def real_pages(limit=None):
    if not REAL_HOSTS.is_dir():
        pytest.skip(f"real-site data not found at {REAL_HOSTS}")
    paths = sorted(REAL_HOSTS.rglob("*.html"))[:limit]
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths]


def test_the_signature_reads_as_the_tags_and_text_runs_of_the_page():
    assert tag_signature(PAGE) == ("html head title #7 /title style /style /head body nav a #7 /a /nav h1 #11 /h1 "
                                   "p #10 br /br #10 /p script /script img /img /body /html")


def test_script_and_style_code_is_no_text():
    assert visible_text(PAGE) == "Početna English Dobro došli Prvi pasus drugi red."


def test_signature_tokens_give_back_what_linearize_gives_for_every_real_page():
    pages = real_pages()
    assert len(pages) > 200
    for html in pages:
        assert signature_tokens(tag_signature(html)) == linearize(html)[:2000]


def test_a_signature_is_a_small_part_of_its_page():
    pages = real_pages()
    html_bytes = sum(len(h.encode()) for h in pages)
    signature_bytes = sum(len(tag_signature(h).encode()) for h in pages)
    assert signature_bytes < html_bytes / 5


def test_strand_from_stored_signatures_equals_strand_from_the_html():
    first, second = real_pages(2)
    direct = strand_scores(first, second)
    stored = strand_scores_of_tokens(signature_tokens(tag_signature(first)), signature_tokens(tag_signature(second)))
    assert stored == direct


def test_long_pages_are_cut_at_max_tokens():
    html = "<html><body>" + "<p>x</p>" * 5000 + "</body></html>"
    assert len(tag_signature(html).split()) == 2000
    assert len(tag_signature(html, max_tokens=10).split()) == 10


def test_broken_odd_and_empty_input_never_raises():
    assert tag_signature("") == "" and tag_signature("   ") == ""
    assert tag_signature("<?xml version='1.0' encoding='utf-8'?><p>x") == "html body p #1 /p /body /html"
    broken = tag_signature("<div><p>open <b>never closed <o:p>word</o:p> <x y='1 2'>z</x>")
    assert " " not in "".join(w for w in broken.split())  # one word per token
    assert signature_tokens(broken) == linearize("<div><p>open <b>never closed <o:p>word</o:p> <x y='1 2'>z</x>")
    assert tag_signature("\x00<p>\x00nul</p>")  # NUL bytes in broken pages
    with pytest.raises(TypeError):
        tag_signature(b"<p>bytes</p>")


def test_a_bad_signature_is_refused_with_the_word_that_is_wrong():
    with pytest.raises(ValueError, match="'#x'"):
        signature_tokens("html #x /html")


def test_a_huge_page_costs_no_more_than_its_beginning():
    huge = "<html><body>" + "<div><p>tekst</p></div>" * 400_000 + "</body></html>"  # ~10 MB
    started = time.process_time()
    signature = tag_signature(huge)
    assert time.process_time() - started < 0.5
    assert len(signature.split()) == 2000 and signature.startswith("html body div p #5 /p /div")
    assert linearize(huge, 2000) == linearize(huge)[:2000]
