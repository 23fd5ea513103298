"""Language of a fetched page: fastText (lite model) plus our own South Slavic evidence.

Pure module (no Django). fastText separates language families well but not Serbian Latin from
Croatian or Bosnian (measured here: ~1 in 3 Serbian Latin pages right). So:

0. a template's lorem ipsum lines are left out: filler is no page's language (filler.py);
1. script: Cyrillic vs Latin share of the letters (scripts.py);
2. family gate: is this BCMS (sr/hr/bs/cnr)? fastText mass on sr/hr/bs/sh, backed by BCMS vs
   Slovene function words when fastText drifts to sl/sk/cs;
3. inside the family, word markers (markers.py: ekavian/ijekavian reflexes, lexical pairs,
   month names, future-tense spelling) plus low-weight priors: fastText's own sr/hr/bs split,
   the top-level domain (.rs/.срб, .hr, .ba, .me) and the declared html lang (often wrong);
4. Cyrillic: Serbian vs Macedonian by the letters only one of them has (ђ ћ vs ѓ ќ ѕ) and a
   few function words; other Cyrillic languages are left to fastText;
5. before all of these, a text whose dominant script names its language (Greek, Hebrew, Arabic,
   Thai, Han, kana, Hangul ...: writing_systems.py) is that language, however short.

Every signal and its contribution is returned in `evidence` (JSON-able).
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from .declared import PER_PAGE_SOURCES, Declarations, page_declarations
from .dictionaries import MissingDictionary, spell_checker
from .markers import (
    BCMS,
    bcms_markers,
    cyrillic_word_counts,
    ekavian_text,
    function_word_counts,
    words,
)
from .fasttext_model import fasttext_scores
from .filler import without_filler
from .placeholder import placeholder_phrase
from .priors import declares_family, ekavian_declarations, page_priors
from .scripts import script_profile, without_urls
from .transliterate import cyrillic_to_latin
from .writing_systems import SCRIPT_LANGUAGES, USUAL_SCRIPT, WritingSystem, script_language, writing_system

MIN_LETTERS = 12          # below this there is no language to speak of
MIN_WORDS = 3
MIN_LETTER_SHARE = 0.5    # letters among non-space characters; lower is markup, numbers, junk
MAX_CHARS = 50_000        # a page body beyond this adds time, not evidence
SCRIPT_SAMPLE = 8000      # characters whose letters are counted by script
MIN_TOP_SCORE = 0.1       # fastText's best guess below this, outside BCMS, means "und"

FASTTEXT_BCMS = ("sr", "hr", "bs", "sh")
FASTTEXT_NEIGHBOURS = ("sl", "sk", "cs", "pl", "mk")  # where BCMS pages are misfiled

FASTTEXT_PRIOR_WEIGHT = 1.0
UNCLEAR_FAMILY_MASS = 0.4  # fastText mass on BCMS and its neighbours that leaves the family open
CYRILLIC_LANGUAGES = frozenset(
    "sr mk ru uk bg be kk ky mn tg tt ba cv ce os sah av kv udm mhr mrj myv xal tyv krc lez".split()
)
# fastText labels for languages not normally written in Latin letters.
NON_LATIN_LANGUAGES = CYRILLIC_LANGUAGES - {"sr"} | frozenset(
    "ar fa ur ps he yi el hy ka am ti hi mr ne sa bn as pa gu or ta te kn ml si th lo km my bo "
    "dv zh ja ko wuu yue arz azb ckb pnb sd ug".split()
)
# Junk that fastText still labels (keyboard rows, lorem ipsum) is caught by a dictionary check
# where we have one: too few real words -> "und".
DICTIONARY_FOR = {"en": "en", "sr": "sr", "hr": "sr", "bs": "sr", "cnr": "sr"}  # sr_Latn_RS accepts hr/bs forms
MIN_KNOWN_SHARE = 0.3
DICTIONARY_SAMPLE = 200   # tokens checked
# A weak guess without a dictionary of its own (fastText's "de" at 0.21 on an English page) gives way to a
# declared language whose dictionary knows this share of the words. Weak only: a neighbour's dictionary
# knows half the words of a confidently identified Macedonian page declared Serbian.
DECLARED_ALONE_SHARE = 0.5
WEAK_GUESS = 0.5
# A confident guess we cannot check (no dictionary: fastText's "ro" at 0.96 on an English menu of dishes
# and "~ 710 din" prices) gives way only to a declared language whose dictionary knows nearly all the
# words: on the real development web no page of another language reaches 0.8 with its declared
# language's dictionary (Macedonian pages declared mk: 0.75 with the Serbian one; a German price list: 0.7).
DECLARED_KNOWN_SHARE = 0.8


@dataclass(frozen=True)
class LanguageGuess:
    lang: str                    # ISO 639-1/3 code, or "und"
    script: str | None           # "Cyrl" | "Latn" | None
    confidence: float            # 0..1
    evidence: dict = field(default_factory=dict, compare=False)

    @property
    def tag(self) -> str:
        """BCP 47 tag: Serbian always carries its script (sr-Latn, sr-Cyrl); other languages
        only when written in a script that is not their usual one."""
        if self.lang == "und" or self.script is None:
            return self.lang
        if self.lang == "sr" or self.script != _USUAL_SCRIPT.get(self.lang, "Latn"):
            return f"{self.lang}-{self.script}"
        return self.lang


_USUAL_SCRIPT = {c: "Cyrl" for c in ("mk", "ru", "bg", "uk", "be", "kk", "ky", "mn", "tg", "tt")} | USUAL_SCRIPT


# --- decision
def identify_language(
    text: str, *, url: str | None = None, html_lang: str | None = None, title: str | None = None,
    declarations: Declarations | None = None,
) -> LanguageGuess:
    """Language and script of a page's visible text (title is added to the text).

    ``declarations`` (declared.py) weigh in only inside the family the text chose (priors.py);
    without them, ``url`` and ``html_lang`` are read as the page's declarations."""
    if not isinstance(text, str):
        raise TypeError(f"identify_language needs the page text as str, got {type(text).__name__}")
    body = "\n".join(part for part in (title, text) if part)
    body, filler_lines = without_filler(unicodedata.normalize("NFC", body[:MAX_CHARS]))
    sample = without_urls(body[:SCRIPT_SAMPLE])
    profile = script_profile(sample)
    system = writing_system(sample, profile.latin, profile.cyrillic)
    tokens = words(body)
    evidence: dict = {"script": profile.as_evidence(), "words": len(tokens)}
    if filler_lines:
        evidence["lorem_ipsum_lines_left_out"] = filler_lines
    if system.counts:
        evidence["writing_system"] = system.as_evidence()
    if system.dominant is not None:
        if declarations is None:
            declarations = page_declarations(url or "", html_lang)
        return _script_named(body, profile, system, declarations, evidence)
    if profile.letters < MIN_LETTERS or len(tokens) < MIN_WORDS:
        return _und(evidence, "too short")
    if profile.letter_share < MIN_LETTER_SHARE:
        return _und(evidence, "mostly non-letters")
    if (announced := placeholder_phrase(body)) is not None:
        return _und(evidence, f"a placeholder for a language version: {announced!r}")
    ft = fasttext_scores(body)
    evidence["fasttext"] = {k: round(v, 3) for k, v in list(ft.items())[:5]}
    if declarations is None:
        declarations = page_declarations(url or "", html_lang)
    if declarations.as_evidence():
        evidence["declared"] = declarations.as_evidence()
    hints = page_priors(url, declarations, body)
    if hints:
        evidence["hints"] = hints
    if profile.script == "Cyrl":
        guess = _decide_cyrillic(body, tokens, profile, ft, hints, evidence)
    elif profile.script == "Latn":
        guess = _decide_latin(body, tokens, profile, ft, hints, evidence)
    else:
        guess = _fasttext_answer(ft, profile.script, evidence)
    checked = _dictionary_check(guess, tokens)
    if checked.lang != "und":
        return _declared_words(checked, tokens, profile.script, declarations)
    return _dictionary_fallback(checked, tokens, profile.script, declarations, ft)


