"""Pages that give evaluators something to judge, on the first bilingual site (www.primer.rs).

Turned on by ``generate_web(..., judging_cases=True)`` (the labeling tests and the demo), off by
default so the exact truth other tests compare crawls with stays as it was. Every case is a
Serbian page and an "English" page at the site's own URL convention (/sr/x.html ↔ /en/x.html), so
the pairing methods propose it, and each is wrong in one of Pupsniffer's five error categories:

  language_id      the English-side page's content is German, inside a long English frame (menus,
                   cookie notice, footer) that makes the identifier call the page English; an
                   evaluator answers 1
  invalid_url      the English-side URL is a "soft 404": 200 OK with a not-found page (2)
  same_language    the English-side page's content is Serbian inside the same English frame (3)
  extraction       the English page's content is written by a script, so the stored text is the
                   frame only (4)
  false_bilingual  both languages, but two different texts (5)

plus five *boilerplate-only* pairs (``BOILERPLATE``): a login, a registration, a sorted listing, an
account and a gallery page whose only content beyond the frame is a translated heading and form,
sort or button labels. The filter keeps such pairs (they are translations, line for line), and an
evaluator judging by the thin-page rule (data/realweb/README.md) answers n: nothing in them is worth
a parallel corpus. They are the error the real development web shows most (the learning bench's
held-out crawl), and what the pair classifier learns to remove from the filter's kept pairs.

plus ``injection``: a true translation pair whose titles, anchors, URLs and bodies are full of
script-injection attempts; rendered anywhere in the application, none of them may run.
Pages are built from the same catalog entries as the rest of the test web (seeded).
"""
from __future__ import annotations

import html
import json

from .pages import page_text
from .sites import BILINGUAL, HTML_LANG, SiteSpec

CASES = {  # key → (slug, Serbian label on the home page)
    "injection": ("napad", "Bezbednost: probni napad"),
    "language_id": ("jezik", "Jezik stranice"),
    "invalid_url": ("nevazeca", "Nevažeća adresa"),
    "same_language": ("isti-jezik", "Isti jezik"),
    "extraction": ("skripta", "Sadržaj iz skripte"),
    "false_bilingual": ("lazni-par", "Lažni par"),
}
BOILERPLATE = {  # key → (slug, Serbian label on the home page, Serbian lines, English lines)
    "login": ("prijava", "Пријава", ["Пријава", "Корисничко име", "Лозинка", "Пријави се"],
              ["Log in", "Username", "Password", "Sign in"]),
    "register": ("registracija", "Регистрација",
                 ["Регистрација", "Име и презиме", "Електронска пошта", "Лозинка", "Поновите лозинку", "Региструј се"],
                 ["Register", "Full name", "Email", "Password", "Repeat password", "Sign up"]),
    "listing": ("pretraga", "Претрага", ["Претрага", "Сортирај:", "Назив растуће", "Назив опадајуће"],
                ["Search", "Sort:", "Name ascending", "Name descending"]),
    "account": ("nalog", "Мој налог", ["Мој налог", "Моји огласи:", "Измени податке", "Одјави се"],
                ["My account", "My ads:", "Edit details", "Log out"]),
    "gallery": ("galerija", "Галерија", ["Галерија", "Фотографије", "Претходна", "Следећа"],
                ["Gallery", "Photos", "Previous", "Next"]),
}
ERROR_CATEGORY = {"language_id": "language_id", "invalid_url": "invalid_url", "same_language": "same_language",
                  "extraction": "extraction", "false_bilingual": "false_bilingual"}

# What a script that got through would do: set a global and call alert (the browser test listens).
INJECTED = [
    "<script>window.__injected = 'script'; alert('script')</script>",
    "<img src=x onerror=\"window.__injected = 'onerror'; alert('onerror')\">",
    "<svg onload=\"window.__injected = 'svg'; alert('svg')\"></svg>",
    "</textarea><script>window.__injected = 'textarea'; alert('textarea')</script>",
    "\"><script>window.__injected = 'attr'; alert('attr')</script>",
    "{{ request.user.password }} {% debug %} {{7*7}}",
    "javascript:window.__injected='href';alert('href')",
]


