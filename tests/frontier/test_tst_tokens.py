"""Target Semantic Terms (M01): the method's Table 1 examples and its filtration steps."""
from frontier.layers.tokens import relative_part, tst


def test_digits_split_tokens_and_trailing_numbers_vanish():
    assert tst("pekarska-pec-sa-komorom-elp64fk128/") == ["pekarska", "pec", "sa", "komorom", "elp", "fk"]


def test_fragment_is_part_of_the_tst():
    assert tst("sr/cinkovanje/sta-je-toplo-cinkovanje/#branding") == [
        "sr", "cinkovanje", "sta", "je", "toplo", "cinkovanje", "branding",
    ]


def test_model_codes_split_at_digits_as_the_rules_say_not_as_table_1_prints():
    # Table 1 prints "ftx, rxb, c"; the rules (digits split tokens) give "ftxb, c, rxb, c".
    assert tst("daikin-klima-uredjaj-inverter-ftxb35c-rxb35c-cena-akcija") == [
        "daikin", "klima", "uredjaj", "inverter", "ftxb", "c", "rxb", "c", "cena", "akcija",
    ]


def test_domain_name_is_not_tokenized_but_query_is():
    url = "https://www.primer.rs/Proizvodi/Pec.php?lang=SR&id=42"
    assert relative_part(url) == "/Proizvodi/Pec.php?lang=SR&id=42"
    assert tst(url) == ["proizvodi", "pec", "php", "lang", "sr", "id"]


def test_serbian_letters_and_cyrillic_stay_whole_and_lowercase():
    assert tst("http://a.rs/Uređaj-ČIŠĆENJE/Вести_2024", "Пећ 3D") == [
        "uređaj", "čišćenje", "вести", "пећ", "d",
    ]


def test_percent_escaped_paths_are_decoded_before_tokenizing():
    assert tst("http://a.rs/%D0%B2%D0%B5%D1%81%D1%82%D0%B8/na%C5%A1e") == ["вести", "naše"]


def test_anchor_text_tokens_follow_url_tokens():
    assert tst("http://a.rs/2024/05/", "Read more in English") == ["read", "more", "in", "english"]


def test_purely_numeric_url_has_empty_tst():
    assert tst("http://a.rs/2024/05/17/123.html") == ["html"]
    assert tst("http://a.rs/2024/05/17/") == []


def test_relative_part_handles_hosts_without_path_and_scheme_relative_links():
    assert relative_part("http://a.rs") == ""
    assert relative_part("http://a.rs?lang=en") == "?lang=en"
    assert relative_part("//cdn.a.rs/en/x#y") == "/en/x#y"
    assert relative_part("http://user@a.rs:8080/sr/") == "/sr/"
    assert relative_part("sr//x") == "sr//x"  # already relative: nothing is taken for a host


def test_host_names_in_the_anchor_text_are_not_tokens():
    # Like the Target's own domain name, a host written in the anchor names a site, not a language.
    assert tst("http://www.primer.rs/", "Primer (www.primer.rs)") == ["primer"]
    assert tst("http://www.primer.rs/", "primer.rs") == []
    assert tst("http://a.rs/x", "Pišite na info@primer.co.rs") == ["x", "pišite", "na", "info"]
    assert tst("http://a.rs/x", "Sajt na primer.срб") == ["x", "sajt", "na"]
    # A URL in the anchor keeps its path, as the Target's own URL does.
    assert tst("http://a.rs/x", "http://www.primer.de/en/") == ["x", "en"]


def test_file_names_in_the_anchor_text_stay_tokens():
    assert tst("http://a.rs/x", "o-nama.html") == ["x", "o", "nama", "html"]
    assert tst("http://a.rs/x", "Cenovnik.pdf, v1.2") == ["x", "cenovnik", "pdf", "v"]
