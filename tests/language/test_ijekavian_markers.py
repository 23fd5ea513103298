"""The ijekavian jat markers (crawlweb.language.markers): the long reflex "ije" is read only where it is jat."""
from crawlweb.language.markers import bcms_markers, classify_word, words

# The home page of an animal-shelter site of the real development web (dev-train): ekavian Serbian,
# identified Montenegrin because "nečijeg" (someone's) counted as ijekavian.
SHELTER_HOME = ("Želite da usvojite? Pogledajte našu listu pasa, mačaka i ptica. Izgubili ste ljubimca? Postavite "
                "oglas sa njihovim opisom i vašim brojem telefona. Pronašli ste nečijeg ljubimca? Pogledajte listu "
                "naših oglasa i kontaktirajte vlasnika.")


def test_possessives_of_an_ij_stem_are_no_jat():
    for word in ("nečijeg", "čijeg", "ničijem", "svačijeg", "božijeg", "ptičijeg"):
        found = classify_word(word)
        assert found is None or found[1] != "ijek", (word, found)


def test_a_loanwords_genitive_plural_is_no_jat():
    for word in ("klijenata", "pacijenata", "koeficijenata"):  # klijent, pacijent, koeficijent
        found = classify_word(word)
        assert found is None or found[1] != "ijek", (word, found)


def test_jat_words_stay_ijekavian():
    for word in ("snijeg", "bijeg", "lijepog", "vrijeme", "cijena", "mlijeko", "djeca", "mjesto"):
        found = classify_word(word)
        assert found is not None and found[1] == "ijek", (word, found)


def test_an_ekavian_page_with_a_possessive_has_no_ijekavian_evidence():
    evidence = bcms_markers(words(SHELTER_HOME), SHELTER_HOME.lower()).as_evidence()
    assert "ijek" not in evidence["by_group"], evidence
    assert max(evidence["scores"], key=evidence["scores"].get) == "sr", evidence
