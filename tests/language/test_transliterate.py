"""Serbian Cyrillic <-> Latin transliteration, including the digraphs lj, nj, dž."""
import pytest

from crawlweb.language.transliterate import cyrillic_to_latin, latin_to_cyrillic

SENTENCE_CYR = "Џеп пун љубавних писама, њихова ћерка Ђурђа и чаробни шешир."
SENTENCE_LAT = "Džep pun ljubavnih pisama, njihova ćerka Đurđa i čarobni šešir."


def test_cyrillic_sentence_becomes_the_expected_latin():
    assert cyrillic_to_latin(SENTENCE_CYR) == SENTENCE_LAT


def test_round_trip_cyrillic_latin_cyrillic_is_exact():
    real = "Народна библиотека Србије чува рукописе из средњег века и њихове преписе."
    assert latin_to_cyrillic(cyrillic_to_latin(real)) == real


@pytest.mark.parametrize(
    "cyrillic, latin",
    [("Љубав", "Ljubav"), ("ЉУБАВ", "LJUBAV"), ("Његош", "Njegoš"), ("ЊЕГОШ", "NJEGOŠ"),
     ("џемпер", "džemper"), ("ЏЕМПЕР", "DŽEMPER"), ("Џ", "Dž")],
)
def test_digraph_letters_follow_the_case_of_their_word(cyrillic, latin):
    assert cyrillic_to_latin(cyrillic) == latin
    assert latin_to_cyrillic(latin) == cyrillic


def test_prefix_boundary_keeps_d_and_z_apart():
    assert latin_to_cyrillic("nadživeti i podžanr") == "надживети и поджанр"
    assert latin_to_cyrillic("konjunkcija") == "конјункција"
    assert latin_to_cyrillic("konja") == "коња"


def test_foreign_letters_and_digits_are_kept():
    assert latin_to_cyrillic("Wi-Fi 5G") == "Wи-Фи 5Г"  # w has no Serbian letter
    assert cyrillic_to_latin("ISO 9001") == "ISO 9001"
