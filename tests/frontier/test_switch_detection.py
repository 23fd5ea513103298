"""The BS Detector on the switches real sites use (switch_hints, bs_detector): pure, no database."""
import numpy as np
import pytest

from crawlweb.crawler.htmlparse import parse_html
from frontier.classifiers.bs_detector import detect_bilingual
from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.switch_hints import language_swaps, same_site, switch_language


class LowScores:
    """A Link Predictor that ranks every link below the minimum likelihood: only switch marks,
    guesses and read pages' links can lead the detector on."""

    def predict_proba(self, links):
        return np.full(len(links), 0.1)


def contexts(html: str, url: str) -> list[LinkContext]:
    """The detector's input as the crawl stores it: every link kind it reads, title as anchor when empty."""
    page = parse_html(html, url)
    return [LinkContext(url=l.url, anchor_text=l.anchor_text or l.title, img_alt=l.img_alt, img_src=l.img_src,
                        page_url=url, hreflang=l.hreflang)
            for l in page.links if l.kind in ("a", "area", "alternate", "onclick", "script", "refresh")]


# mipap.mipap.gh.test/index.html (mipap/mipap@c4616c2): the switch is two flag images without text.
MIPAP_FLAGS = """<li><a href="index-sr.html"><img src="img/serbia.png" width="30"></a></li>
<li><a href="index.html"><img src="img/united-kingdom.png" width="30"></a></li>"""
# www.sft21.com/index.html (sft21businessconcept/SFT21@4f2ae87): flags with SRP/ENG labels.
SFT21_FLAGS = """<a href="index_sr.html"><img src="images/rs.png" alt=""> SRP</a>
<a href="index_en.html"><img src="images/gb.png" alt=""> ENG</a>"""


@pytest.mark.parametrize("link, language", [
    (LinkContext("/en/", anchor_text="ENG"), "en"),
    (LinkContext("/sr/", anchor_text="SRB"), "sr"),
    (LinkContext("/sr/", anchor_text="Српски"), "sr"),
    (LinkContext("/lat/", anchor_text="lat"), "sr"),
    (LinkContext("/cir/", anchor_text="ћир"), "sr"),
    (LinkContext("/x", img_src="/img/flags/usa.png"), "en"),
    (LinkContext("/x", img_src="serbian.png"), "sr"),
    (LinkContext("/x", img_alt="English"), "en"),
    (LinkContext("/x", hreflang="sr-Latn"), "sr"),
    (LinkContext("/x", anchor_text="Latest news about the English league"), None),
    (LinkContext("http://www.primer.rs/", anchor_text="www.primer.rs"), None),
    (LinkContext("/about", anchor_text="About us"), None),
    # Emoji flags (novo-ropstvo/novo-ropstvo@abb3ad3, index.html: <a href="index_en.html">🇬🇧</a>)
    (LinkContext("/x", anchor_text="🇬🇧"), "en"),
    (LinkContext("/x", anchor_text="🇺🇸"), "en"),
    (LinkContext("/x", anchor_text="🇷🇸"), "sr"),
    (LinkContext("/x", anchor_text="🇨🇿"), None),
    # A flag image named in Serbian, no alt (aleksa-vuckovic/Veb-Dizajn-Projekat@4b168e2, srpski/index.html)
    (LinkContext("/x", img_src="../slike/britanija.jpg"), "en"),
    # A bare link: the language its address names, as a folder or a unit of the file name
    (LinkContext("../engleski/index.html"), "en"),
    (LinkContext("/srb/about.html"), "sr"),
    (LinkContext("about_eng.html"), "en"),
    (LinkContext("/lat/vesti/"), "sr"),
    (LinkContext("/blog/srbija-turizam.html"), None),  # a topic, not a language version
    (LinkContext("/en/srpski-jezik.html"), None),  # names both: no answer
    (LinkContext("/uk/"), None),  # a flag word, but as a folder it may be Ukrainian
    (LinkContext("/en/", anchor_text="Srpski"), "sr"),  # the link's own label wins over its address
])
def test_switch_marks_name_the_language_they_lead_to(link, language):
    assert switch_language(link, ("sr", "en")) == language


def test_real_flag_switches_name_their_languages():
    mipap = contexts(MIPAP_FLAGS, "http://mipap.mipap.gh.test/index.html")
    assert [switch_language(l) for l in mipap] == ["sr", "en"]
    sft = contexts(SFT21_FLAGS, "http://www.sft21.com/index.html")
    assert [switch_language(l) for l in sft] == ["sr", "en"]


def test_language_units_are_swapped_in_path_query_and_host():
    assert language_swaps("http://s.rs/index-sr.html", "sr", "en") == ["http://s.rs/index-en.html"]
    assert language_swaps("http://s.rs/sr/o-nama/", "sr", "en") == ["http://s.rs/en/o-nama/"]
    assert language_swaps("http://s.rs/?lang=sr&p=2", "sr", "en") == ["http://s.rs/?lang=en&p=2"]
    assert language_swaps("http://sr.s.rs/a", "sr", "en") == ["http://en.s.rs/a"]
    assert language_swaps("http://s.rs/srbija.html", "sr", "en") == []


def test_one_site_is_its_hosts_not_its_hosting_suffix():
    assert same_site("http://en.primer.rs/", "http://www.primer.rs/x")
    assert not same_site("http://mipap.mipap.gh.test/", "http://empire.stojadin2701.gh.test/")
    assert not same_site("https://ana.github.io/", "https://marko.github.io/")  # two owners of one hosting suffix


