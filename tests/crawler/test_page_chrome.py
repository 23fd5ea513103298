"""The parser keeps a page's main text apart: its text outside navigation, the page's header and
footer, sidebars and cookie notices (crawler.page_chrome)."""
from crawlweb.crawler.htmlparse import parse_html

PAGE = """<!DOCTYPE html><html lang="en"><head><title>About</title></head><body>
<header><a href="/">Acme</a> <span>Building since 1998</span></header>
<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul></nav>
<main><article><header><h1>Our story</h1></header><p>We build <a href="/homes">homes</a> in Belgrade.</p>
<footer>Posted by the team</footer></article></main>
<aside><h3>Latest news</h3><p>New office opened</p></aside>
<div id="cookie-banner">We use cookies. Accept</div>
<footer><p>Copyright 2024 Acme. All rights reserved.</p></footer>
</body></html>"""


def test_main_text_leaves_out_navigation_page_header_footer_sidebar_and_cookie_notice():
    page = parse_html(PAGE, "http://acme.example/about")
    assert page.main_text.splitlines() == ["Our story", "We build homes in Belgrade.", "Posted by the team"]


def test_the_whole_text_and_the_links_are_what_they_were():
    page = parse_html(PAGE, "http://acme.example/about")
    for line in ("Home", "About us", "Latest news", "We use cookies. Accept", "Copyright 2024 Acme. All rights reserved."):
        assert line in page.text.splitlines()
    assert [link.anchor_text for link in page.links if link.kind == "a"] == ["Acme", "Home", "About us", "homes"]


def test_older_templates_name_their_parts_in_ids_and_classes():
    html = """<html><body><div id="header">Acme Ltd</div><div class="navbar"><a href="/">Home</a></div>
    <div class="content"><p>Text of the page.</p></div><div role="contentinfo">Contact: Belgrade</div>
    <div id="footer">Copyright</div></body></html>"""
    assert parse_html(html, "http://acme.example/").main_text == "Text of the page."


def test_a_section_called_menu_is_a_restaurants_dishes_and_stays():
    html = """<html><body><nav><a href="#menu">Menu</a></nav>
    <section id="menu"><h2>Menu</h2><p>Grilled trout with potatoes</p></section></body></html>"""
    assert parse_html(html, "http://restoran.example/").main_text.splitlines() == ["Menu", "Grilled trout with potatoes"]


def test_a_class_on_the_body_says_nothing_of_a_part():
    html = """<html><body class="cookie-consent-shown header"><p>The whole page.</p></body></html>"""
    assert parse_html(html, "http://acme.example/").main_text == "The whole page."


def test_a_page_that_is_all_template_has_no_main_text():
    html = """<html><body><nav><a href="/">Home</a><a href="/en">English</a></nav></body></html>"""
    page = parse_html(html, "http://acme.example/")
    assert page.text == "HomeEnglish" and page.main_text == ""


def test_the_body_a_page_marks_is_kept_apart_from_the_tools_beside_it():
    html = """<html><body><nav><a href="/">Home</a></nav><div class="content">
    <article><h1>Chapters</h1><p>Formati dokumenata</p></article>
    <div class="page-tools">Improve this page. Donate. Share on Twitter</div></div></body></html>"""
    page = parse_html(html, "http://handbook.example/sr/")
    assert page.body_text.splitlines() == ["Chapters", "Formati dokumenata"]
    assert page.main_text.splitlines()[-1] == "Improve this page. Donate. Share on Twitter"
    acme = parse_html(PAGE, "http://acme.example/about")  # a <main> holding an <article>, read once
    assert acme.body_text == acme.main_text
    assert parse_html("<html><body><p>No body marked.</p></body></html>", "http://acme.example/").body_text == ""
