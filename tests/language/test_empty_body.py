"""A page with no body text has no language of its own, whatever its title says."""
from crawlweb.crawler.htmlparse import parse_html
from crawlweb.services.page_language import identify_page_language
from tests.language.snippets import ENGLISH, html_page

# ognjens16/nexory (a Serbian agency): the root shows a logo and sends the browser on in a script.
NEXORY_GATEWAY = """<!DOCTYPE html><html lang="sr"><head><meta charset="utf-8">
<title>NEXORY — System Entry</title></head><body><div class="wrap"><div class="logo">
<img src="assets/img/nexory_logo.png" alt="NEXORY"></div></div>
<script>setTimeout(() => { window.location.href = "index-sr.html"; }, 2000);</script></body></html>"""


def test_a_gateway_whose_body_is_empty_is_not_an_english_page_because_of_its_title():
    url = "http://nexory.example.com/index.html"
    assert identify_page_language(parse_html(NEXORY_GATEWAY, url), url).language == "und"


def test_a_page_with_body_text_still_reads_its_title_with_it():
    url = "http://slavonian.example.com/en/index.html"
    page = html_page(ENGLISH, head="<title>Slavonian Trading</title>")
    assert identify_page_language(parse_html(page, url), url).language == "en"
