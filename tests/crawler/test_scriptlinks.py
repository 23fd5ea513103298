"""Speculative links from scripts and event attributes (crawlweb.crawler.scriptlinks, htmlparse)."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.crawler.scriptlinks import (MAX_PAGE_SCRIPTS, MAX_SCRIPT_LINKS, language_codes, navigation_targets,
                                          own_script, path_literals, script_base, script_file_links, script_links)

# The root index.html of www.drustvohispanistasrbija.rs (vanjakudra-ship-it/dh_www@6998105, development
# data real-sites): the only way on is a script that picks the language.
DH_WWW_ROOT = """<!DOCTYPE html>
<html>
<head>
    <meta charset="UTF-8">
    <script>
        const lang = localStorage.getItem('lang') || 'sr';
        window.location.href = '/index-' + lang + '.html';
    </script>
</head>
<body>Redirecting...</body>
</html>"""
# The language switch of the same site (assets/includes/header.html): buttons that call a function.
DH_WWW_SWITCH = """<div class="flex items-center gap-2 text-xs font-bold uppercase">
<button onclick="changeLang('sr')" id="btn-sr" class="hover:bg-gray-100 px-2 py-1 rounded">SRB</button> |
<button onclick="changeLang('en')" id="btn-en" class="hover:bg-gray-100 px-2 py-1 rounded">ENG</button></div>"""
# prof-dr-miodrag-acimovic (AleksandarJanjic/prof-dr-miodrag-acimovic@278c38e, index.html): a button.
ACIMOVIC_BUTTON = """<button class="nav-button-actual" onclick="window.location.href = 'operacije.html';">SRPSKI</button>"""


def test_a_script_that_picks_the_language_yields_the_page_it_would_open():
    page = parse_html(DH_WWW_ROOT, "http://www.drustvohispanistasrbija.rs/")
    scripted = [(link.url, link.hreflang, link.kind) for link in page.links]
    assert scripted == [("http://www.drustvohispanistasrbija.rs/index-sr.html", "sr", "script")]


def test_a_concatenation_is_filled_with_every_language_code_the_script_names():
    code = "var l = navigator.language.startsWith('sr') ? 'sr' : 'en'; location.replace('/' + l + '/index.html');"
    assert language_codes(code) == ["sr", "en"]
    found = navigation_targets(code, "http://primer.rs/")
    assert [(f.url, f.hreflang) for f in found] == [("http://primer.rs/sr/index.html", "sr"),
                                                    ("http://primer.rs/en/index.html", "en")]


def test_template_literals_and_plain_assignments_are_navigation():
    code = "document.location = \"/en/\"; if (x) { window.location.href = `/${lang}/kontakt.html`; } var lang='sr';"
    urls = [f.url for f in navigation_targets(code, "http://primer.rs/a/")]
    assert urls == ["http://primer.rs/en/", "http://primer.rs/sr/kontakt.html"]


def test_path_like_literals_are_speculative_links_and_assets_are_not():
    code = """var pages = ['/en/about.html', "o-nama.php", 'img/flag-rs.png', '/js/app.js', 'hello world',
              '/index-' + x, 'https://cdn.example.com/lib.html', 'http://primer.rs/sr/'];"""
    urls = [f.url for f in path_literals(code, "http://www.primer.rs/")]
    assert urls == ["http://www.primer.rs/en/about.html", "http://www.primer.rs/o-nama.php", "http://primer.rs/sr/"]


def test_scripts_never_lead_off_the_site():
    code = "window.location.href = 'http://evil.example/en/'; var a = 'http://other.rs/sr/index.html';"
    assert script_links([code], "http://primer.rs/") == []


def test_a_huge_bundle_gives_at_most_the_cap():
    code = "\n".join(f"var p{i} = '/page-{i}.html';" for i in range(500))
    found = script_links([code], "http://primer.rs/")
    assert len(found) == MAX_SCRIPT_LINKS and found[0].url == "http://primer.rs/page-0.html"


def test_a_real_onclick_button_is_an_explicit_click_link():
    page = parse_html(ACIMOVIC_BUTTON, "http://prof-dr-miodrag-acimovic.aleksandarjanjic.gh.test/index.html")
    assert [(l.url.rsplit("/", 1)[1], l.kind, l.anchor_text) for l in page.links] == [
        ("operacije.html", "onclick", "SRPSKI")]


def test_a_function_call_without_a_url_is_no_link():
    assert parse_html(DH_WWW_SWITCH, "http://www.drustvohispanistasrbija.rs/index-sr.html").links == []


def test_a_select_chooser_gives_one_link_per_option_with_its_text():
    html = """<select onchange="window.location = this.value"><option value="">Jezik</option>
    <option value="/sr/" lang="sr">Српски</option><option value="/en/">English</option></select>"""
    page = parse_html(html, "http://primer.rs/")
    assert [(l.url, l.kind, l.anchor_text, l.hreflang) for l in page.links] == [
        ("http://primer.rs/sr/", "onclick", "Српски", "sr"), ("http://primer.rs/en/", "onclick", "English", "")]


def test_data_href_and_data_lang_mark_a_switch():
    html = """<ul><li><span data-href="/en/index.html" data-lang="en" title="English">EN</span></li>
    <li><a href="/sr/index.html" data-lang="sr">SR</a></li></ul>"""
    page = parse_html(html, "http://primer.rs/")
    assert sorted((l.url, l.kind, l.anchor_text, l.hreflang, l.title) for l in page.links) == [
        ("http://primer.rs/en/index.html", "onclick", "EN", "en", "English"),
        ("http://primer.rs/sr/index.html", "a", "SR", "sr", "")]


def test_scripts_never_reach_the_page_text():
    page = parse_html("<p>Tekst</p><script>var u = '/en/';</script>", "http://primer.rs/")
    assert page.text == "Tekst" and [l.url for l in page.links] == ["http://primer.rs/en/"]


# www.sft21.com (development web), register_en.html: after the form, a redirect whose query names
# one of 40 guardians; and userdata_en.html, the page the form leads to.
SFT21_REGISTER = """<script>
const guardians = ['gb', 'de', 'fr', 'it', 'es', 'ru', 'tr', 'ua', 'pl', 'ro', 'nl', 'be', 'se', 'cz', 'gr',
  'pt', 'hu', 'by', 'at', 'ch', 'rs', 'bg', 'dk', 'fi', 'sk', 'no', 'ie', 'hr', 'ba', 'al', 'lt', 'si', 'mk',
  'lv', 'ee', 'me', 'lu', 'mt', 'is', 'ad'];
