"""Line alignment with a dictionary: a translation keeps its lines in order, a text of its own does not."""
import pytest

from evaluation.bodies.alignment import ALIGNMENT_FEATURE_NAMES, aligned_share, alignment_features
from evaluation.bodies.lexicon import Lexicon, stems

from ..dictd import VILLAGE_WORDS, two_way_lexicon

SERBIAN = ["Kuća pored jezera i planina.", "Šuma, livada i dvorac.", "Crkva, most, ulica i pijaca."]
TRANSLATED = ["A house by the lake and the mountain.", "A forest, a meadow and a castle.",
              "A church, a bridge, a street and a market."]
# the same ten words, in other sentences: a text of its own on the same topic
OF_ITS_OWN = ["A castle by the market, and a house.", "A church near the lake, a bridge and a forest.",
              "A mountain street by the meadow."]


@pytest.fixture
def lexicon(tmp_path) -> Lexicon:
    return two_way_lexicon(tmp_path, VILLAGE_WORDS)


def test_a_translation_aligns_line_by_line(lexicon):
    assert aligned_share(lexicon, SERBIAN, TRANSLATED) == (1.0, 10)


def test_the_same_words_in_other_lines_cover_as_a_bag_but_do_not_align(lexicon):
    forward, backward, _ = lexicon.coverage(stems(SERBIAN), stems(OF_ITS_OWN))
    assert forward == backward == 1.0
    share, known = aligned_share(lexicon, SERBIAN, OF_ITS_OWN)
    assert known == 10 and share <= 0.3


def test_the_lines_must_keep_their_order(lexicon):
    share, _ = aligned_share(lexicon, SERBIAN, list(reversed(TRANSLATED)))
    assert share == pytest.approx(8 / 20)  # only one line pair of three can be kept in order: 4 + 4 of 20 words


def test_a_body_the_dictionary_does_not_know_has_no_share(lexicon):
    assert aligned_share(lexicon, ["Zdravo svete"], TRANSLATED) == (None, 0)
    assert aligned_share(lexicon, SERBIAN, []) == (None, 0)


def test_features_read_either_order_and_say_when_nothing_was_read(lexicon):
    assert alignment_features(lexicon, TRANSLATED, SERBIAN) == {"aligned_share": 1.0, "aligned_missing": 0.0}
    assert alignment_features(None, SERBIAN, TRANSLATED) == {"aligned_share": 0.0, "aligned_missing": 1.0}
    assert tuple(alignment_features(lexicon, SERBIAN, OF_ITS_OWN)) == ALIGNMENT_FEATURE_NAMES
