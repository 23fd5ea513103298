"""Evidence for a South Slavic variety that is not the text: declarations, the URL, the country.

Pure module. Used per page (identify.py) and per site (site_variety.py) with the same weights.
Text markers (markers.py) score about 1.5 for each distinct ekavian or ijekavian word and 1.0
for a lexical word, so a weight of 3 equals two distinct marker words. Why each source weighs
what it does:

* URL marker (/sr/, about_sr.html, index-cnr.html, ?lang=sr): 3.0. The author chose it for this
  page; it survives copied templates, which is where declarations go wrong.
* hreflang self-declaration: 2.5. Written per page, usually by a CMS that knows the language.
* html lang (xml:lang, content-language): 2.0; og:locale: 1.0. Often copied with the template
  (lang="en" on every page, lang="bs" on Serbian text), so less than the URL.
* country (the domain's ccTLD .rs/.hr/.ba/.me/.mk/.si, 1.5; the phone country code in the text,
  +381/+385/+387/+382/+389/+386, 1.0): where a site is, not what it writes; weak.

Declarations only choose *within* a family the text has already chosen (a lang="sr" on English
text weighs nothing: identify.py applies these only inside BCMS or Serbian/Macedonian Cyrillic).

Three rules follow from how these declarations are used in practice:

* When a page (or site) declares a BCMS variety, the ijekavian reflex stops counting against
  Serbian: ijekavian is standard Serbian in Republika Srpska and Montenegro, and the declaration
  already says which standard the author means; without a declaration ijekavian text is far more
  often Croatian, Bosnian or Montenegrin, and keeps its prior (markers.GROUP_DEFAULTS).
* A Serbian declaration with Montenegrin country evidence (+382, or .me on ijekavian text: .me is
  also sold as an English word) counts for Montenegrin as
  much as for Serbian: "cnr" got its ISO 639 code only in 2017 and browsers and CMSs still offer
  only sr/sr-ME, so Montenegrin sites declare "sr".
* A Croatian, Bosnian or Montenegrin declaration on ekavian text (markers.ekavian_text) counts for
  Serbian as much: ekavian is standard only in Serbian, so there the declaration names the country
  or the market the page is for (a Budva firm's "CG" page written in ekavian Serbian), not the
  standard it is written in; the text then chooses.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from .declared import Declarations
from .markers import has_ijekavian

BCMS = ("sr", "hr", "bs", "cnr")
SOUTH_SLAVIC = BCMS + ("mk",)
IJEKAVIAN_STANDARDS = ("hr", "bs", "cnr")  # the standards with no ekavian norm
SOURCE_WEIGHTS = {"url": 3.0, "hreflang_self": 2.5, "switch": 2.5, "html_lang": 2.0, "og_locale": 1.0}
TLD_WEIGHT = 1.5
PHONE_WEIGHT = 1.0
TLD_VARIETY = {"rs": "sr", "xn--90a3ac": "sr", "срб": "sr", "hr": "hr", "ba": "bs", "me": "cnr",
               "mk": "mk", "xn--d1alf": "mk", "si": "sl"}
PHONE_VARIETY = {"381": "sr", "385": "hr", "387": "bs", "382": "cnr", "389": "mk", "386": "sl"}
_PHONE = re.compile(r"(?:\+|\b00)\s?(38[125679])[\s\-/()]*\d")


def tld_variety(url_or_host: str | None) -> str | None:
    if not url_or_host:
        return None
    host = urlsplit(url_or_host if "//" in url_or_host else "//" + url_or_host).hostname or ""
    return TLD_VARIETY.get(host.rstrip(".").rsplit(".", 1)[-1]) if host else None


def phone_variety(text: str) -> str | None:
    """The country of the most frequent ex-Yugoslav phone code in the text (+381 ... +389)."""
    counts: dict[str, int] = {}
    for code in _PHONE.findall(text):
        counts[code] = counts.get(code, 0) + 1
    if not counts:
        return None
    return PHONE_VARIETY[max(sorted(counts), key=counts.get)]


def montenegrin_country(tld: str | None, phone: str | None, ijekavian: bool) -> bool:
    """Is Montenegro where the page is? A +382 phone says so; .me only with ijekavian text, since
    .me is sold world-wide as a word ("about.me", "petsitty.me" of a Serbian ekavian firm)."""
    return phone == "cnr" or (tld == "cnr" and ijekavian)


def declared_priors(declared: dict[str, str], *, montenegro: bool) -> dict[str, dict[str, float]]:
    """source -> {variety: weight} for declarations (source -> language code) in the family."""
    priors = {}
    for source, language in declared.items():
        if language not in SOUTH_SLAVIC or source not in SOURCE_WEIGHTS:
            continue
        weight = SOURCE_WEIGHTS[source]
        if language == "sr" and montenegro:
            priors[source] = {"sr": weight, "cnr": weight}
        else:
            priors[source] = {language: weight}
    return priors


def country_priors(tld: str | None, phone: str | None) -> dict[str, dict[str, float]]:
    priors = {}
    if tld in SOUTH_SLAVIC:
        priors["tld"] = {tld: TLD_WEIGHT}
    if phone in SOUTH_SLAVIC:
        priors["phone"] = {phone: PHONE_WEIGHT}
    return priors


def page_priors(url: str | None, declarations: Declarations | None, text: str) -> dict[str, dict[str, float]]:
    """Every non-text prior of one page, by source."""
    tld, phone = tld_variety(url), phone_variety(text)
    declared = declarations.languages() if declarations is not None else {}
    montenegro = montenegrin_country(tld, phone, tld == "cnr" and has_ijekavian(text))
    priors = declared_priors(declared, montenegro=montenegro)
    priors.update(country_priors(tld, phone))
    return priors


def ekavian_declarations(priors: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """``priors`` of an ekavian page: a hr/bs/cnr declaration counts for Serbian as much (module docstring)."""
    out = {}
    for source, weights in priors.items():
        declared = max((w for v, w in weights.items() if v in IJEKAVIAN_STANDARDS), default=0.0)
        if source in SOURCE_WEIGHTS and declared:
            weights = {**weights, "sr": max(weights.get("sr", 0.0), declared)}
        out[source] = weights
    return out


def declares_family(priors: dict[str, dict[str, float]]) -> bool:
    """Does any declaration (not the country) name a BCMS variety?"""
    return any(source in SOURCE_WEIGHTS and any(v in BCMS for v in weights) for source, weights in priors.items())
