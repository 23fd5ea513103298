"""Body features beyond a site's template."""
from evaluation.bodies.page_body import SiteLines, body_features

MENU_SR = "Početna\nO nama\nKontakt\nSRB | ENG"
MENU_EN = "Home\nAbout\nContact\nSRB | ENG"


def site_with(*bodies_sr_en):
    """A site whose every page carries the menu of its language above its own body."""
    texts = [f"{MENU_SR}\n{sr}" for sr, _ in bodies_sr_en] + [f"{MENU_EN}\n{en}" for _, en in bodies_sr_en]
    return SiteLines.from_texts(texts)


def test_the_template_lines_are_taken_off_and_a_menu_only_pair_has_no_body():
    translated = ("Hotel Kotor Bay ima 12 soba.\nOtvoren je 2019. godine, uz more.",
                  "Hotel Kotor Bay has 12 rooms.\nIt opened in 2019, by the sea.")
    menu_only = ("Galerija", "Gallery")
    other = ("Kurs UX dizajna traje nedelju dana i počinje u julu, u Nišu, sa vežbama.",
             "Industry 4.0 is changing how we make things.\nJoin us.\nRegister today.\nSee the programme.")
    site = site_with(translated, menu_only, other, ("Cenovnik", "Prices"))
    said = {name: body_features(f"{MENU_SR}\n{sr}", f"{MENU_EN}\n{en}", site)
            for name, (sr, en) in (("translated", translated), ("menu only", menu_only), ("other", other))}
    assert said["menu only"]["body_shorter_log"] < said["translated"]["body_shorter_log"]
    assert said["menu only"]["body_share_min"] < 0.3 < said["translated"]["body_share_min"]
    assert said["translated"]["body_number_share"] == 1.0 and said["other"]["body_number_share"] == 0.0
    assert said["translated"]["body_name_share"] > said["other"]["body_name_share"]
    assert said["translated"]["body_lines_ratio"] == 1.0 > said["other"]["body_lines_ratio"]
    assert said["translated"]["body_missing"] == 0.0


def test_a_small_hosts_menu_is_its_template_among_a_big_hosts_pages():
    # One pairing site, two hosts: a small one (4 pages, each with its menu) beside a big one (60 pages).
    # Counted over all 64 pages the small host's menu (on 4, under 10 %) would be read as body.
    small = [(f"http://sr.hotel.rs/{i}.html", f"{MENU_SR}\nStrana {i} ima svoj tekst.") for i in range(4)]
    big = [(f"http://blog.hotel.rs/{i}.html", f"Blog\nPost {i} of the blog.") for i in range(60)]
    site = SiteLines.from_pages(small + big)
    assert site.is_template("Početna") and site.is_template("Blog")
    assert not site.is_template("Strana 1 ima svoj tekst.")
    assert not SiteLines.from_texts(text for _, text in small + big).is_template("Početna"), "counted site-wide"
    one_host = SiteLines.from_pages(small)
    assert one_host.host_pages is None and one_host.is_template("Kontakt")


def test_without_the_site_the_verbatim_shared_lines_are_the_template():
    untranslated = body_features("Meni\nSame body text, not translated.", "Menu\nSame body text, not translated.")
    assert untranslated["body_identical_share"] == 0.0  # the shared line was taken off as template
    site = SiteLines.from_texts(["Meni\nSame body text, not translated.", "Menu\nSame body text, not translated."])
    assert body_features("Meni\nSame body text, not translated.", "Menu\nSame body text, not translated.",
                         site)["body_identical_share"] > 0.8  # on two pages only: body, identical on both sides
    assert body_features("", "Menu")["body_missing"] == 1.0


def test_the_line_lengths_of_a_translation_follow_each_other_in_order():
    lines_sr = ["Kratko.", "Ovo je nešto duži red teksta o nečemu.", "Srednji red.", "Opet dugačak red sa dosta reči."]
    lines_en = ["Short.", "This is a somewhat longer line of text on it.", "Middle line.", "A long line with many words."]
    in_order = body_features("\n".join(lines_sr), "\n".join(lines_en))
    shuffled = body_features("\n".join(lines_sr), "\n".join([lines_en[1], lines_en[0], lines_en[3], lines_en[2]]))
    assert in_order["body_profile_correlation"] > 0.9 and shuffled["body_profile_correlation"] < 0
