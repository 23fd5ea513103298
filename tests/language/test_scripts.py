"""Script detection: Cyrillic vs Latin share and the letters only one alphabet has."""
from crawlweb.language.scripts import script_profile


def test_serbian_cyrillic_text_is_cyrillic():
    profile = script_profile("Београд је главни град Србије и налази се на ушћу Саве у Дунав.")
    assert profile.script == "Cyrl"
    assert profile.cyrillic_share > 0.95


def test_serbian_latin_text_is_latin_with_bcms_diacritics():
    profile = script_profile("Beograd je glavni grad Srbije i nalazi se na ušću Save u Dunav.")
    assert profile.script == "Latn"
    assert profile.bcms_diacritics == 2  # š, ć


def test_mixed_text_follows_the_majority_script():
    profile = script_profile("Контакт: Kneza Miloša 12, Beograd, telefon i e-pošta")
    assert profile.script == "Latn"
    assert 0.1 < profile.cyrillic_share < 0.5


def test_serbian_only_and_macedonian_only_letters_are_counted():
    serbian = script_profile("Ђорђе и Ћирило")
    macedonian = script_profile("Ѓорѓи и ќерка, ѕвезда")
    assert serbian.serbian_cyrillic == 3 and serbian.macedonian_cyrillic == 0
    assert macedonian.macedonian_cyrillic == 4 and macedonian.serbian_cyrillic == 0


def test_russian_letters_are_flagged_as_foreign_to_serbian_and_macedonian():
    profile = script_profile("Это русский язык, а не сербский.")
    assert profile.foreign_cyrillic >= 3


def test_text_without_letters_has_no_script():
    profile = script_profile("12345 !!! ---")
    assert profile.script is None
    assert profile.letter_share == 0.0
