"""Language-switcher links built from common conventions: training positives for the Link Predictor.

Barbosa et al. trained on hand-labelled links; we have few real ones, so the starting model also
learns the conventions every bilingual-site builder uses: switcher anchors (English/EN/Srpski/
Српски/Latinica/Ћирилица), flag images (gb.png, usa.png, serbia.png, ...), hreflang alternates and
URLs that differ only by a language unit. Each example is placed on a real page URL and shows a
random subset of these signals, so the model learns each signal on its own too. Deterministic
for a given seed. Negatives come from real pages (see real_sites.py), plus the switcher entry of
the page's own language (a self link that looks like a switch but leads nowhere new).
"""
from __future__ import annotations

import random
import re
from urllib.parse import urlsplit, urlunsplit

from frontier.classifiers.link_features import LinkContext

ANCHORS = {
    "en": ["English", "EN", "Eng", "ENG", "In English", "English version", "en"],
    "sr": ["Srpski", "SR", "SRB", "Srp", "Српски", "Latinica", "Ћирилица", "Ćirilica",
           "Na srpskom", "На српском", "Serbian", "sr", "Srpski jezik"],
}
FLAG_FILES = {
    "en": ["gb.png", "uk.png", "us.png", "usa.png", "en.gif", "flag_en.png", "english.png",
           "united-kingdom.png", "flag-gb.svg", "en.svg"],
    "sr": ["rs.png", "sr.png", "serbia.png", "srb.png", "flag_sr.png", "serbian.png",
           "flag-rs.svg", "sr.gif", "rs.svg"],
}
FLAG_DIRS = ["img/", "images/", "img/flags/", "images/flags/", "assets/img/lang/", "static/flags/", ""]
ALTS = {
    "en": ["English", "EN", "UK flag", "English language", "eng"],
    "sr": ["Srpski", "SR", "Serbian flag", "Српски", "srpski jezik"],
}
_UNIT = {"en": ["en", "eng"], "sr": ["sr", "rs", "srb", "lat", "cyr"]}
_UNIT_IN_PATH = re.compile(r"(?<![^\W_])(en|eng|sr|rs|srb|lat|cyr)(?![^\W_])", re.IGNORECASE)


def _language_of(url: str) -> str:
    """Which side the page is on, read from its URL units (no unit: taken as the default language)."""
    found = [m.group(1).lower() for m in _UNIT_IN_PATH.finditer(urlsplit(url).path)]
    if any(u in _UNIT["sr"] for u in found):
        return "sr"
    if any(u in _UNIT["en"] for u in found):
        return "en"
    return "default"


def counterpart_url(page_url: str, target_lang: str, rng: random.Random, other_paths: list[str] = ()) -> str:
    """The page's URL in ``target_lang`` under one of the usual conventions.

    For translated slugs the path of another real page is borrowed, so that no made-up slug
    word becomes a sign of translation links.
    """
    parts = urlsplit(page_url)
    unit = rng.choice(_UNIT[target_lang])
    path = parts.path or "/"
    other = [p for p in other_paths if p != path and not _UNIT_IN_PATH.search(p)]
    if other and rng.random() < 1 / 3:
        # translated slug: nothing in the URL says "language", only the other contexts do
        return urlunsplit(parts._replace(path=rng.choice(other)))
    if _UNIT_IN_PATH.search(path):
        return urlunsplit(parts._replace(path=_UNIT_IN_PATH.sub(unit, path, count=1)))
    convention = rng.randrange(4)
    stem, dot, ext = path.rpartition(".") if "." in path.rsplit("/", 1)[-1] else (path, "", "")
    if convention == 0 and dot:  # about.html -> about-sr.html / about_sr.html
        return urlunsplit(parts._replace(path=f"{stem}{rng.choice('-_')}{unit}.{ext}"))
    if convention == 1:  # /about.html -> /sr/about.html
        return urlunsplit(parts._replace(path=f"/{unit}{path}"))
    if convention == 2:  # ?lang=sr
        return urlunsplit(parts._replace(query=f"{rng.choice(['lang', 'l', 'language'])}={unit}"))
    if convention == 3 and parts.hostname:  # sr.example.com
        host = parts.hostname.removeprefix("www.")
        return urlunsplit(parts._replace(netloc=f"{unit}.{host}"))
    return urlunsplit(parts._replace(path=f"/{unit}{path}"))


def switcher_link(page_url: str, rng: random.Random, other_paths: list[str] = ()) -> LinkContext:
    """A positive example: a switch from ``page_url`` to its counterpart, showing 1-3 signals."""
    side = _language_of(page_url)
    target_lang = "en" if side == "sr" else "sr" if side == "en" else rng.choice(["en", "sr"])
    target = counterpart_url(page_url, target_lang, rng, other_paths)
    signals = rng.sample(["anchor", "flag", "hreflang", "around"], k=rng.randint(1, 3))
    anchor = rng.choice(ANCHORS[target_lang]) if "anchor" in signals else ""
    src = alt = ""
    if "flag" in signals:
        src = rng.choice(FLAG_DIRS) + rng.choice(FLAG_FILES[target_lang])
        alt = rng.choice(ALTS[target_lang]) if rng.random() < 0.5 else ""
    around = ""
    if "around" in signals:
        around = " ".join(rng.sample(ANCHORS["en"][:3] + ANCHORS["sr"][:3], k=2))
    return LinkContext(
        url=target,
        anchor_text=anchor,
        text_around=around,
        img_alt=alt,
        img_src=src,
        page_url=page_url,
        hreflang=target_lang if "hreflang" in signals else "",
    )


def own_language_switch(page_url: str, rng: random.Random) -> LinkContext:
    """A negative example: the switcher entry of the page's own language, pointing at the page."""
    side = _language_of(page_url)
    lang = side if side != "default" else rng.choice(["en", "sr"])
    use_flag = rng.random() < 0.5
    return LinkContext(
        url=page_url,
        anchor_text=rng.choice(ANCHORS[lang]) if not use_flag or rng.random() < 0.5 else "",
        img_src=(rng.choice(FLAG_DIRS) + rng.choice(FLAG_FILES[lang])) if use_flag else "",
        page_url=page_url,
    )


def switcher_examples(page_urls: list[str], seed: int = 0, per_page: int = 2) -> tuple[list[LinkContext], list[int]]:
    """Positives (switches to the counterpart) and own-language negatives for the given pages."""
    rng = random.Random(seed)
    links: list[LinkContext] = []
    labels: list[int] = []
    paths_by_host: dict[str, list[str]] = {}
    for url in sorted(page_urls):
        parts = urlsplit(url)
        paths_by_host.setdefault(parts.hostname or "", []).append(parts.path or "/")
    for url in sorted(page_urls):
        other_paths = paths_by_host[urlsplit(url).hostname or ""]
        for _ in range(per_page):
            links.append(switcher_link(url, rng, other_paths))
            labels.append(1)
        links.append(own_language_switch(url, rng))
        labels.append(0)
    return links, labels
