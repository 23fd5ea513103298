"""Def. 9 bilingual similarity, the content check and STRAND structure."""
import statistics

import pytest

from crawlweb.crawler.structure import tag_signature, visible_text
from evaluation.pairing.patterns import global_credibility, mine_site_patterns
from evaluation.pairing.records import PageRecord
from evaluation.pairing.similarity import bilingual_similarity, filter_pair, pattern_weights
from evaluation.pairing.strand import align, linearize, strand_scores

LS = ["http://s.rs/en/a.html", "http://s.rs/en/b.html", "http://s.rs/img/logo.html", "http://s.rs/x.html"]
LT = ["http://s.rs/sr/a.html", "http://s.rs/sr/b.html", "http://s.rs/img/logo.html#top"]
WEIGHTS = {("en", "sr"): 0.5}


def test_def_9_similarity_computed_by_hand():
    sim = bilingual_similarity(LS, LT, WEIGHTS)
    total = 4 + 3
    assert sim.shared_links == 1 and sim.pattern_link_pairs == 2
    assert sim.sim_same == pytest.approx(2 * 1 / total)
    assert sim.sim_pattern == pytest.approx((2 * 0.5 + 2 * 0.5) / total)  # N(k, π) = 2, C(k) = 0.5
    assert sim.sim == pytest.approx(0.5 * 2 / total + 0.5 * 2 / total)
    assert bilingual_similarity(LS, LT, WEIGHTS, alpha=1.0).sim == pytest.approx(2 / total)


def test_patterns_outside_the_top_list_do_not_count():
    assert bilingual_similarity(LS, LT, {("english", "srpski"): 1.0}).pattern_link_pairs == 0


def test_pattern_weights_take_the_top_patterns_on_the_chosen_scale():
    a = mine_site_patterns("a.rs", {f"http://a.rs/{lang}/{n}.html": lang for lang in ("en", "sr") for n in "xy"})
    g = global_credibility([a])
    assert pattern_weights(g, scale="unit") == {("en", "sr"): 1.0}
    assert pattern_weights(g) == {("en", "sr"): pytest.approx(g[("en", "sr")].credibility)}
    assert pattern_weights(g, top_n=0) == {}
    with pytest.raises(ValueError, match="unknown credibility scale"):
        pattern_weights(g, scale="log")


def page(url, lang, links=(), length=100, html=""):
    return PageRecord(url, lang, "", length, tuple(links), html)


def test_pairs_without_shared_or_pattern_links_are_filtered_with_the_reason():
    verdict = filter_pair(page("http://s.rs/en/a.html", "en", ["http://s.rs/en/q.html"]),
                          page("http://s.rs/sr/a.html", "sr", ["http://s.rs/sr/z/w.html"]), WEIGHTS)
    assert not verdict.keep and "Def. 9" in verdict.reason and verdict.scores["sim"] == 0


def test_pages_without_any_outlink_are_not_judged_by_def_9_unless_asked():
    en, sr = page("http://s.rs/en/a.html", "en"), page("http://s.rs/sr/a.html", "sr")
    assert filter_pair(en, sr, WEIGHTS).keep
    assert not filter_pair(en, sr, WEIGHTS, no_links="filter").keep


def test_content_check_confirms_languages_and_length_ratio():
    en = page("http://s.rs/en/a.html", "en", LS, 100)
    assert filter_pair(en, page("http://s.rs/sr/a.html", "sr-Latn", LT, 120), WEIGHTS).keep
    wrong = filter_pair(en, page("http://s.rs/sr/a.html", "hr", LT, 120), WEIGHTS)
    assert not wrong.keep and "languages not confirmed" in wrong.reason
    short = filter_pair(en, page("http://s.rs/sr/a.html", "sr", LT, 10), WEIGHTS)
    assert not short.keep and "text-length ratio 0.10" in short.reason
    assert filter_pair(en, page("http://s.rs/sr/a.html", "sr", LT, 10), WEIGHTS, check_content=False).keep


DOC_A = ("<html><body><h1>Naslov</h1><p>Prvi pasus teksta.</p><p>Drugi.</p>"
         "<p>Treci pasus je najduzi od svih.</p><script>var x = 1;</script></body></html>")
DOC_B = ("<html><body><h1>Title</h1><p>First paragraph of text.</p><p>Second.</p>"
         "<p>The third paragraph is the longest of all.</p><div>Extra</div></body></html>")


