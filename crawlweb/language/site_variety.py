"""A site's South Slavic variety, decided from all its pages, and the page labels it corrects.

Pure module. One page rarely says enough to tell Serbian from Croatian, Bosnian or Montenegrin
(a menu, a contact form, a page of ijekavian Serbian); a site does. ``site_variety`` reads the
pages' observations (``page_observation``: their text-marker scores, their declarations, phone
codes; no text is kept) and scores each variety of the family (sr, hr, bs, cnr, mk):

* text: the mean over the site's BCMS pages of their text-marker scores (markers.py), so a long
  site does not drown the other evidence; the ijekavian reflex counts against Serbian only when
  nothing on the site declares a variety (priors.py explains why);
* declarations: each source's weight (priors.SOURCE_WEIGHTS) times the share of the site's
  local pages that declare that variety, so a declaration on every page weighs what it weighs on
  one page, and a stray one little; a hr/bs/cnr declaration on an ekavian page counts for Serbian
  as much, and such a page's own declaration of it keeps it Serbian on a Serbian site (priors.py);
* country: the domain's ccTLD (.rs/.hr/.ba/.me/.mk) and the most frequent phone code, weak;
* script: the share of local pages in Serbian Cyrillic (CYRILLIC_SERBIAN_WEIGHT), since Serbian
  is the BCMS standard written in Cyrillic; the share of pages whose Cyrillic letters say
  Macedonian (MACEDONIAN_WEIGHT), since ѓ ќ ѕ do not occur in Serbian.

Bosnian and Serbian: the variety is Serbian when Bosnian leads it by less than BOSNIAN_LEAD, the
weight of one Bosnian-only word, once the country's prior is left out of Bosnian's score; and a page
of a Serbian site keeps a Bosnian label only when its text leads by KEEP_MARGIN beyond that tie. Bosnian's markers are the union of Serbian's and Croatian's and its
country is also Republika Srpska's, so ijekavian Serbian with a western word or two (vanjski,
željezni), a +387 number or a template's ``lang="bs"`` leads to Bosnian by a point or two without a
word of Bosnian's own; a Bosnian site's own words (historija, kahva, lahko, sahat) and text lead by more.

Then each local page whose label differs from the site's variety takes the site's variety,
unless the page holds its own: a per-page declaration of its label (URL marker, hreflang self,
or an html lang that differs between the site's pages, so not a template), or a text margin of
KEEP_MARGIN for its label over the site's, counted without the ijekavian reflex (which does not
separate ijekavian Serbian from the others). A Croatian site's "_sr" pages so stay Serbian, and
a Serbian site's pages called Bosnian for one ijekavian word become Serbian.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .declared import PER_PAGE_SOURCES
from .priors import (
    BCMS,
    IJEKAVIAN_STANDARDS,
    PHONE_WEIGHT,
    SOURCE_WEIGHTS,
    SOUTH_SLAVIC,
    TLD_WEIGHT,
    montenegrin_country,
    tld_variety,
)

CYRILLIC_SERBIAN_WEIGHT = 6.0
MACEDONIAN_WEIGHT = 10.0
KEEP_MARGIN = 4.0
# Bosnian's text markers are the union of Serbian's and Croatian's (ijekavian with hr and cnr; porodica,
# opština, unutrašnji with sr and cnr; vanjski with hr), and its country (.ba, +387) is Republika
# Srpska's too, whose standard is ijekavian Serbian: leaving the country aside, a Bosnian lead over
# Serbian smaller than one Bosnian-only word weighs (kahva, 2) is what such Serbian scores too: a tie.
BOSNIAN_LEAD = 2.0
LATIN_NEIGHBOURS = ("sl",)  # the Latin-script language fastText mixes up with BCMS on short text


def page_observation(guess, declarations=None) -> dict:
    """What the site decision needs of one page's LanguageGuess (JSON-able, a few hundred bytes)."""
    evidence = guess.evidence or {}
    markers = evidence.get("markers") or {}
    ijekavian = (markers.get("by_group") or {}).get("ijek", {})
    observation = {
        "lang": guess.lang, "script": guess.script,
        "markers": markers.get("scores") or {},
        "ijek": {"sr": ijekavian.get("sr", 0.0), "other": ijekavian.get("hr", 0.0)},
        "declared": declarations.languages() if declarations is not None else {},
    }
    if evidence.get("ekavian"):
        observation["ekavian"] = True  # a hr/bs/cnr declaration names the country here (priors.py)
    if (evidence.get("family_gate") or {}).get("unclear"):
        observation["unclear_family"] = True  # a neighbour's label the text did not back
    cyrillic = (evidence.get("cyrillic") or {}).get("text")
    if cyrillic:
        observation["cyrillic"] = cyrillic
    phone = (evidence.get("hints") or {}).get("phone")
    if phone:
        observation["phone"] = next(iter(phone))
    return observation