def _script_named(body: str, profile, system: WritingSystem, declarations: Declarations,
                  evidence: dict) -> LanguageGuess:
    """A text whose dominant script names its language (writing_systems.py): no word minimum, since
    Chinese, Japanese and Thai put no spaces between words and one Greek word is Greek."""
    share = (profile.latin + profile.cyrillic + system.characters) / max(profile.non_space, 1)
    if share < MIN_LETTER_SHARE:
        return _und(evidence, "mostly non-letters")
    script = system.dominant
    ft = fasttext_scores(body) if len(SCRIPT_LANGUAGES[script]) > 1 else {}
    if ft:
        evidence["fasttext"] = {k: round(v, 3) for k, v in list(ft.items())[:5]}
    if declarations.as_evidence():
        evidence["declared"] = declarations.as_evidence()
    lang, why = script_language(system, declarations.languages(), ft)
    evidence["decision"] = why
    weighted = system.weighted  # the script is the evidence: its share of the letters, whatever the length
    confidence = weighted[script] / sum(weighted.values())
    return LanguageGuess(lang, _USUAL_SCRIPT.get(lang, script), round(confidence, 3), evidence)


def _dictionary_check(guess: LanguageGuess, tokens: list[str]) -> LanguageGuess:
    """Share of words a Hunspell dictionary of the guessed language knows; junk -> "und"."""
    code = DICTIONARY_FOR.get(guess.lang)
    if code is None:
        return guess
    try:
        spell_checker(code)
    except MissingDictionary as missing:  # no check possible; say so in the evidence
        guess.evidence["dictionary"] = str(missing)
        return guess
    known = _known_share(code, tokens) or 0.0
    guess.evidence["dictionary_known_share"] = round(known, 3)
    guess.evidence["dictionary_checked"] = guess.lang
    if known < MIN_KNOWN_SHARE:
        return _und(guess.evidence, f"few {code} dictionary words ({known:.2f})")
    return guess


