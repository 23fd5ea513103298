"""Reading real sentences out of gettext catalogs (.po text and compiled .mo)."""
import struct

import pytest

from crawlweb.language.catalogs import catalog_sentences, clean_sentence, parse_mo, parse_po

PO_TEXT = r'''
# header
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

#: forms.py:10
msgid "Enter a valid value for the field."
msgstr "Unesite ispravnu vrednost za polje."

#, fuzzy
msgid "This is unreviewed."
msgstr "Ovo nije pregledano."

msgid ""
"A long message "
"on two lines."
msgstr ""
"Duga poruka "
"u dva reda."

msgid "Untranslated entry"
msgstr ""

msgid "%(count)d file"
msgid_plural "%(count)d files"
msgstr[0] "%(count)d datoteka"
msgstr[1] "%(count)d datoteke"
'''


def test_po_parser_joins_continuation_lines_and_skips_fuzzy_and_untranslated(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(PO_TEXT, encoding="utf-8")
    pairs = parse_po(po)
    strings = [msgstr for _, msgstr in pairs]
    assert "Unesite ispravnu vrednost za polje." in strings
    assert "Duga poruka u dva reda." in strings
    assert "Ovo nije pregledano." not in strings
    assert ("A long message on two lines.", "Duga poruka u dva reda.") in pairs
    assert "%(count)d datoteka" in strings and "%(count)d datoteke" in strings
    assert all(msgid for msgid, _ in pairs)


def test_po_parser_names_the_file_on_a_malformed_line(tmp_path):
    po = tmp_path / "broken.po"
    po.write_text('msgid "ok"\nmsgstr "u redu"\ngarbage line\n', encoding="utf-8")
    with pytest.raises(ValueError, match="broken.po"):
        parse_po(po)


def _write_mo(path, entries):
    """A little-endian MO file per "The Format of GNU MO Files" (sorted original strings)."""
    entries = sorted(entries)
    ids = [k.encode() for k, _ in entries]
    strs = [v.encode() for _, v in entries]
    n = len(entries)
    orig_at, trans_at = 28, 28 + 8 * n
    data_at = trans_at + 8 * n
    blob, table_o, table_t = b"", [], []
    for s in ids:
        table_o.append((len(s), data_at + len(blob)))
        blob += s + b"\0"
    for s in strs:
        table_t.append((len(s), data_at + len(blob)))
        blob += s + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, n, orig_at, trans_at, 0, 0)
    body = b"".join(struct.pack("<2I", *e) for e in table_o + table_t)
    path.write_bytes(head + body + blob)


def test_mo_reader_returns_translations_and_splits_plural_forms(tmp_path):
    mo = tmp_path / "app.mo"
    _write_mo(mo, [("", "Content-Type: text/plain; charset=UTF-8\n"),
                   ("Open the file", "Otvori datoteku"),
                   ("one file\0many files", "jedna datoteka\0više datoteka")])
    pairs = parse_mo(mo)
    assert ("Open the file", "Otvori datoteku") in pairs
    assert ("one file", "više datoteka") in pairs
    assert all(msgid for msgid, _ in pairs)


def test_mo_reader_rejects_a_file_that_is_not_mo(tmp_path):
    bogus = tmp_path / "bogus.mo"
    bogus.write_bytes(b"this is not a catalog at all")
    with pytest.raises(ValueError, match="magic"):
        parse_mo(bogus)


def test_clean_sentence_strips_placeholders_and_drops_short_strings():
    assert clean_sentence("Izbrisano %(count)d objekata od %(name)s uspešno.") == "Izbrisano objekata od uspešno."
    assert clean_sentence("Sačuvaj _i dodaj novi") == "Sačuvaj i dodaj novi"
    assert clean_sentence("Sačuvaj %s") is None
    assert clean_sentence("Izaberite ispravan izbor.") is None  # three words


def test_catalog_sentences_deduplicates_and_can_take_the_english_side(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(PO_TEXT + '\nmsgid "Enter a valid value again."\nmsgstr "Unesite ispravnu vrednost za polje."\n',
                  encoding="utf-8")
    assert catalog_sentences([po]).count("Unesite ispravnu vrednost za polje.") == 1
    assert "A long message on two lines." in catalog_sentences([po], english=True)
