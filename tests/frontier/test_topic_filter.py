"""Combine's topic filter: term triplets, @and, regular expressions, negative weights, two algorithms."""
from __future__ import annotations

import math

import pytest

from frontier.topic_filter import LOCATION_WEIGHTS, TopicDefinition, TopicDefinitionError, TopicDocument

GLASS = """# Combine doc, Sec. 4.5.3
50: optical glass=A.14.5, D.2.2
30: glass @and fiberoptics=D.2.2.8
-10000: glass @and art=A
"""
PLANTS = """#This is a comment
 75: d\\.?\\s*californica=CP.Drosophyllum
 10: pitcher[^\\s]*=CP
 -10: pitcher[^\\s]* @and baseball=CP
"""


def test_a_phrase_awards_its_weight_to_each_of_its_classes():
    topic = TopicDefinition.parse(GLASS)
    score = topic.score(TopicDocument(text="Lenses are made of optical glass."))
    assert score.total == 50 * LOCATION_WEIGHTS["text"]
    assert score.per_class == {"A.14.5": 50.0, "D.2.2": 50.0}
    assert [m["term"] for m in score.matches] == ["optical glass"]


def test_phrase_words_must_be_in_order_and_whole_words():
    topic = TopicDefinition.parse(GLASS)
    assert topic.score(TopicDocument(text="glass optical and opticalglass")).total == 0


def test_and_term_needs_all_parts_in_any_order():
    topic = TopicDefinition.parse(GLASS)
    both = topic.score(TopicDocument(text="fiberoptics use a special glass"))
    one = topic.score(TopicDocument(text="a special glass only"))
    assert both.per_class.get("D.2.2.8") == 30
    assert "D.2.2.8" not in one.per_class


def test_and_parts_found_in_different_locations_still_match():
    topic = TopicDefinition.parse(GLASS)
    score = topic.score(TopicDocument(title="Glass", text="notes on fiberoptics"))
    assert score.per_class["D.2.2.8"] > 0


def test_negative_weight_excludes_a_document():
    topic = TopicDefinition.parse(GLASS)
    doc = TopicDocument(text="optical glass in modern art")
    assert topic.score(doc).total < 0
    assert not topic.is_relevant(doc, cutoff=10)
    assert topic.is_relevant(TopicDocument(text="optical glass in lenses"), cutoff=10)


def test_regular_expressions_match_like_the_combine_examples():
    topic = TopicDefinition.parse(PLANTS)
    for name in ("D californica", "D. californica", "D.californica"):
        assert topic.score(TopicDocument(text=f"The plant {name} grows here")).per_class["CP.Drosophyllum"] == 75
    assert topic.score(TopicDocument(text="pitchers and a pitcher")).per_class["CP"] == 20  # two hits


def test_pitcher_with_baseball_loses_its_points():
    topic = TopicDefinition.parse(PLANTS)
    assert topic.score(TopicDocument(text="the pitcher of the baseball team")).total == 0


def test_truncation_written_as_bracket_s_star_matches_longer_words():
    topic = TopicDefinition.parse("5: glass art[\\s]*=A\n")
    for text in ("glass art", "glass arts", "glass artists", "glass articles"):
        assert topic.score(TopicDocument(text=text)).total == 5
    assert topic.score(TopicDocument(text="glass smart")).total == 0


def test_plain_matching_weighs_title_above_body_text():
    topic = TopicDefinition.parse("10: prevod=T\n")
    in_title = topic.score(TopicDocument(title="Prevod", text="nothing"))
    in_text = topic.score(TopicDocument(title="nothing", text="prevod"))
    assert in_title.total > in_text.total > 0


def test_position_weighting_follows_the_combine_formula():
    topic = TopicDefinition.parse("10: hotel=H\n")
    score = topic.score(TopicDocument(text="hotel one two hotel"), algorithm="position")
    expected = 10 / math.log(0.5 * 1 + 1) + 10 / math.log(0.5 * 4 + 1)
    assert score.total == pytest.approx(expected)


def test_position_weighting_prefers_early_matches_and_close_and_parts():
    topic = TopicDefinition.parse("10: hotel=H\n20: hotel @and beograd=H\n")
    filler = " ".join(["word"] * 50)
    early = topic.score(TopicDocument(title="Hotel Beograd", text=filler), algorithm="position")
    late = topic.score(TopicDocument(text=f"{filler} hotel word word word beograd"), algorithm="position")
    assert early.total > late.total > 0


def test_position_scores_negative_terms_too():
    topic = TopicDefinition.parse("10: pitcher[^\\s]*=CP\n-100: baseball=CP\n")
    assert topic.score(TopicDocument(text="pitcher baseball"), algorithm="position").total < 0


def test_unknown_algorithm_is_refused():
    with pytest.raises(ValueError, match="plain.*position"):
        TopicDefinition.parse(GLASS).score(TopicDocument(text="x"), algorithm="svm")


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ("# ok\n50 optical glass=A\n", 2, "expected 'WEIGHT: TERMS=CLASS"),
        ("10: glass=A\nten: glass=A\n", 2, "expected"),
        ("10: glass @and =A\n", 1, "expected|empty term"),
        ("\n\n10: glass=A, \n", 3, "empty class"),
        ("10: gla(ss=A\n", 1, "bad regular expression"),
        ("10: glass\n", 1, "expected"),
    ],
)
def test_bad_lines_are_reported_with_their_line_number(text, line, problem):
    with pytest.raises(TopicDefinitionError, match=rf"line {line}:.*({problem})"):
        TopicDefinition.parse(text)


def test_a_definition_without_terms_is_refused():
    with pytest.raises(TopicDefinitionError, match="no term lines"):
        TopicDefinition.parse("# only a comment\n\n")
