"""The test web's text comes from Django's real translation catalogs, parsed by our own .po reader."""
from __future__ import annotations

import pytest

from crawlweb.testweb.text_source import (TextSourceError, clean_sentence, cyrillic_to_latin,
                                          entries_for, parallel_entries, parse_po)
from tests.testweb.page_checks import cyrillic_share

PO_SAMPLE = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

#, python-format
msgid "Delete selected %(verbose_name_plural)s"
msgstr "Бриши означене %(verbose_name_plural)s"

msgid ""
"A long message that "
"spans two lines"
msgstr ""
"Дуга порука која "
"заузима два реда"

#, fuzzy
msgid "Guessed translation"
msgstr "Погођен превод"

msgid "Untranslated"
msgstr ""

msgid "%(count)d item"
msgid_plural "%(count)d items"
msgstr[0] "%(count)d ставка"
msgstr[1] "%(count)d ставке"

msgctxt "month name"
msgid "May"
msgstr "мај"
'''


def test_po_parser_joins_multiline_strings_and_keeps_translated_entries():
    entries = parse_po(PO_SAMPLE)
    assert entries["A long message that spans two lines"] == "Дуга порука која заузима два реда"
    assert entries["Delete selected %(verbose_name_plural)s"] == "Бриши означене %(verbose_name_plural)s"


def test_po_parser_skips_header_fuzzy_untranslated_and_context_entries():
    entries = parse_po(PO_SAMPLE)
    assert "" not in entries
    assert "Guessed translation" not in entries
    assert "Untranslated" not in entries
    assert "May" not in entries


def test_po_parser_takes_the_singular_form_of_plural_entries():
    assert parse_po(PO_SAMPLE)["%(count)d item"] == "%(count)d ставка"


def test_a_malformed_po_string_gets_a_clear_error():
    with pytest.raises(TextSourceError, match="malformed"):
        parse_po('msgid "unterminated\n')


def test_placeholders_and_markup_are_stripped_from_sentences():
    assert clean_sentence("Delete selected %(verbose_name_plural)s") == "Delete selected"
    assert clean_sentence("Use <b>%s</b> here ( ) now .") == "Use here now."
    assert clean_sentence("Allowed extensions are: %(extensions)s.") == "Allowed extensions are."


def test_serbian_cyrillic_transliterates_to_latin():
    assert cyrillic_to_latin("Љубав, њива и џем у Ђаковици") == "Ljubav, njiva i džem u Đakovici"


def test_catalogs_give_hundreds_of_parallel_sentences_in_both_serbian_scripts():
    entries = parallel_entries()
    assert len(entries) >= 200
    for entry in entries:
        assert cyrillic_share(entry.sr_cyrl) > 0.5, entry
        assert cyrillic_share(entry.sr_latn) == 0, entry
        assert entry.en != entry.sr_latn


def test_croatian_and_german_sentences_exist_for_the_other_sites():
    assert len(entries_for(("hr",))) >= 100
    assert len(entries_for(("de", "en"))) >= 100
    assert all(e.hr for e in entries_for(("hr",)))