@dataclass
class SiteVariety:
    host: str
    variety: str | None            # sr, hr, bs, cnr, mk; None: no South Slavic page
    scores: dict[str, float] = field(default_factory=dict)
    evidence: dict = field(default_factory=dict)
    page_languages: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    corrected: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (was, now)

    def as_evidence(self) -> dict:
        return {"variety": self.variety, "scores": self.scores, **self.evidence,
                "corrected": {k: list(v) for k, v in self.corrected.items()}}


def _text_scores(observation: Mapping, *, ijekavian_neutral: bool) -> dict[str, float]:
    scores = {v: float((observation.get("markers") or {}).get(v, 0.0)) for v in BCMS}
    if ijekavian_neutral:
        ijek = observation.get("ijek") or {}
        scores["sr"] += float(ijek.get("other", 0.0)) - float(ijek.get("sr", 0.0))
    return scores


def _check(observations) -> None:
    if not isinstance(observations, Mapping):
        raise TypeError("site_variety needs {page key: observation} (a mapping)")
    for key, observation in observations.items():
        if not isinstance(observation, Mapping) or "lang" not in observation:
            raise ValueError(f"observation of page {key!r} has no 'lang': {observation!r}")


def site_variety(host: str, observations: Mapping[str, Mapping]) -> SiteVariety:
    """The site's variety and every page's (language, script) after the site's decision."""
    _check(observations)
    own = {k: (o["lang"], o.get("script")) for k, o in observations.items()}
    local = [k for k, o in observations.items() if o["lang"] in SOUTH_SLAVIC]
    if not local:
        return SiteVariety(host, None, page_languages=own)
    n = len(local)
    bcms_pages = [k for k in local if observations[k]["lang"] in BCMS]
    cyrillic_bcms = [k for k in bcms_pages if observations[k].get("script") == "Cyrl"]
    by_source = {s: Counter(observations[k].get("declared", {}).get(s) for k in local) for s in SOURCE_WEIGHTS}
    declares = any(lang in BCMS for counts in by_source.values() for lang in counts)
    neutral = declares or bool(cyrillic_bcms)
    tld = tld_variety(host)
    phones = Counter(observations[k].get("phone") for k in observations if observations[k].get("phone"))
    phone = phones.most_common(1)[0][0] if phones else None
    ijekavian = any(float((observations[k].get("ijek") or {}).get("other", 0.0)) > 0 for k in bcms_pages)
    montenegro = montenegrin_country(tld, phone, ijekavian)

    scores = {v: 0.0 for v in SOUTH_SLAVIC}
    for k in bcms_pages:
        for v, s in _text_scores(observations[k], ijekavian_neutral=neutral).items():
            scores[v] += s / len(bcms_pages)
    for source, counts in by_source.items():
        for lang, count in counts.items():
            if lang in SOUTH_SLAVIC:
                weight = SOURCE_WEIGHTS[source] * count / n
                scores[lang] += weight
                if lang == "sr" and montenegro:  # Montenegrin sites declare "sr" (priors.py)
                    scores["cnr"] += weight
    for k in local:  # on ekavian text a hr/bs/cnr declaration counts for Serbian as much (priors.py)
        for source, lang in (observations[k].get("declared") or {}).items():
            if observations[k].get("ekavian") and lang in IJEKAVIAN_STANDARDS and source in SOURCE_WEIGHTS:
                scores["sr"] += SOURCE_WEIGHTS[source] / n
    bosnian_country = 0.0  # the .ba domain's and +387 number's share of Bosnian's score
    for variety, weight in ((tld, TLD_WEIGHT), (phone, PHONE_WEIGHT)):
        if variety in scores:
            scores[variety] += weight
            bosnian_country += weight if variety == "bs" else 0.0
    scores["sr"] += CYRILLIC_SERBIAN_WEIGHT * len(cyrillic_bcms) / n
    scores["mk"] += MACEDONIAN_WEIGHT * sum(observations[k]["lang"] == "mk" for k in local) / n
    variety = max(SOUTH_SLAVIC, key=lambda v: scores[v])  # ties: the order of SOUTH_SLAVIC
    bosnian_tie = variety == "bs" and scores["bs"] - bosnian_country - scores["sr"] < BOSNIAN_LEAD
    if bosnian_tie:
        variety = "sr"  # Bosnian's lead is what ijekavian Serbian scores too: a tie (module docstring)

    html_lang_varies = len([lang for lang in by_source["html_lang"] if lang]) > 1
    # A site that declares two BCMS varieties page by page (SFT21: x.html lang=hr, x_sr.html
    # lang=sr) chose them deliberately: there, a page's own declaration wins over its text.
    deliberate = len({lang for counts in by_source.values() for lang in counts if lang in BCMS}) > 1
    result = SiteVariety(host, variety, {v: round(s, 2) for v, s in scores.items()}, {
        "pages": len(observations), "local_pages": n, "cyrillic_bcms_pages": len(cyrillic_bcms),
        "declared": {s: {lang: c for lang, c in counts.items() if lang} for s, counts in by_source.items()
                     if any(counts)},
        "tld": tld, "phone": phone, "ijekavian_neutral": neutral, "bosnian_tie": bosnian_tie,
    }, page_languages=dict(own))
    # A neighbour's label the text did not back (identify.py, "unclear") is the site's variety
    # on a site that is mostly BCMS: the site's other pages say which family its menus are in;
    # unless the page itself declares that neighbour (a Slovene firm's /sl/ product pages).
    neighbours = Counter(o["lang"] for o in observations.values() if o.get("unclear_family"))
    for key, observation in observations.items():
        if key in local:
            label = _settled_label(observation, variety, html_lang_varies, montenegro, deliberate)
        elif (observation.get("unclear_family") and variety in BCMS
              and observation["lang"] not in (observation.get("declared") or {}).values()
              and len(bcms_pages) > sum(1 for o in observations.values() if o["lang"] == observation["lang"])
              - neighbours[observation["lang"]]):
            label = (variety, observation.get("script"))
        else:
            continue
        if label != own[key]:
            result.page_languages[key] = label
            result.corrected[key] = (_tag(own[key]), _tag(label))
    return result


