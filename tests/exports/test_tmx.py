"""TMX 1.4 written as a stream parses back with the structure the standard gives it."""
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

from console.exports.tmx import TranslationUnit, tmx_document

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
REQUIRED_HEADER = {"creationtool", "creationtoolversion", "segtype", "o-tmf", "adminlang", "srclang", "datatype"}


def _units():
    yield TranslationUnit("sr-Cyrl", "en", "Добро дошли & <здраво>", 'Welcome "home"',
                          [("x-source-url", "http://primer.rs/sr/?a=1&b=2"), ("x-target-url", "http://primer.rs/en/"),
                           ("x-method", "local"), ("x-score", "0.75")])
    yield TranslationUnit("sr-Latn", "en", "Kontakt\x00\x07 \ufffe", "Contact\x1b", [("x-method", "hreflang")])


def test_the_document_has_the_tmx_14_structure_and_header():
    root = ET.fromstring("".join(tmx_document(_units(), srclang="sr",
                                              created=datetime(2026, 11, 25, 9, 0, tzinfo=timezone.utc))))
    assert root.tag == "tmx" and root.get("version") == "1.4"
    header, body = list(root)
    assert header.tag == "header" and body.tag == "body"
    assert REQUIRED_HEADER <= set(header.attrib), "every attribute TMX 1.4 requires of <header>"
    assert header.get("srclang") == "sr" and header.get("segtype") == "paragraph"
    assert header.get("creationdate") == "20261125T090000Z"
    units = body.findall("tu")
    assert len(units) == 2
    for tu in units:
        children = [child.tag for child in tu]
        assert children == sorted(children, key=lambda tag: tag != "prop"), "props come before the tuvs"
        assert [tuv.find("seg") is not None for tuv in tu.findall("tuv")] == [True, True]


def test_text_urls_and_languages_survive_escaping():
    root = ET.fromstring("".join(tmx_document(_units(), srclang="sr")))
    first = root.find("body/tu")
    assert first.get("srclang") == "sr-Cyrl"
    props = {p.get("type"): p.text for p in first.findall("prop")}
    assert props == {"x-source-url": "http://primer.rs/sr/?a=1&b=2", "x-target-url": "http://primer.rs/en/",
                     "x-method": "local", "x-score": "0.75"}
    tuvs = first.findall("tuv")
    assert [t.get(XML_LANG) for t in tuvs] == ["sr-Cyrl", "en"]
    assert [t.find("seg").text for t in tuvs] == ["Добро дошли & <здраво>", 'Welcome "home"']


def test_characters_xml_forbids_are_removed():
    root = ET.fromstring("".join(tmx_document(_units(), srclang="sr")))
    second = root.findall("body/tu")[1]
    assert [t.find("seg").text for t in second.findall("tuv")] == ["Kontakt ", "Contact"]


def test_an_empty_memory_is_still_a_valid_document():
    root = ET.fromstring("".join(tmx_document([], srclang="sr")))
    assert root.find("body") is not None and len(root.find("body")) == 0
