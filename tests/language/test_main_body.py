"""A page's language is its main body's, not its template's (main_body.py), as page prep stores it."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.language.identify import identify_language
from crawlweb.language.main_body import identify_page_text
from crawlweb.services.page_language import identify_page_language

# A building firm's bilingual site, written for these tests: the template in one language, the body in the other.
ENGLISH_TEMPLATE = (
    "<header><h1>Gradnja Petrović</h1><p>Quality homes, built to last, delivered on time</p></header>",
    "<nav><a href='/'>Home</a> <a href='/about'>About us</a> <a href='/services'>Our services</a> "
    "<a href='/projects'>Projects</a> <a href='/gallery'>Gallery</a> <a href='/news'>News and events</a> "
    "<a href='/contact'>Contact us</a></nav>",
    "<aside><h3>Latest news</h3><p>We have finished the new residential building in Zemun, and the first "
    "families moved in this spring. Our team will be at the construction fair in March: come and meet us at "
    "our stand, where we will show the plans for our next projects.</p></aside>"
    "<footer><p>We are a construction company from Belgrade that has been building houses since 1998. "
    "All rights reserved. Privacy policy. Follow us on social networks and subscribe to our newsletter "
    "to receive news about our projects.</p><div class='cookie-notice'>This website uses cookies to improve "
    "your experience. By continuing to browse the site you agree to our use of cookies.</div></footer>",
)
SERBIAN_TEMPLATE = (
    "<header><h1>Gradnja Petrović</h1><p>Kvalitetne kuće, građene da traju, predate na vreme</p></header>",
    "<nav><a href='/'>Početna</a> <a href='/o-nama'>O nama</a> <a href='/usluge'>Naše usluge</a> "
    "<a href='/projekti'>Projekti</a> <a href='/galerija'>Galerija</a> <a href='/vesti'>Vesti i događaji</a> "
    "<a href='/kontakt'>Kontaktirajte nas</a></nav>",
    "<footer><p>Mi smo građevinska firma iz Beograda koja gradi kuće od 1998. godine. Sva prava zadržana. "
    "Politika privatnosti. Pratite nas na društvenim mrežama i prijavite se na naš bilten da biste dobijali "
    "vesti o našim projektima.</p></footer>",
)
SERBIAN_BODY = ("Naša firma se bavi izgradnjom stambenih objekata od 1998. godine. Za to vreme smo izgradili "
                "više od dvesta kuća i stanova širom Srbije.")
ENGLISH_BODY = ("Our company has been building homes since 1998. In that time we have built more than two "
                "hundred houses and flats across Serbia.")
JAPANESE_BODY = "当社は1998年から住宅を建てています。これまでにセルビア各地で二百軒以上の家を建てました。"


def page(template: tuple[str, str, str], body: str, lang: str = "en", head: str = "") -> str:
    header, nav, footer = template
    return (f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'>{head}</head><body>"
            f"{header}{nav}<main><p>{body}</p></main>{footer}</body></html>")


def stored(html: str, url: str):
    parsed = parse_html(html, url)
    return parsed, identify_page_language(parsed, url)


def test_a_serbian_body_under_an_english_template_is_serbian():
    url = "http://gradnja.example.com/sr/o-nama.html"
    parsed, found = stored(page(ENGLISH_TEMPLATE, SERBIAN_BODY), url)
    assert identify_language(parsed.text, url=url, html_lang="en").lang == "en"  # what the whole text says
    assert (found.language, found.script) == ("sr", "Latn")


def test_an_english_body_under_a_serbian_template_is_english():
    url = "http://gradnja.example.com/en/about.html"
    parsed, found = stored(page(SERBIAN_TEMPLATE, ENGLISH_BODY, lang="sr"), url)
    assert identify_language(parsed.text, url=url, html_lang="sr").lang == "sr"
    assert found.language == "en"


def test_a_page_whose_file_name_ends_in_a_glued_capitalised_code_is_read_the_same_way():
    # course projects name their English pages kontaktENG.html, receptiEn.html
    for url in ("http://gradnja.example.com/onamaENG.html", "http://gradnja.example.com/onamaEn.html"):
        parsed, found = stored(page(SERBIAN_TEMPLATE, ENGLISH_BODY, lang="sr"), url)
        assert identify_language(parsed.text, url=url, html_lang="sr").lang == "sr"
        assert found.language == "en", url


def test_a_page_that_declares_itself_by_hreflang_is_read_the_same_way():
    url = "http://gradnja.example.com/o-nama.html"
    head = f"<link rel='alternate' hreflang='sr' href='{url}'><link rel='alternate' hreflang='en' href='/about.html'>"
    assert stored(page(ENGLISH_TEMPLATE, SERBIAN_BODY, head=head), url)[1].language == "sr"


def test_a_japanese_body_under_english_menus_is_japanese_without_any_declaration():
    url = "http://gradnja.example.com/page3.html"
    assert stored(page(ENGLISH_TEMPLATE, JAPANESE_BODY), url)[1].language == "ja"


def test_without_a_declaration_of_its_own_the_whole_text_still_decides():
    # Nothing but the template's words says which language the page means: the body does not overrule them alone.
    url = "http://gradnja.example.com/page7.html"
    assert stored(page(ENGLISH_TEMPLATE, SERBIAN_BODY), url)[1].language == "en"


def test_a_body_that_names_no_language_leaves_the_page_to_its_whole_text():
    # An address list under Serbian menus on an /en/ page: the body's words say no English.
    url = "http://gradnja.example.com/en/kontakt.html"
    body = "Gradnja Petrović d.o.o.<br>Bulevar kralja Aleksandra 73<br>11000 Beograd<br>+381 11 123 4567"
    assert stored(page(SERBIAN_TEMPLATE, body, lang="sr"), url)[1].language == "sr"


def test_a_short_body_in_the_pages_declared_language_is_not_enough_to_overrule_the_template():
    url = "http://gradnja.example.com/en/gallery.html"
    assert stored(page(SERBIAN_TEMPLATE, "Photo 1 Photo 2", lang="sr"), url)[1].language == "sr"


def test_a_page_whose_template_and_body_agree_is_read_once():
    guess = identify_page_text(f"Home About us\n{ENGLISH_BODY}", ENGLISH_BODY, url="http://gradnja.example.com/en/")
    assert guess.lang == "en" and "read" not in guess.evidence


def test_the_evidence_says_the_main_text_was_read():
    url = "http://gradnja.example.com/sr/o-nama.html"
    parsed = parse_html(page(ENGLISH_TEMPLATE, SERBIAN_BODY), url)
    guess = identify_page_text(parsed.text, parsed.main_text, url=url)
    assert guess.lang == "sr" and guess.evidence["read"].startswith("main text")


# A documentation site's chapter list, written for this test: the Serbian page keeps the template's English
# (menus, an untranslated heading, the edit/donate/share box beside the <article>); only the chapter titles
# in the <article> are translated.
HANDBOOK_CHAPTERS = """<!DOCTYPE html><html lang=""><head><title>Appendices</title></head><body>
<header class="site-header"><a href="/">Budget Transparency Handbook</a></header>
<nav><a href="/guide/en/">Guide</a> <a href="/guide/en/why/">Why open budgets?</a>
<a href="/glossary/">Glossary</a> <a href="/resources/">Resources</a> <a href="/contribute/">Contribute</a></nav>
<div class="page-content">
  <article class="post-content">
    <a href="/guide/sr/">guide</a>
    <h1>Appendices</h1>
    <ul><li><a href="/guide/sr/appendices/formats/">Formati dokumenata</a></li>
    <li><a href="/guide/sr/appendices/law/">Koja su prava građana na pristup podacima o budžetu</a></li></ul>
  </article>
  <div class="page-tools"><ul>
    <li>Improve this page <a href="https://example.org/edit">Edit on the website</a></li>
    <li>Translate this page <a href="/contribute/translate">Translation guide</a></li>
    <li>Donate <p>If you have found this useful and would like to support our work please consider making
    a small donation.</p></li>
    <li>Share <a href="#">Share on Facebook</a> <a href="#">Share on Twitter</a></li></ul></div>
</div>
<footer class="site-footer">Terms of use. Privacy policy. Related projects. Contact.</footer>
</body></html>"""


def test_the_article_a_page_marks_is_its_body_not_the_donate_and_share_box_beside_it():
    url = "http://handbook.example.org/guide/sr/appendices/"
    parsed, found = stored(HANDBOOK_CHAPTERS, url)
    alone = identify_page_text(parsed.text, parsed.main_text, url=url, title=parsed.title)
    assert alone.lang == "en"  # the text outside the template's parts still holds the box's English
    assert (found.language, found.script) == ("sr", "Latn")


def test_an_empty_main_a_script_fills_leaves_the_page_to_its_main_text():
    # <main> holds no sentence (a news page whose script writes the article): the text outside the template reads
    url = "http://gradnja.example.com/sr/vesti.html"
    header, nav, footer = ENGLISH_TEMPLATE
    html = (f"<html lang='en'><body>{header}{nav}<main><h1 id='news-title'></h1></main>"
            f"<div class='news'><p>{SERBIAN_BODY}</p></div>{footer}</body></html>")
    parsed, found = stored(html, url)
    assert parsed.body_text == "" and found.language == "sr"
