"""What scoring remembers of the pairs it read (evaluation/pairing/recent.py): bounded, newest kept, never
served for other bodies, other settings or another lexicon."""
import pytest

from evaluation.pairing.body_coverage import body_coverage_reason
from evaluation.pairing.recent import RecentResults

from ..dictd import VILLAGE_WORDS, two_way_lexicon
from .test_body_coverage import OF_ITS_OWN, SERBIAN, TRANSLATED, page


def test_a_result_is_computed_once_and_the_older_half_goes_when_full():
    memory, computed = RecentResults(limit=4), []

    def result(key):
        return memory.get(key, lambda: computed.append(key) or key * 10)

    assert [result(k) for k in (1, 2, 1, 3, 4)] == [10, 20, 10, 30, 40]
    assert computed == [1, 2, 3, 4], "a key read before is not computed again"
    assert result(5) == 50 and len(memory) == 3, "full at 4: the older half (1, 2) went, then 5 came"
    result(3)
    result(1)
    assert computed == [1, 2, 3, 4, 5, 1], "3 was kept, 1 was read again"
    with pytest.raises(ValueError, match="limit must be at least 2"):
        RecentResults(limit=1)


def test_results_read_with_other_tables_are_forgotten():
    memory, first, second = RecentResults(limit=10), {"a": 1}, {"a": 1}
    assert memory.get("k", lambda: "with first", (first,)) == "with first"
    assert memory.get("k", lambda: "again", (first,)) == "with first"
    assert memory.get("k", lambda: "with second", (second,)) == "with second", "equal tables, but other objects"


def test_the_body_check_answers_for_its_own_bodies_settings_and_lexicon(tmp_path):
    (tmp_path / "village").mkdir()
    (tmp_path / "fewer").mkdir()
    village = two_way_lexicon(tmp_path / "village", VILLAGE_WORDS)
    fewer = two_way_lexicon(tmp_path / "fewer", {"kuća": "house", "jezero": "lake"})
    translated = body_coverage_reason(page("sr", SERBIAN), page("en", TRANSLATED), None, village, min_known=5)
    assert translated[0] is None
    own = body_coverage_reason(page("sr", SERBIAN), page("en", OF_ITS_OWN), None, village, min_known=1)
    assert own[0].startswith("bodies of their own")
    assert body_coverage_reason(page("sr", SERBIAN), page("en", TRANSLATED), None, village, min_known=5) == translated
    # the same bodies, another threshold: too few known words to judge
    assert body_coverage_reason(page("sr", SERBIAN), page("en", OF_ITS_OWN), None, village, min_known=50) == (None, {})
    # the same bodies, another lexicon: its own reading (two known words), not the village lexicon's
    reason, figures = body_coverage_reason(page("sr", SERBIAN), page("en", TRANSLATED), None, fewer, min_known=1)
    assert figures["body_known_words"] == 2 != translated[1]["body_known_words"]
    # read the other way round (English first), the lexicon's reversed copy shares its tables
    reversed_reading = body_coverage_reason(page("en", TRANSLATED), page("sr", SERBIAN), None, village.reversed(),
                                            min_known=5)
    assert reversed_reading[0] is None and reversed_reading[1]["body_known_words"] == 10
