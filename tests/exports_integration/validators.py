"""Readers that check each export the way the tool downstream would read it."""
from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

from warcio.archiveiterator import ArchiveIterator

from console.exports.pair_rows import PAIR_COLUMNS, SEGMENT_COLUMNS
from console.exports.site_rows import SITE_COLUMNS

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TMX_HEADER = {"creationtool", "creationtoolversion", "segtype", "o-tmf", "adminlang", "srclang", "datatype"}


def read_sites_csv(data: bytes) -> list[dict]:
    reader = csv.DictReader(io.StringIO(data.decode("utf-8"), newline=""))
    assert tuple(reader.fieldnames) == SITE_COLUMNS
    return list(reader)


def read_tsv(data: bytes, columns: tuple, *, header: bool) -> list[dict]:
    lines = data.decode("utf-8").split("\n")
    assert lines[-1] == "", "the file ends with a line break"
    lines = lines[:-1]
    for number, line in enumerate(lines, start=1):
        assert len(line.split("\t")) == len(columns), f"line {number} has {len(line.split(chr(9)))} columns"
    if header:
        assert tuple(lines.pop(0).split("\t")) == columns
    return [dict(zip(columns, line.split("\t"))) for line in lines]


def read_pairs_tsv(data: bytes) -> list[dict]:
    return read_tsv(data, PAIR_COLUMNS, header=True)


def read_segments_tsv(data: bytes) -> list[dict]:
    return read_tsv(data, SEGMENT_COLUMNS, header=False)


def read_tmx(data: bytes) -> list[dict]:
    """The translation units, after checking the TMX 1.4 structure around them."""
    root = ET.fromstring(data)
    assert root.tag == "tmx" and root.get("version") == "1.4"
    assert [child.tag for child in root] == ["header", "body"]
    assert TMX_HEADER <= set(root.find("header").attrib)
    units = []
    for tu in root.find("body"):
        assert tu.tag == "tu"
        props = {p.get("type"): p.text for p in tu.findall("prop")}
        assert {"x-source-url", "x-target-url", "x-method", "x-score"} <= set(props), props
        tuvs = tu.findall("tuv")
        assert len(tuvs) == 2 and all(t.find("seg") is not None and (t.find("seg").text or "").strip() for t in tuvs)
        units.append({**props, "langs": [t.get(XML_LANG) for t in tuvs],
                      "segs": [t.find("seg").text for t in tuvs], "srclang": tu.get("srclang")})
    return units


def read_warc(data: bytes) -> list:
    """(type, target URI) of every record; warcio must read the whole stream."""
    records = []
    for record in ArchiveIterator(io.BytesIO(data)):
        record.content_stream().read()
        records.append((record.rec_type, record.rec_headers.get_header("WARC-Target-URI")))
    return records


def read_json(data: bytes):
    return json.loads(data.decode("utf-8"))
