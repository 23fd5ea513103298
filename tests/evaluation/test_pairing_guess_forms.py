"""Which deep-guess forms stay worth a request (evaluation/pairing/guess_forms.py)."""
from evaluation.pairing.guess_forms import FormRecord, explores_url, form_label, is_discredited, worth_asking


def test_a_form_is_judged_only_after_its_minimum_of_tries():
    assert not is_discredited(FormRecord(tries=499, hits=0), min_tries=500, min_rate=0.002)
    assert is_discredited(FormRecord(tries=500, hits=0), min_tries=500, min_rate=0.002)
    assert not is_discredited(None, min_tries=500, min_rate=0.002)


def test_a_form_that_finds_pages_often_enough_stays():
    assert is_discredited(FormRecord(tries=1000, hits=2), min_tries=500, min_rate=0.002)
    assert not is_discredited(FormRecord(tries=1000, hits=3), min_tries=500, min_rate=0.002)


def test_no_minimum_means_every_guess_is_checked():
    assert not is_discredited(FormRecord(tries=10**6, hits=0), min_tries=0, min_rate=0.002)


def test_forms_are_shown_as_the_patterns_are():
    assert form_label(("", "en")) == "⟨ε, en⟩" and form_label(("sr", "en")) == "⟨sr, en⟩"


def test_one_new_guess_url_in_n_of_a_discredited_form_is_stored_always_the_same():
    urls = [f"http://www.sajt{n}.rs/en/" for n in range(2000)]
    explored = [url for url in urls if explores_url(url, 20)]
    assert 60 <= len(explored) <= 140, "about one in 20"
    assert explored == [url for url in urls if explores_url(url, 20)], "the same URLs each time"
    assert not any(explores_url(url, 0) for url in urls)


def test_a_guess_is_asked_unless_its_form_is_discredited_and_not_explored():
    judged = {("", "en"): FormRecord(tries=800, hits=0), ("sr", "en"): FormRecord(tries=800, hits=40)}
    unexplored = next(f"http://www.s{n}.rs/en/" for n in range(100) if not explores_url(f"http://www.s{n}.rs/en/", 20))
    explored = next(f"http://www.s{n}.rs/en/" for n in range(100) if explores_url(f"http://www.s{n}.rs/en/", 20))
    assert not worth_asking(("", "en"), unexplored, judged, 500, 0.002, 20)
    assert worth_asking(("", "en"), explored, judged, 500, 0.002, 20)
    assert worth_asking(("sr", "en"), unexplored, judged, 500, 0.002, 20), "a form that finds pages"
    assert worth_asking(("", "sr"), unexplored, judged, 500, 0.002, 20), "a form not tried yet"