def _declared_words(guess: LanguageGuess, tokens: list[str], script: str | None,
                    declarations: Declarations) -> LanguageGuess:
    """A language the page itself declares (its URL marker or its own hreflang: per page, unlike a
    template's html lang) outside the guessed one wins when its dictionary knows at least as many of the
    page's words: where the words do not choose between the two, the author's word for this page does.
    The family gate lets an English page in on Serbian names (a team page's "Univerzitet u Beogradu" on
    each card and in the footer, a Serbian footer's markers), and its Serbian dictionary share may still
    pass the junk check; the English labels around those names hold as many known words. A template's
    html lang that names the guessed language does not stop it: it is the template's word, the URL
    marker the page's. A weak guess without a dictionary (fastText's "de" at 0.21 on an English page)
    gives way when the declared language's dictionary knows DECLARED_ALONE_SHARE of the words. A
    confident guess without a dictionary gives way to any declaration, html lang included, whose
    dictionary knows DECLARED_KNOWN_SHARE of them. A declaration alone never wins: /en/ over Serbian
    text finds fewer English words."""
    own = guess.evidence.get("dictionary_known_share")
    own_code = DICTIONARY_FOR.get(guess.lang)
    if own is None and own_code is not None:
        return guess
    unchecked_and_confident = own is None and guess.confidence >= WEAK_GUESS
    declared = declarations.languages()
    sources = declared if unchecked_and_confident else {
        source: lang for source, lang in declared.items() if source in PER_PAGE_SOURCES}
    for lang in dict.fromkeys(sources.values()):
        code = DICTIONARY_FOR.get(lang)
        if code is None or code == own_code or not _fits_script(lang, script):
            continue
        known = _known_share(code, tokens)
        if unchecked_and_confident:
            needed = DECLARED_KNOWN_SHARE
        elif own is None:  # the guess has no dictionary to compare with
            needed = DECLARED_ALONE_SHARE
        else:
            needed = max(MIN_KNOWN_SHARE, own)
        if known is not None and known >= needed:
            why = (f"whose dictionary knows {known:.0%} of the words ({guess.lang} has none to check)"
                   if unchecked_and_confident else "whose dictionary knows as many words or more")
            guess.evidence["declared_words"] = {"lang": lang, "known_share": round(known, 3)}
            guess.evidence["decision"] = f"{guess.evidence.get('decision')}; declared {lang}, {why}"
            return LanguageGuess(lang, script, round(0.5 * known, 3), guess.evidence)
    return guess