def test_a_script_redirect_gateway_is_read_through_to_both_languages():
    # dh_www's root page (vanjakudra-ship-it/dh_www@6998105, index.html): a script picks the language;
    # the Serbian home page's own header is injected by JavaScript, so its other side is a URL guess.
    root = """<script>const lang = localStorage.getItem('lang') || 'sr';
              window.location.href = '/index-' + lang + '.html';</script><body>Redirecting...</body>"""
    languages = {"http://www.drustvohispanistasrbija.rs/index-sr.html": "sr",
                 "http://www.drustvohispanistasrbija.rs/index-en.html": "en"}
    read = []

    def fetch(url):
        read.append(url)
        return languages.get(url)

    verdict = detect_bilingual("http://www.drustvohispanistasrbija.rs/", "und",
                               contexts(root, "http://www.drustvohispanistasrbija.rs/"), LowScores(), fetch,
                               follow=lambda url: [])
    assert verdict.bilingual and verdict.languages_seen == ["en", "sr", "und"]
    assert read == list(languages) and [e["why"] for e in verdict.evidence] == ["switch", "guess"]


def test_a_chooser_page_is_followed_one_page_further():
    chooser = """<select onchange="location = this.value"><option value="/sr/">Srpski</option></select>"""
    sr_home = [LinkContext("/en/home.html", anchor_text="EN", page_url="http://s.rs/sr/")]
    languages = {"http://s.rs/sr/": "sr", "http://s.rs/en/home.html": "en"}
    verdict = detect_bilingual("http://s.rs/", None, contexts(chooser, "http://s.rs/"), LowScores(), languages.get,
                               follow=lambda url: sr_home if url == "http://s.rs/sr/" else [])
    assert verdict.bilingual and [e["url"] for e in verdict.evidence] == list(languages)


def test_a_monolingual_page_without_switch_marks_reads_nothing():
    links = [LinkContext("/o-nama.html", anchor_text="O nama", page_url="http://s.rs/"),
             LinkContext("http://other.rs/", anchor_text="other.rs", page_url="http://s.rs/")]
    verdict = detect_bilingual("http://s.rs/", "sr", links, LowScores(), lambda url: pytest.fail(f"read {url}"))
    assert not verdict.bilingual and verdict.pages_downloaded == 0


def test_reading_stops_at_max_fetches_and_a_hub_link_naming_rs_is_no_switch():
    links = [LinkContext(f"/p{i}-en.html", anchor_text="English", page_url="http://s.rs/") for i in range(9)]
    links.append(LinkContext("http://www.drustvohispanistasrbija.rs/", anchor_text="drustvohispanistasrbija.rs",
                             page_url="http://s.rs/"))
    verdict = detect_bilingual("http://s.rs/", "sr", links, LowScores(), lambda url: None, max_fetches=3)
    assert verdict.pages_downloaded == 3 and not verdict.bilingual
    assert all("drustvo" not in e["url"] for e in verdict.evidence)


# vdprojekat.zvk17.gh.test/index.html (zvk17/VDProjekat): the switch is href="#" and a script that
# swaps /html/sr/ for /html/en/ in the address; the menu links only the Serbian pages.
VDPROJEKAT_MENU = """<a class="dropdown-item" href="./html/sr/predjela.html">Predjelo</a>
<a class="nav-link" href="html/sr/o_nama.html">O nama</a>
<a id="engleski" class="dropdown-item" href="#">English</a>"""


def test_a_script_switch_is_read_through_the_other_side_of_the_menus_links():
    url = "http://vdprojekat.zvk17.gh.test/"
    languages = {"http://vdprojekat.zvk17.gh.test/html/en/predjela.html": "en",
                 "http://vdprojekat.zvk17.gh.test/html/en/o_nama.html": "en"}
    verdict = detect_bilingual(url, "sr", contexts(VDPROJEKAT_MENU, url), LowScores(), languages.get)
    assert verdict.bilingual
    assert verdict.evidence == [{"url": "http://vdprojekat.zvk17.gh.test/html/en/o_nama.html", "score": 0.4,
                                 "language": "en", "why": "guess"}]  # guesses in address order


def test_the_pages_own_counterpart_is_guessed_before_its_links_counterparts():
    # A JavaScript switch leaves no link to index-en.html: it is the likeliest pair of index-sr.html,
    # so it is read before about-en.html although "about" sorts first.
    links = [LinkContext("/about-sr.html", anchor_text="O nama", page_url="http://s.rs/index-sr.html")]
    read = []
    detect_bilingual("http://s.rs/index-sr.html", "sr", links, LowScores(), lambda url: read.append(url))
    assert read[0] == "http://s.rs/index-en.html"


def test_a_monolingual_page_guesses_from_at_most_two_of_its_links():
    links = [LinkContext(f"/sr/strana-{i}.html", anchor_text=f"Strana {i}", page_url="http://s.rs/sr/")
             for i in range(10)]
    read = []
    verdict = detect_bilingual("http://s.rs/sr/", "sr", links, LowScores(), lambda url: read.append(url))
    # the page's own address swapped, then two of its links' addresses swapped: all missing
    assert not verdict.bilingual
    assert read == ["http://s.rs/en/", "http://s.rs/en/strana-0.html", "http://s.rs/en/strana-1.html"]
