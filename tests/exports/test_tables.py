"""TSV, CSV and JSON writers: one chunk a row, every line the same number of columns, read back
by the csv and json modules."""
import csv
import io
import json

from console.exports.tables import csv_lines, json_array, tsv_lines
from console.exports.text import language_tag, tsv_cell

ROWS = [{"url": "http://a.rs/sr/", "text": "jedan\tdva\nnovi red", "score": 0.123456789, "kept": True},
        {"url": "http://a.rs/en/", "text": 'one, "two"', "score": None, "kept": False}]


def test_tsv_cells_never_break_a_line_or_a_column():
    lines = list(tsv_lines(["url", "text", "score", "kept"], ROWS))
    assert len(lines) == 3 and all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert [line.count("\t") for line in lines] == [3, 3, 3]
    assert lines[1] == "http://a.rs/sr/\tjedan dva novi red\t0.123457\t1\n"
    assert lines[2].split("\t")[2] == "", "a missing score is an empty cell"


def test_tsv_cells_lose_control_characters():
    assert tsv_cell("a\x00b\x1bc\u2028d") == "abc d"


def test_csv_round_trips_through_the_csv_module():
    text = "".join(csv_lines(["url", "text", "score"], ROWS))
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["text"] for r in rows] == ["jedan\tdva\nnovi red", 'one, "two"']
    assert rows[1]["score"] == ""


def test_json_array_is_valid_json_one_row_a_chunk_and_when_empty():
    chunks = list(json_array(iter(ROWS)))
    assert len(chunks) == 4
    assert json.loads("".join(chunks))[0]["text"] == "jedan\tdva\nnovi red"
    assert json.loads("".join(json_array([]))) == []


def test_language_tags_name_the_script_only_for_two_script_languages():
    assert language_tag("sr", "Cyrl") == "sr-Cyrl" and language_tag("sr", "latn") == "sr-Latn"
    assert language_tag("en", "Latn") == "en" and language_tag("", "") == "und" and language_tag("sr") == "sr"