def _per_page_declaration(observation: Mapping, html_lang_varies: bool, montenegro: bool,
                          variety: str) -> str | None:
    """The BCMS variety this page alone declares (URL marker, hreflang self, or an html lang that
    is not the same on every page), if any."""
    declared = observation.get("declared") or {}
    sources = PER_PAGE_SOURCES + (("html_lang",) if html_lang_varies else ())
    for source in sources:
        lang = declared.get(source)
        if lang in SOUTH_SLAVIC:
            if lang == "sr" and montenegro and variety == "cnr":
                return "cnr"  # Montenegrin sites declare "sr" (priors.py)
            if lang in IJEKAVIAN_STANDARDS and observation.get("ekavian") and variety == "sr":
                return "sr"  # on ekavian text the declaration names the country (priors.py)
            return lang
    return None


def _settled_label(observation: Mapping, variety: str, html_lang_varies: bool,
                   montenegro: bool, deliberate: bool) -> tuple[str, str | None]:
    lang, script = observation["lang"], observation.get("script")
    own = observation.get("declared") or {}
    neighbour = next((own[s] for s in PER_PAGE_SOURCES if own.get(s) in LATIN_NEIGHBOURS), None)
    if neighbour and lang in BCMS and max(_text_scores(observation, ijekavian_neutral=True).values()) < KEEP_MARGIN:
        return neighbour, script  # a /sl/ page the text could not place: its own marker decides
    declared = _per_page_declaration(observation, html_lang_varies, montenegro, variety)
    target = declared or variety
    if lang == target:
        return lang, script
    if deliberate and declared in BCMS and lang in BCMS and (script != "Cyrl" or declared == "sr"):
        return declared, script
    if "mk" in (lang, target):
        if script != "Cyrl":
            return lang, script  # Macedonian is not written in Latin letters; the label stands
        cyrillic = observation.get("cyrillic") or {}
        margin = float(cyrillic.get(lang, 0.0)) - float(cyrillic.get(target, 0.0))
        return (lang, script) if margin >= KEEP_MARGIN else (target, script)
    if script == "Cyrl" and target != "sr":
        return lang, script  # of the BCMS standards only Serbian is commonly written in Cyrillic
    text = _text_scores(observation, ijekavian_neutral=True)
    # Bosnian's lead over Serbian counts from BOSNIAN_LEAD up: below it the two tie (the site's rule, page by page)
    margin = KEEP_MARGIN + (BOSNIAN_LEAD if (lang, target) == ("bs", "sr") else 0.0)
    if text[lang] - text[target] >= margin:
        return lang, script
    return target, script


def _tag(label: tuple[str, str | None]) -> str:
    lang, script = label
    return f"{lang}-{script}" if lang == "sr" and script else lang
