"""Which deep-guess forms stay worth a request (evaluation/pairing/guess_forms.py)."""
from evaluation.pairing.guess_forms import FormRecord, explores, form_label, is_discredited


def test_a_form_is_judged_only_after_its_minimum_of_tries():
    assert not is_discredited(FormRecord(tries=499, hits=0), min_tries=500, min_rate=0.002)
    assert is_discredited(FormRecord(tries=500, hits=0), min_tries=500, min_rate=0.002)
    assert not is_discredited(None, min_tries=500, min_rate=0.002)


def test_a_form_that_finds_pages_often_enough_stays():
    assert is_discredited(FormRecord(tries=1000, hits=2), min_tries=500, min_rate=0.002)
    assert not is_discredited(FormRecord(tries=1000, hits=3), min_tries=500, min_rate=0.002)


def test_no_minimum_means_every_guess_is_checked():
    assert not is_discredited(FormRecord(tries=10**6, hits=0), min_tries=0, min_rate=0.002)


def test_one_guess_in_n_of_a_discredited_form_is_still_checked():
    assert [check_id for check_id in range(1, 61) if explores(check_id, 20)] == [20, 40, 60]
    assert not any(explores(check_id, 0) for check_id in range(100))


def test_forms_are_shown_as_the_patterns_are():
    assert form_label(("", "en")) == "⟨ε, en⟩" and form_label(("sr", "en")) == "⟨sr, en⟩"
