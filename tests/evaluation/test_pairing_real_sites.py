"""The pairing methods on the 8 real sites of /work/shared/data/real-sites.

Page languages come ONLY from truth.json (its sr–en pairs and the hr–en pairs of
the hard negatives); pages it does not label are left out.  No stand-in
identifier is used here.
"""
import random

import pytest

from evaluation.pairing.deep import confirm_deep_pair
from evaluation.pairing.pipeline import PairingConfig, SiteInput, run_pairing
from evaluation.pairing.strand import strand_scores

from .realsites import REAL_SITES, load_real_sites, site_input

pytestmark = pytest.mark.skipif(not REAL_SITES.is_dir(), reason=f"real-site data not found at {REAL_SITES}")


@pytest.fixture(scope="module")
def real():
    sites = load_real_sites()
    inputs = [site_input(s, s.truth_languages()) for s in sites]
    return sites, inputs, run_pairing(inputs)


def found_pairs(cands):
    return {frozenset(c.key) for c in cands}


def test_the_real_sites_conventions_are_their_top_patterns(real):
    _, _, result = real
    top = {host: site.ranked()[0].pattern for host, site in result.site_patterns.items() if site.patterns}
    assert top["www.sft21.com"] == ("en", "sr")  # x_en.html / x_sr.html
    assert top["www.drustvohispanistasrbija.rs"] == ("en", "sr")  # x-en.html / x-sr.html
    assert top["empire.stojadin2701.gh.test"] == ("", "sr")  # x.html / x-sr.html
    assert top["mipap.mipap.gh.test"] == ("", "sr")


def test_hard_negatives_get_no_serbian_english_pair(real):
    _, _, result = real
    proposed = [c for cands in result.by_method.values() for c in cands]
    negatives = ("slavonian-trading.chainervk.gh.test", "website2.wrapdbtc.gh.test")
    assert not [c for c in proposed if c.source_url.split("/")[2] in negatives]


def test_the_language_pair_is_a_parameter_croatian_pairs_of_a_hard_negative(real):
    sites, inputs, _ = real
    slavonian = [(s, i) for s, i in zip(sites, inputs) if s.host.startswith("slavonian")]
    site, inp = slavonian[0]
    result = run_pairing([inp], PairingConfig(languages=("en", "hr")))
    local = found_pairs(result.by_method["local"])
    assert local == {frozenset(p) for p in site.other_pairs["hr-en"]}


def test_all_methods_together_match_the_hand_checked_pairs(real):
    sites, inputs, result = real
    truth = {frozenset(p) for s in sites for p in s.truth_pairs}
    langs = {p.url: p.lang for i in inputs for p in i.pages}
    exists = {url for s in sites for url in s.files}
    deep = [c for g in result.deep_guesses
            if (c := confirm_deep_pair(g, g.guessed_url in exists, langs.get(g.guessed_url, "")))]
    combined = found_pairs(result.combined(extra=deep))
    precision = len(combined & truth) / len(combined)
    recall = len(combined & truth) / len(truth)
    assert precision >= 0.9 and recall >= 0.9, (precision, recall)
    # the translated-slug pairs (mipap, acimovic) can only come from declarations/switchers
    slugs = {frozenset(("http://mipap.mipap.gh.test/zivot-sr.html", "http://mipap.mipap.gh.test/life.html"))}
    assert not slugs & found_pairs(result.by_method["local"])


def test_strand_separates_true_pairs_from_mismatched_pages(real):
    sites, _, _ = real
    rng = random.Random(7)
    for site in (s for s in sites if s.host in ("mipap.mipap.gh.test", "www.digital-software.tech")):
        english = [en for _, en in site.truth_pairs]
        true_dp = [strand_scores(site.files[sr], site.files[en]).dp for sr, en in site.truth_pairs]
        wrong_dp = [strand_scores(site.files[sr], site.files[rng.choice([e for e in english if e != en])]).dp
                    for sr, en in site.truth_pairs]
        assert max(true_dp) < min(wrong_dp), site.host


def test_deep_guessing_finds_the_orphan_serbian_pages_a_crawl_cannot_reach(real):
    sites, inputs, _ = real
    by_host = {s.host: (s, i) for s, i in zip(sites, inputs)}
    site, inp = by_host["www.digital-software.tech"]
    orphans = {f"http://www.digital-software.tech/{n}-sr.html" for n in ("products", "solutions", "contact")}
    crawled = [p for p in inp.pages if p.url not in orphans]
    others = [i for host, (_, i) in by_host.items() if host != site.host]
    result = run_pairing(others + [SiteInput(inp.site, crawled)])
    langs = site.truth_languages()
    deep = {frozenset(c.key) for g in result.deep_guesses
            if (c := confirm_deep_pair(g, g.guessed_url in site.files, langs.get(g.guessed_url, "")))}
    expected = {frozenset(p) for p in site.truth_pairs if p[0] in orphans}
    assert len(expected) == 3 and expected <= deep
