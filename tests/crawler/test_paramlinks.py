"""Speculative links to pages named in a link's query (crawlweb.crawler.paramlinks, htmlparse)."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.crawler.paramlinks import MAX_PARAM_LINKS, param_links, static_page_itself
from crawlweb.services.page_prep import PageOptions, prepare_link

# www.sft21.com (development web, index_en.html): the site's pages are linked only through its
# client-side login page, which redirects to the page named in ``redirect``.
SFT21_CARDS = """<div class="cards">
<a href="login_en.html?redirect=sfured_en.html" class="card"><h3>SF Office</h3></a>
<a href="login_en.html?redirect=sfalgoritam_en.html" class="card"><h3>SF Algorithm</h3></a>
<a href="login_en.html?redirect=video_player_en.html?from=index_en.html" class="card">Video</a>
</div>"""
# The Serbian home of the same site writes the nested target percent-encoded.
SFT21_ENCODED = '<a href="login.html?redirect=video_player.html%3Ffrom%3Dindex.html">Video</a>'


def test_a_login_redirect_names_the_page_it_leads_to():
    assert param_links("http://www.sft21.com/login_en.html?redirect=sfured_en.html") == [
        "http://www.sft21.com/sfured_en.html"]


def test_a_nested_redirect_gives_both_pages_encoded_or_not():
    plain = param_links("http://www.sft21.com/login_en.html?redirect=video_player_en.html?from=index_en.html")
    encoded = param_links("http://www.sft21.com/login.html?redirect=video_player.html%3Ffrom%3Dindex.html")
    assert plain == ["http://www.sft21.com/video_player_en.html?from=index_en.html",
                     "http://www.sft21.com/index_en.html"]
    assert encoded == ["http://www.sft21.com/video_player.html?from=index.html", "http://www.sft21.com/index.html"]


def test_any_parameter_name_counts_but_only_page_paths_of_the_same_site():
    url = ("http://www.primer.rs/go?url=http://evil.example/a.html&next=/sr/kontakt/&img=/slika.png"
           "&page=2&lang=en&back=http://primer.rs/en/")
    assert param_links(url) == ["http://www.primer.rs/sr/kontakt/", "http://primer.rs/en/"]


def test_a_link_without_a_query_or_naming_itself_gives_nothing():
    assert param_links("http://primer.rs/sr/index.html") == []
    assert param_links("http://primer.rs/a.html?self=a.html") == []


def test_a_query_naming_many_pages_gives_at_most_the_cap():
    url = "http://primer.rs/x?" + "&".join(f"p{i}=/strana-{i}.html" for i in range(20))
    assert len(param_links(url)) == MAX_PARAM_LINKS


def test_the_parser_marks_them_param_with_the_carrying_links_anchor():
    page = parse_html(SFT21_CARDS, "http://www.sft21.com/index_en.html")
    guessed = [(link.url, link.anchor_text) for link in page.links if link.kind == "param"]
    assert guessed == [("http://www.sft21.com/sfured_en.html", "SF Office"),
                       ("http://www.sft21.com/sfalgoritam_en.html", "SF Algorithm"),
                       ("http://www.sft21.com/video_player_en.html?from=index_en.html", "Video")]
    # index_en.html is the page itself: no link to it is added
    assert sum(link.kind == "a" for link in page.links) == 3


def test_the_encoded_form_is_read_by_the_parser_too():
    page = parse_html(SFT21_ENCODED, "http://www.sft21.com/")
    assert [link.url for link in page.links if link.kind == "param"] == [
        "http://www.sft21.com/video_player.html?from=index.html", "http://www.sft21.com/index.html"]


# www.sft21.com (izbor_sr.html): the payment page is linked only with the amount chosen; its script reads it.
SFT21_AMOUNTS = """<a href="prikaz_opcije_sr.html?iznos=30&valuta=usd" class="option-btn">30 $</a>
<a href="prikaz_opcije_sr.html?iznos=42&valuta=eur" class="option-btn">42 €</a>
<a href="https://pay.example.com/checkout.html?iznos=30">Plati</a>
<a href="pretraga.php?q=soba">Pretraga</a>"""


def test_a_static_page_linked_only_with_values_is_guessed_without_its_query():
    page = parse_html(SFT21_AMOUNTS, "http://www.sft21.com/izbor_sr.html")
    guessed = [(link.url, link.anchor_text) for link in page.links if link.kind == "param"]
    # once, with the first carrying link's anchor; never off the site; a dynamic page's query may be its content
    assert guessed == [("http://www.sft21.com/prikaz_opcije_sr.html", "30 $")]


def test_only_a_static_pages_query_is_dropped():
    assert static_page_itself("http://primer.rs/sr/prikaz.html?iznos=30#vrh") == "http://primer.rs/sr/prikaz.html"
    assert static_page_itself("http://primer.rs/sr/prikaz.HTM?a=1") == "http://primer.rs/sr/prikaz.HTM"
    assert static_page_itself("http://primer.rs/sr/prikaz.html") is None
    assert static_page_itself("http://primer.rs/clanak.php?id=7") is None
    assert static_page_itself("http://primer.rs/sr/?strana=2") is None


def test_a_param_link_is_followed_in_its_site_and_never_off_it():
    options = PageOptions(session_params=(), host_aliases={})
    inside = prepare_link("http://www.sft21.com/sfured_en.html", "param", "sft21.com", options)
    outside = prepare_link("http://www.other.rs/a.html", "param", "sft21.com", options)
    assert inside.followed and not outside.followed