def test_strand_linearizes_markup_and_text_chunks():
    # The tree as a browser builds it: a fragment gets its implied <html> and <body>.
    assert linearize("<p>Hi <b>you</b></p><script>x()</script>") == [
        ("[START:html]", 0), ("[START:body]", 0),
        ("[START:p]", 0), ("[Chunk]", 2), ("[START:b]", 0), ("[Chunk]", 3), ("[END:b]", 0), ("[END:p]", 0),
        ("[START:script]", 0), ("[END:script]", 0), ("[END:body]", 0), ("[END:html]", 0)]


def test_strand_difference_percentage_chunks_and_length_correlation():
    scores = strand_scores(DOC_A, DOC_B)
    shared = 16  # html, body, h1 + chunk, three p + chunk, closing tags
    only_a, only_b = 2, 3  # <script></script> (its code is no chunk); <div>, chunk, </div>
    assert (scores.tokens_a, scores.tokens_b) == (shared + only_a, shared + only_b)
    assert scores.dp == pytest.approx((only_a + only_b) / (shared + only_a + only_b))
    lengths_a = [len(t) for t in ("Naslov", "Prvi pasus teksta.", "Drugi.", "Treci pasus je najduzi od svih.")]
    lengths_b = [len(t) for t in ("Title", "First paragraph of text.", "Second.",
                                  "The third paragraph is the longest of all.")]
    assert scores.n == 4
    assert scores.r == pytest.approx(statistics.correlation(lengths_a, lengths_b))


def test_structure_check_rejects_documents_with_different_layout():
    other = "<html><body><table><tr><td>a</td><td>b</td></tr></table><ul><li>x</li><li>y</li></ul></body></html>"
    en = page("http://s.rs/en/a.html", "en", LS, 100, DOC_B)
    similar = filter_pair(en, page("http://s.rs/sr/a.html", "sr", LT, 90, DOC_A), WEIGHTS, check_structure=True)
    assert similar.keep and similar.scores["dp"] < 0.5
    different = filter_pair(en, page("http://s.rs/sr/a.html", "sr", LT, 90, other), WEIGHTS, check_structure=True)
    assert not different.keep and "STRAND dp" in different.reason


def test_structure_check_reads_the_stored_tag_signatures_when_the_html_is_not_at_hand():
    other = "<html><body><table><tr><td>a</td><td>b</td></tr></table><ul><li>x</li><li>y</li></ul></body></html>"

    def stored(url, lang, html):  # what a crawl keeps: text and signature, no HTML
        return PageRecord(url, lang, "", 90, tuple(LT), text=visible_text(html), structure=tag_signature(html))

    en = stored("http://s.rs/en/a.html", "en", DOC_B)
    similar = filter_pair(en, stored("http://s.rs/sr/a.html", "sr", DOC_A), WEIGHTS, check_structure=True)
    assert similar.keep and similar.scores["structure_checked"]
    assert similar.scores["dp"] == pytest.approx(strand_scores(DOC_A, DOC_B).dp)
    different = filter_pair(en, stored("http://s.rs/sr/a.html", "sr", other), WEIGHTS, check_structure=True)
    assert not different.keep and different.reason.startswith("structure differs: STRAND dp")


def test_pages_without_html_or_signature_are_not_judged_on_structure():
    en, sr = page("http://s.rs/en/a.html", "en", LS, 100), page("http://s.rs/sr/a.html", "sr", LT, 90)
    verdict = filter_pair(en, sr, WEIGHTS, check_structure=True)
    assert verdict.keep and verdict.scores["structure_checked"] is False and "dp" not in verdict.scores


def test_strand_aligns_by_a_longest_common_subsequence():
    pairs = align(list("ABCBDAB"), list("BDCABA"))
    assert len(pairs) == 4  # the textbook example: BCBA
    assert all("ABCBDAB"[i] == "BDCABA"[j] for i, j in pairs)
    assert [i for i, _ in pairs] == sorted(i for i, _ in pairs) and [j for _, j in pairs] == sorted(j for _, j in pairs)
    assert align([], list("AB")) == [] and align(list("AB"), list("AB")) == [(0, 0), (1, 1)]


def test_strand_compares_the_first_max_tokens_of_long_pages():
    long_page = "<html><body>" + "<div><p>x</p></div>" * 3000 + "</body></html>"
    scores = strand_scores(long_page, long_page)
    assert scores.dp == 0 and scores.tokens_a == scores.tokens_b == 2000