def _dictionary_fallback(guess: LanguageGuess, tokens: list[str], script: str | None,
                         declarations: Declarations, ft: dict[str, float]) -> LanguageGuess:
    """A page the decision left undetermined (a junk check failed, fastText unsure) takes the first
    other language whose dictionary knows its words: the languages the page declares first, then
    fastText's labels that fit the script, in order. Real case: an English menu page over a footer
    in Serbian ("Odsek za softversko inženjerstvo") passes the family gate on its markers, fails the
    Serbian dictionary, and is English by its own html lang, its /en/ folder and its words."""
    tried = {DICTIONARY_FOR.get(guess.evidence.get("dictionary_checked", ""))}
    candidates = list(declarations.languages().values()) + [k for k in ft if _fits_script(k, script)]
    for lang in dict.fromkeys(candidates):
        code = DICTIONARY_FOR.get(lang)
        if code is None or code in tried or not _fits_script(lang, script):
            continue
        tried.add(code)
        known = _known_share(code, tokens)
        if known is not None and known >= MIN_KNOWN_SHARE:
            guess.evidence["dictionary_fallback"] = {"lang": lang, "known_share": round(known, 3)}
            guess.evidence["decision"] = f"{guess.evidence.get('decision')}; {lang} dictionary knows the words"
            return LanguageGuess(lang, script, round(0.5 * known, 3), guess.evidence)
    return guess


def _known_share(code: str, tokens: list[str]) -> float | None:
    """Share of the tokens (placeholder runs left out) a language's dictionary knows; None without one."""
    try:
        checker = spell_checker(code)
    except MissingDictionary:
        return None
    # "aaaa aa aaa" placeholder runs are no language's words: left out rather than counted unknown
    sample = [t for t in tokens[:DICTIONARY_SAMPLE] if len(t) > 1 and len(set(t)) > 1] or tokens[:DICTIONARY_SAMPLE]
    return sum(1 for t in sample if checker.known(t)) / len(sample) if sample else None


def _und(evidence: dict, reason: str) -> LanguageGuess:
    evidence["decision"] = reason
    return LanguageGuess("und", None, 0.0, evidence)


def _fasttext_answer(ft: dict[str, float], script: str | None, evidence: dict) -> LanguageGuess:
    # A label whose language is not written in the text's script is noise (fastText calls
    # Latin-letter junk Hebrew at times): take the best label that fits the script.
    fitting = [(k, v) for k, v in ft.items() if _fits_script(k, script)]
    if not fitting:
        return _und(evidence, "no fastText answer fits the script")
    lang, score = fitting[0]
    if score < MIN_TOP_SCORE:
        return _und(evidence, f"fastText unsure ({lang} {score:.2f})")
    if lang == "sh":  # "Serbo-Croatian" is not an answer we can use; keep it undecided
        return _und(evidence, "fastText says sh without BCMS evidence")
    evidence["decision"] = "fastText"
    return LanguageGuess(lang, script, round(score, 3), evidence)


def _fits_script(lang: str, script: str | None) -> bool:
    if script == "Latn":
        return lang not in NON_LATIN_LANGUAGES
    if script == "Cyrl":
        return lang in CYRILLIC_LANGUAGES
    return True


def _decide_cyrillic(body, tokens, profile, ft, hints, evidence) -> LanguageGuess:
    foreign_share = profile.foreign_cyrillic / max(profile.cyrillic, 1)
    top = next(iter(ft), None)
    if foreign_share > 0.01 and top not in ("sr", "mk"):
        return _fasttext_answer(ft, "Cyrl", evidence)  # Russian, Bulgarian, Ukrainian ...
    counts = cyrillic_word_counts(tokens)
    sr = (3 * profile.serbian_cyrillic + 1.5 * counts["sr"] + 0.7 * counts["sr_verb"]
          + 3 * sum(ft.get(k, 0.0) for k in FASTTEXT_BCMS))
    mk = (3 * profile.macedonian_cyrillic + 1.5 * counts["mk"] + 0.7 * counts["mk_article"]
          + 1.0 * counts["mk_verb"] + 3 * ft.get("mk", 0.0))
    text_scores = {"sr": round(sr, 2), "mk": round(mk, 2)}
    sr += sum(v.get("sr", 0.0) for v in hints.values())
    mk += sum(v.get("mk", 0.0) for v in hints.values())
    evidence["cyrillic"] = {"sr": round(sr, 2), "mk": round(mk, 2), "text": text_scores, "function_words": counts}
    if sr == 0 and mk == 0:
        return _fasttext_answer(ft, "Cyrl", evidence)
    # The Latin transliteration feeds the same reflex markers; reported for pairing/debugging.
    latin = cyrillic_to_latin(body[:SCRIPT_SAMPLE]).lower()
    markers = bcms_markers(words(latin), latin)
    evidence["markers"] = markers.as_evidence()
    lang = "sr" if sr >= mk else "mk"
    confidence = _sigmoid(abs(sr - mk) / 2) * _length_factor(profile.letters)
    evidence["decision"] = "Cyrillic sr/mk letters and words"
    return LanguageGuess(lang, "Cyrl", round(confidence, 3), evidence)