def case_site(sites: list[SiteSpec]) -> SiteSpec | None:
    return next((s for s in sites if s.kind == BILINGUAL and len(s.languages) == 2), None)


def _paragraphs(seed: int, key: str, lang: str, pool: tuple[str, ...] = ("en",)) -> tuple[str, list[str]]:
    title, paragraphs = page_text(seed, f"judging/{key}", pool)
    return title.text(lang), [" ".join(e.text(lang) for e in paragraph) for paragraph in paragraphs]


def _document(lang_attr: str, title: str, head_extra: str, body: str) -> bytes:
    return (f'<!DOCTYPE html>\n<html lang="{lang_attr}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{title}</title>\n{head_extra}</head>\n<body>\n{body}\n</body>\n</html>\n").encode("utf-8")


def _plain(site: SiteSpec, lang: str, slug: str, title: str, paragraphs: list[str], html_lang: str) -> bytes:
    text = "".join(f"<p>{html.escape(p)}</p>\n" for p in paragraphs)
    return _document(html_lang, html.escape(title), "", _framed(site, lang, slug, title, text))


def _framed(site: SiteSpec, lang: str, slug: str, title: str, content_html: str) -> str:
    """The site's switch to the other language's page and home link above the page's heading and content."""
    other = [code for code in site.languages if code != lang][0]
    switch = f'<div class="lang-switch"><a href="{site.url(other, slug)}">{"English" if other == "en" else "Srpski"}</a></div>'
    home = f'<nav><a href="{site.home_url(lang)}">{"Home" if lang == "en" else "Početna"}</a></nav>'
    return f"{switch}{home}<main><h1>{html.escape(title)}</h1>\n{content_html}</main>"


def _injection(site: SiteSpec, seed: int, lang: str) -> bytes:
    """Real text (so language identification and pairing work) interleaved with attacks, both as
    escaped text (which the stored text keeps literally) and as live markup (for the stored copy)."""
    title, paragraphs = _paragraphs(seed, "injection", lang)
    other = [code for code in site.languages if code != lang][0]
    escaped = [html.escape(a) for a in INJECTED]
    body = [f'<div class="lang-switch"><a href="{site.url(other, "napad")}" onclick="window.__injected=\'onclick\'">'
            f'{escaped[0]} {"English" if other == "en" else "Srpski"}</a></div>',
            f"<h1>{html.escape(title)} {escaped[1]}</h1>"]
    for i, paragraph in enumerate(paragraphs):
        body.append(f"<p>{html.escape(paragraph)} {escaped[(i + 2) % len(escaped)]}</p>")
    body += [INJECTED[0], INJECTED[1], INJECTED[2],
             f'<p><a href="{html.escape(INJECTED[-1])}">{escaped[3]}</a> '
             f'<a href="{site.home_url(lang)}?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E">{escaped[4]}</a></p>',
             f"<p>{escaped[5]}</p>"]
    head = ('<meta http-equiv="refresh" content="0; url=javascript:alert(\'refresh\')">\n'
            "<script>window.__injected = 'head'; alert('head')</script>\n")
    return _document(HTML_LANG[lang], f"{html.escape(title)} {escaped[0]}", head, "\n".join(body))


def _english_frame(site: SiteSpec, seed: int, slug: str, title: str, content_html: str) -> bytes:
    """An English page whose boilerplate (menu, cookie notice, footer: English catalog text)
    outweighs its content, as on real sites where a template is translated and a body is not."""
    _, frame = _paragraphs(seed, f"frame/{slug}", "en")
    nav = (f'<nav><a href="{site.home_url("en")}">Home</a> · <a href="{site.url("en", "o-nama")}">About us</a> · '
           f'<a href="{site.url("en", "kontakt")}">Contact</a> · <a href="{site.url(site.languages[0], slug)}">Srpski</a></nav>')
    notice = f'<aside class="cookies"><p>{html.escape(frame[0])}</p></aside>'
    footer = "<footer>" + "".join(f"<p>{html.escape(p)}</p>" for p in frame[1:]) + "</footer>"
    return _document("en", html.escape(title), "",
                     f"{nav}{notice}<main><h1>{html.escape(title)}</h1>\n{content_html}</main>{footer}")


def _short(paragraphs: list[str]) -> str:
    return f"<p>{html.escape(paragraphs[0][:160])}</p>"


def _extraction_page(site: SiteSpec, seed: int) -> bytes:
    title, paragraphs = _paragraphs(seed, "extraction", "en")
    content = json.dumps("".join(f"<p>{html.escape(p)}</p>" for p in paragraphs))
    script = f"<div id=\"content\"></div><script>document.getElementById('content').innerHTML = {content};</script>"
    return _english_frame(site, seed, CASES["extraction"][0], title, script)


def case_pages(seed: int, site: SiteSpec) -> dict[str, bytes]:
    """URL → HTML of every case page, both sides."""
    sr, en = site.languages
    pages: dict[str, bytes] = {}
    slug = CASES["injection"][0]
    pages[site.url(sr, slug)], pages[site.url(en, slug)] = _injection(site, seed, sr), _injection(site, seed, en)
    for key in ("language_id", "invalid_url", "same_language", "extraction", "false_bilingual"):
        slug = CASES[key][0]
        title, paragraphs = _paragraphs(seed, key, sr)
        pages[site.url(sr, slug)] = _plain(site, sr, slug, title, paragraphs, HTML_LANG[sr])
        if key == "language_id":
            # The title is English, the content German: the frame and title outweigh it
            en_title, _ = _paragraphs(seed, key, "en", pool=("de",))
            _, de_paragraphs = _paragraphs(seed, key, "de", pool=("de",))
            pages[site.url(en, slug)] = _english_frame(site, seed, slug, en_title, _short(de_paragraphs))
        elif key == "invalid_url":
            pages[site.url(en, slug)] = _plain(site, en, slug, "404 Not Found",
                                               ["The page you requested could not be found.",
                                                "It may have been moved or deleted."], "en")
        elif key == "same_language":
            pages[site.url(en, slug)] = _english_frame(site, seed, slug, title, _short(paragraphs))
        elif key == "extraction":
            pages[site.url(en, slug)] = _extraction_page(site, seed)
        else:
            other_title, other = _paragraphs(seed, "false_bilingual/other", en)
            pages[site.url(en, slug)] = _plain(site, en, slug, other_title, other, "en")
    for slug, _, sr_lines, en_lines in BOILERPLATE.values():
        for lang, lines in ((sr, sr_lines), (en, en_lines)):
            pages[site.url(lang, slug)] = _labels_only(site, lang, slug, lines)
    return pages


def _labels_only(site: SiteSpec, lang: str, slug: str, lines: list[str]) -> bytes:
    """A page of the site's frame around a heading and labels (a form, a sort box, buttons)."""
    labels = "".join(f"<label>{html.escape(line)}</label>\n" for line in lines[1:])
    return _document(HTML_LANG[lang], html.escape(lines[0]), "",
                     _framed(site, lang, slug, lines[0], f"<form>\n{labels}</form>"))


def home_links(site: SiteSpec, lang: str) -> list[tuple[str, str]]:
    """(url, label) of the cases, listed on the site's home page in each language."""
    return ([(site.url(lang, slug), label) for slug, label in CASES.values()]
            + [(site.url(lang, slug), label) for slug, label, _, _ in BOILERPLATE.values()])


def judging_truth(site: SiteSpec) -> dict:
    sr, en = site.languages
    pairs = {key: [site.url(sr, slug), site.url(en, slug)] for key, (slug, _) in CASES.items()}
    return {"site": site.host, "injection_pair": pairs.pop("injection"),
            "error_pairs": pairs, "error_category": dict(ERROR_CATEGORY),
            "boilerplate_pairs": {key: [site.url(sr, slug), site.url(en, slug)]
                                  for key, (slug, _, _, _) in BOILERPLATE.items()}}