function pick(guardianId) {
    window.location.href = `office_kyc_en.html?source=guardian_kyc&guardian=${guardianId}`;
}
function done() { window.location.href = 'userdata_en.html'; }
</script>"""
# The same site, prikaz_opcije_en.html: the card pages get the chosen option as their query.
SFT21_CARDS = """<script>
const queryParams = window.location.search;
if (option === 1) { targetUrl = `prva_kartica_en.html${queryParams}`; }
else { targetUrl = `druga_kartica_en.html${queryParams}`; }
window.location.href = targetUrl;
</script>"""


def test_a_variable_that_only_fills_the_query_names_the_page_once():
    page = parse_html(SFT21_REGISTER, "http://www.sft21.com/register_en.html")
    assert [link.url for link in page.links] == ["http://www.sft21.com/office_kyc_en.html",
                                                 "http://www.sft21.com/userdata_en.html"]


def test_a_template_literal_whose_slot_is_the_query_is_the_page():
    page = parse_html(SFT21_CARDS, "http://www.sft21.com/prikaz_opcije_en.html")
    assert [link.url for link in page.links] == ["http://www.sft21.com/prva_kartica_en.html",
                                                 "http://www.sft21.com/druga_kartica_en.html"]


def test_a_language_parameter_is_still_filled_with_the_scripts_codes():
    code = "var l = 'sr'; if (x) { l = 'en'; } location.href = '/index.php?lang=' + l;"
    assert [(f.url, f.hreflang) for f in navigation_targets(code, "http://primer.rs/")] == [
        ("http://primer.rs/index.php?lang=sr", "sr"), ("http://primer.rs/index.php?lang=en", "en")]


# zemljotresi (Kaid22/ZEMLJOTRESI, Javascript/hamburger.js): the search page is named only as "../HTML/" + lang +
# "SearchPage.html", lang the current file name's "sr-" or "en-", which the script writes down in its switch.
EQLOG_SCRIPT = """function PredjiNaEngleski() {
  const pageName = window.location.href.split("/").pop();
  window.location.href = window.location.href.replace(pageName, "en-" + pageName.slice(3));
}
function PredjiNaSrpski() {
  const pageName = window.location.href.split("/").pop();
  window.location.href = window.location.href.replace(pageName, "sr-" + pageName.slice(3));
}
function PretragaLogovan() {
  const lang = window.location.href.split("/").pop().slice(0, 3);
  if (localStorage.getItem("loggedin") != "true") window.location.href = "../HTML/" + lang + "Login.html";
  else window.location.href = "../HTML/" + lang + "SearchPage.html";
}"""


def test_a_code_written_as_a_file_names_prefix_fills_a_slot_glued_to_a_name():
    assert language_codes(EQLOG_SCRIPT) == ["en-", "sr-"]
    found = [(f.url, f.hreflang) for f in navigation_targets(EQLOG_SCRIPT, "http://eq.test/HTML/sr-Landing.html")]
    assert found == [("http://eq.test/HTML/en-Login.html", "en"), ("http://eq.test/HTML/sr-Login.html", "sr"),
                     ("http://eq.test/HTML/en-SearchPage.html", "en"), ("http://eq.test/HTML/sr-SearchPage.html", "sr")]


def test_a_prefix_form_code_never_fills_a_folder():
    code = "var a = 'en-'; var b = 'sr'; location.href = '/' + lang + '/index.html';"
    urls = [f.url for f in navigation_targets(code, "http://primer.rs/")]
    assert "http://primer.rs/sr/index.html" in urls and "http://primer.rs/en-/index.html" not in urls
    page = parse_html('<div data-include="header.html"></div><script>var p = "en-"; var c = "sr";</script>',
                      "http://primer.rs/index.html")
    assert {link.url for link in page.links} >= {"http://primer.rs/header.html", "http://primer.rs/sr/header.html"}
    assert not [link.url for link in page.links if "en-" in link.url]


# chinese-restaurant-website (LukaKaludjerovic/Chinese_Restaurant_Website, index.html and assets/js/sr.js):
# the account pages are named only in the site's own script, beside a row of library scripts.
RESTAURANT_SCRIPTS = """<html><body><a href="index-sr.html">Početna</a>
<script src="assets/vendor/bootstrap/js/bootstrap.bundle.min.js"></script>
<script src="assets/vendor/aos/aos.js"></script>
<script src="https://code.jquery.com/jquery-3.3.1.slim.min.js"></script>
<script src="https://cdn.example.net/widget.js"></script>
<script src="assets/js/main.js"></script>
<script src="assets/js/sr.js"></script>
</body></html>"""
RESTAURANT_SR_JS = """function showAccount() {
    const a = document.getElementById("account");
    if (localStorage.getItem("user")) {
        a.href = "account-logged-sr.html";
    } else {
        a.href = "account-sr.html";
    }
}
function logout() { localStorage.removeItem("user"); window.location.href = "index-sr.html"; }"""


def test_a_pages_own_external_scripts_are_links_to_read_and_libraries_are_not():
    page = parse_html(RESTAURANT_SCRIPTS, "http://restoran.example/index-sr.html")
    scripts = [link.url for link in page.links if link.kind == "script-src"]
    assert scripts == ["http://restoran.example/assets/js/main.js", "http://restoran.example/assets/js/sr.js"]


def test_at_most_a_few_external_scripts_per_page():
    html = "".join(f'<script src="/js/part{i}.js"></script>' for i in range(20))
    page = parse_html(html, "http://primer.rs/")
    assert len([link for link in page.links if link.kind == "script-src"]) == MAX_PAGE_SCRIPTS


def test_own_scripts_are_told_from_libraries_by_their_path():
    assert own_script("http://a.rs/js/login.js") and own_script("http://a.rs/zvezdara_en.js")
    for library in ("http://a.rs/jquery-3.js", "http://a.rs/popper.js", "http://a.rs/js/main.min.js",
                    "http://a.rs/assets/vendor/aos/aos.js", "http://a.rs/dist/app.bundle.js", "http://a.rs/style.css"):
        assert not own_script(library), library


def test_a_library_whose_version_is_glued_to_its_name_is_a_library():
    # a one-page CV of the real development web loads js/jquery1.11.0.js beside its own js/global.js
    assert not own_script("http://a.rs/js/jquery1.11.0.js") and not own_script("http://a.rs/js/bootstrap4.min.js")
    assert own_script("http://a.rs/js/global.js") and own_script("http://a.rs/js/page2.js")


def test_an_external_scripts_paths_are_read_from_the_pages_it_serves():
    # assets/js/sr.js runs in /index-sr.html: its "account-sr.html" is /account-sr.html
    found = script_file_links(RESTAURANT_SR_JS, "http://restoran.example/assets/js/sr.js")
    assert {link.url for link in found} == {"http://restoran.example/index-sr.html",
                                            "http://restoran.example/account-logged-sr.html",
                                            "http://restoran.example/account-sr.html"}
    assert script_base("http://a.rs/js/gallery/slides.js") == "http://a.rs/"
    assert script_base("http://a.rs/sr/menu.js") == "http://a.rs/sr/"  # kept beside its pages


# web-presentation-art-gallery (bogdanmihajlovic/Web-Presentation-Art-Gallery, js/login.js): after a login
# the script sends the reader to the Serbian home below the current page's folder.
GALLERY_LOGIN_JS = """$("#buttonSubmit").click(function(){
        let url = window.location.pathname;
        let path = url.split("/");
        path.splice(path.length - 1, 1);
        url = path.join("/") + "/rs/index.html";
        window.location = url;
})"""


def test_a_page_path_closing_a_concatenation_is_read_below_the_pages_folder():
    found = script_file_links(GALLERY_LOGIN_JS, "http://galerija.example/js/login.js")
    assert [link.url for link in found] == ["http://galerija.example/rs/index.html"]
    # inline, on a page in a folder: below the site's root (location.origin + …) or below that folder
    inline = path_literals('url = base + "/en/about.html"; go(url);', "http://a.rs/sajt/login.html")
    assert [link.url for link in inline] == ["http://a.rs/en/about.html", "http://a.rs/sajt/en/about.html"]
    # an opening or middle piece is not a page of its own
    assert path_literals("url = '/sr/' + name + '.html';", "http://a.rs/") == []


def test_an_external_scripts_file_names_are_read_from_the_page_that_loads_it_when_it_is_known():
    code = 'var works = [{putanja: "slika1.html"}, {putanja: "slika2.html"}];'
    loaded = script_file_links(code, "http://a.rs/js/common.js", loaded_by="http://a.rs/srb/galerija.html")
    assert {link.url for link in loaded} == {"http://a.rs/srb/slika1.html", "http://a.rs/srb/slika2.html"}
    # unknown loader, or one on another host: the folder script_base guesses
    for loaded_by in (None, "http://cdn.example/srb/galerija.html"):
        guessed = script_file_links(code, "http://a.rs/js/common.js", loaded_by=loaded_by)
        assert {link.url for link in guessed} == {"http://a.rs/slika1.html", "http://a.rs/slika2.html"}


# A gallery's cards (bogdanmihajlovic/Web-Presentation-Art-Gallery, js/index.js, dev-train): the paintings
# are data, the link to each is built from its code and the page's language.
GALLERY_JS = """let allImages = [[{"code" : "mona-lisa", "naziv" : "Mona Liza"}, {"code" : "strazar", "naziv" : "Stražar"}],
                 [{"code" : "mona-lisa", "naziv" : "Mona Lisa"}, {"code" : "strazar", "naziv" : "The Guard"}]];