def _decide_latin(body, tokens, profile, ft, hints, evidence) -> LanguageGuess:
    fam_mass = sum(ft.get(k, 0.0) for k in FASTTEXT_BCMS)
    neighbour_mass = sum(ft.get(k, 0.0) for k in FASTTEXT_NEIGHBOURS)
    fw = function_word_counts(tokens)
    folded = profile.bcms_diacritics / max(profile.latin, 1) < 0.004
    markers = bcms_markers(tokens, body.lower(), folded=folded)
    evidence.update(
        family_mass=round(fam_mass, 3), function_words=fw, markers=markers.as_evidence(),
        folded_diacritics=folded,
    )
    top = next(iter(ft), None)
    outsider = max((p for k, p in ft.items() if k not in FASTTEXT_BCMS), default=0.0)
    marked = markers.total >= 3 and fam_mass + neighbour_mass >= 0.1
    # Slovene (and sk/cs/pl) take much of fastText's mass on BCMS text and vice versa; the
    # function words of each side decide which way a split vote goes.
    if fw["sl"] > fw["bcms"]:
        in_family = False
    elif fw["bcms"] > fw["sl"]:
        in_family = (
            fam_mass >= 0.4 or fam_mass >= outsider or marked
            or (fw["bcms"] >= 3 and fam_mass + neighbour_mass >= 0.3)
        )
    else:  # no function-word evidence either way (short strings)
        in_family = fam_mass >= 1.5 * outsider or marked
    # Menus and contact forms ("Početna Kontakt Pošalji") get a neighbour's label from fastText
    # with no Slovene word to back it: the text cannot choose, so a declared variety may.
    unclear = (not in_family and top in FASTTEXT_NEIGHBOURS and fw["sl"] == 0
               and fam_mass + neighbour_mass >= UNCLEAR_FAMILY_MASS)
    if unclear and declares_family(hints):
        in_family = True
    evidence["family_gate"] = {"in_family": in_family, "outsider": round(outsider, 3), "top": top,
                               "unclear": unclear}
    if not in_family:
        return _fasttext_answer(ft, "Latn", evidence)
    scores = dict(markers.scores)
    if ekavian_text(markers):  # a hr/bs/cnr declaration names the country here, not the standard (priors.py)
        evidence["ekavian"] = True
        hints = ekavian_declarations(hints)
    if declares_family(hints):
        # A declared variety: the ijekavian reflex no longer counts against Serbian (priors.py).
        ijekavian = markers.by_group.get("ijek", {})
        scores["sr"] += ijekavian.get("hr", 0.0) - ijekavian.get("sr", 0.0)
        evidence["ijekavian_neutral"] = True
    for variety in BCMS:
        # fastText's own split (it has no "cnr" label) counts as a weak prior only
        scores[variety] += FASTTEXT_PRIOR_WEIGHT * ft.get(variety, 0.0)
        for hint in hints.values():
            scores[variety] += hint.get(variety, 0.0)
    evidence["variety_scores"] = {k: round(v, 2) for k, v in scores.items()}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (best, s1), (_, s2) = ranked[0], ranked[1]
    family_conf = min(1.0, 0.5 + fam_mass + 0.1 * fw["bcms"])
    confidence = _sigmoid(s1 - s2) * family_conf * _length_factor(profile.letters)
    evidence["decision"] = "BCMS markers" if markers.total > 0 else "BCMS, fastText prior only"
    return LanguageGuess(best, "Latn", round(confidence, 3), evidence)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _length_factor(letters: int) -> float:
    """Short texts carry little evidence; full trust from about 300 letters on."""
    return min(1.0, 0.4 + letters / 500)
