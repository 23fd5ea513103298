"""Page records export as JSON Lines and as Dublin Core XML that an XML parser reads back."""
import json
import xml.etree.ElementTree as ET

from crawlweb.export_formats import dublin_core_xml, json_lines

RECORD = {"id": 7, "url": "http://primer.rs/sr/", "final_url": "http://www.primer.rs/sr/", "status_code": 200,
          "content_type": "text/html", "charset": "utf-8", "md5": "0" * 32, "size": 1234, "truncated": False,
          "title": "Почетна & <dobrodošli>", "language": "sr", "script": "Cyrl", "html_lang": "sr",
          "fetched_at": "2026-11-22 10:00:00+00:00", "modified_at": None, "site": "primer.rs",
          "text": "Добро дошли на наш сајт."}
DC = "{http://purl.org/dc/elements/1.1/}"


def test_json_lines_hold_one_record_a_line_in_utf8():
    lines = list(json_lines([RECORD, {**RECORD, "id": 8}]))
    assert len(lines) == 2 and all(line.endswith("\n") for line in lines)
    first = json.loads(lines[0])
    assert first["title"] == "Почетна & <dobrodošli>"
    assert "Почетна" in lines[0], "text is kept as UTF-8, not escaped"


def test_dublin_core_records_parse_and_carry_the_page_metadata():
    root = ET.fromstring("".join(dublin_core_xml([RECORD])))
    record = root.find("record")
    assert record.get("id") == "7"
    assert record.find(f"{DC}identifier").text == "http://www.primer.rs/sr/"
    assert record.find(f"{DC}title").text == "Почетна & <dobrodošli>"
    assert record.find(f"{DC}language").text == "sr-Cyrl"
    assert record.find(f"{DC}source").text == "http://primer.rs/sr/"
    assert record.find(f"{DC}date").text.startswith("2026-11-22")


def test_an_empty_export_is_still_a_valid_document():
    root = ET.fromstring("".join(dublin_core_xml([])))
    assert root.tag == "records" and len(root) == 0