let lang = window.location.pathname.search("/en/") != -1 ? 1 : 0;
for (let i = 0; i < allOffers.length; i++) {
    let url = "../" + ((lang == 0) ? "rs" : "en") + "/umetnine/" + allOffers[i].code + ".html";
    link.attr("href", url);
}"""


def test_a_path_built_from_a_conditional_and_the_scripts_own_data_is_a_built_link():
    found = [(f.url, f.how) for f in script_links([GALLERY_JS], "http://galerija.test/rs/index.html")]
    assert found == [("http://galerija.test/en/", "literal"),  # the "/en/" the language test searches for
                     ("http://galerija.test/rs/umetnine/mona-lisa.html", "built"),
                     ("http://galerija.test/rs/umetnine/strazar.html", "built"),
                     ("http://galerija.test/en/umetnine/mona-lisa.html", "built"),
                     ("http://galerija.test/en/umetnine/strazar.html", "built")]


def test_a_built_path_with_a_part_the_script_never_names_is_given_up():
    code = """let url = "/sr/" + somethingFromTheServer() + ".html"; let other = base + item.slug + ".html";"""
    assert script_links([code], "http://primer.rs/") == []


def test_hrefs_written_in_a_scripts_markup_are_links_whatever_their_shape():
    code = """const NAV = [{ href: '/sr/o-nama', label: 'O nama' }, { href: '/sr/kontakt', label: 'Kontakt' },
                       { href: '/img/logo.png', label: '' }];
    nav.innerHTML = NAV.map((item) => `<a href="${item.href}">${item.label}</a>`).join('');
    footer.innerHTML = '<a href="/en/about-us">English</a> <a href=\\"/sr/uslovi\\">Uslovi</a>';
    for (var i = 0; i < ture.length; i++) { html += '<li><a href="' + '/sr/ture/' + ture[i].slug + '">' + '</a>'; }
    var ture = [{slug: 'zlatibor'}, {slug: 'tara'}];"""
    found = [(f.url, f.how) for f in script_links([code], "http://primer.rs/sr/")]
    assert found == [("http://primer.rs/sr/o-nama", "markup"), ("http://primer.rs/sr/kontakt", "markup"),
                     ("http://primer.rs/en/about-us", "markup"), ("http://primer.rs/sr/uslovi", "markup"),
                     ("http://primer.rs/sr/ture/zlatibor", "markup"), ("http://primer.rs/sr/ture/tara", "markup")]


def test_markup_in_a_script_never_leads_off_the_site_nor_to_assets():
    code = """el.innerHTML = '<a href="http://drugi.rs/sr/">x</a><a href="/files/cenovnik.pdf">y</a>';
              a.href = '/index-' + lang; var lang = 'sr';"""
    assert script_links([code], "http://primer.rs/") == []


def test_script_links_are_marked_by_how_they_were_read():
    html = ("<html><body><script>location.href = '/en/';"
            "menu.innerHTML = '<a href=\"/sr/o-nama\">O nama</a>'; var p = '/sr/kontakt.html';"
            "var x = '/sr/' + (l ? 'a' : 'b') + '.html';</script></body></html>")
    page = parse_html(html, "http://primer.rs/")
    assert [(l.url, l.kind, l.rel) for l in page.links] == [
        ("http://primer.rs/en/", "script", "navigation"), ("http://primer.rs/sr/o-nama", "script", "script-markup"),
        ("http://primer.rs/sr/kontakt.html", "script", ""), ("http://primer.rs/sr/a.html", "script", "script-built"),
        ("http://primer.rs/sr/b.html", "script", "script-built")]


def test_script_links_share_the_pages_one_link_cap(monkeypatch):
    from crawlweb.crawler import htmlparse
    monkeypatch.setattr(htmlparse, "MAX_LINKS_PER_PAGE", 3)
    html = ('<a href="/a.html">a</a><a href="/b.html">b</a>'
            "<script>var p = ['/sr/1.html', '/sr/2.html', '/sr/3.html'];</script>")
    page = parse_html(html, "http://primer.rs/")
    assert [l.url.rsplit("/", 1)[1] for l in page.links] == ["a.html", "b.html", "1.html"]
    assert page.links_dropped == 2


def test_a_huge_bundle_of_built_paths_is_read_in_bounded_time():
    import time
    code = ("x = " + " + ".join(f"'a{i}.html'" for i in range(20000)))[:200000]
    code += "\n" + "\n".join(f"var p{i} = a + b.c[d] + '/page-{i}.html' + item.slug;" for i in range(5000))
    started = time.monotonic()
    found = script_links([code], "http://primer.rs/")
    assert len(found) <= MAX_SCRIPT_LINKS and time.monotonic() - started < 5
    for hostile in (" /* x" * 40000, " // x" * 40000, "{a:'" * 50000, "'<a href=\"' + " * 15000, "x = (a ? " * 20000):
        started = time.monotonic()
        script_links([hostile[:200000]], "http://primer.rs/")
        assert time.monotonic() - started < 5, hostile[:12]


def test_a_written_href_that_is_only_a_slot_is_never_filled_with_a_language_code():
    # a site's script (dev-train) holds the Serbian alphabet's digraphs as two-letter strings; its cards link
    # `${item.wikiUrl}`, values the script never writes: nothing to guess
    code = """const LETTERS = ["a", "b", "lj", "nj", "sr"];
    cards.innerHTML = items.map((item) => `<a href="${item.wikiUrl}">${item.name}</a>`).join("");"""
    assert script_links([code], "http://primer.rs/") == []


def test_an_href_in_a_comment_or_an_unquoted_concatenation_is_no_link():
    code = """// <a class="emajl" href="user_nameATdomain">tekst</a> >>> mailto:user@domain
    /* <a href="stara-strana.html">old</a> */
    $("#restorani").append("<a href="+this.href+" <div class='res" + this.id + "'></div></a>");"""
    assert [f.how for f in script_links([code], "http://primer.rs/") if f.how == "markup"] == []
