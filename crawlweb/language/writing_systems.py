"""Writing systems that name their language: text in Greek letters is Greek, in Hangul Korean.

Pure module (no Django). Latin and Cyrillic letters are shared by many languages (scripts.py and
identify.py tell those apart); most other scripts are written by one language, or by a few that
their own letters tell apart, so Unicode facts decide and no model is needed, however short the
text. A Japanese page read as English or "und" was the identifier's fault only: fastText knows
Japanese, but a short page fell under the word minimum (Japanese and Chinese put no spaces between
words), and a page whose English menus had more letters than its Japanese body was a Latin page,
where Japanese was no allowed answer.

* Han, kana, Hangul are one group for dominance. Kana present means Japanese (Chinese never
  writes kana; Japanese prose is about a third kana or more, so KANA_SHARE still leaves a stray
  "の" in a Chinese brand name to Chinese); Hangul means Korean; Han alone is Chinese unless the
  page declares Japanese or fastText prefers it (Japanese menus are often kanji only: 会社概要).
* Arabic script: Urdu's own letters (ٹ ڈ ڑ ں ے ہ); else Pashto, Kurdish, Sindhi or Uyghur when
  fastText is sure; else Persian's letters (پ چ ژ گ, and its ی ک where Arabic writes ي ك) against
  Arabic's own (ة, ي ك ى); with no telling letter, as below, Arabic last.
* A script of several languages without such letters (Devanagari: hi, mr, ne; Hebrew: he, yi;
  Bengali: bn, as) takes a language the page declares, else fastText's if it is sure
  (FASTTEXT_SURE), else the script's main language.

Weights for dominance, from sentences and their English translations: a Han character carries about
what three English letters do, a kana or a Hangul syllable about two; the other scripts are
alphabets, abjads or abugidas and count one a letter, like Latin and Cyrillic.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

# (first, last, ISO 15924 code) of the Unicode blocks read here; Hiragana and Katakana are "Kana".
SCRIPT_BLOCKS = sorted([
    (0x0370, 0x03FF, "Grek"), (0x1F00, 0x1FFF, "Grek"),
    (0x0530, 0x058F, "Armn"), (0xFB13, 0xFB17, "Armn"),
    (0x0590, 0x05FF, "Hebr"), (0xFB1D, 0xFB4F, "Hebr"),
    (0x0600, 0x06FF, "Arab"), (0x0750, 0x077F, "Arab"), (0x08A0, 0x08FF, "Arab"),
    (0xFB50, 0xFDFF, "Arab"), (0xFE70, 0xFEFF, "Arab"),
    (0x0780, 0x07BF, "Thaa"),
    (0x0900, 0x097F, "Deva"), (0xA8E0, 0xA8FF, "Deva"),
    (0x0980, 0x09FF, "Beng"), (0x0A00, 0x0A7F, "Guru"), (0x0A80, 0x0AFF, "Gujr"), (0x0B00, 0x0B7F, "Orya"),
    (0x0B80, 0x0BFF, "Taml"), (0x0C00, 0x0C7F, "Telu"), (0x0C80, 0x0CFF, "Knda"), (0x0D00, 0x0D7F, "Mlym"),
    (0x0D80, 0x0DFF, "Sinh"), (0x0E00, 0x0E7F, "Thai"), (0x0E80, 0x0EFF, "Laoo"), (0x0F00, 0x0FFF, "Tibt"),
    (0x1000, 0x109F, "Mymr"), (0x10A0, 0x10FF, "Geor"), (0x1C90, 0x1CBF, "Geor"), (0x2D00, 0x2D2F, "Geor"),
    (0x1100, 0x11FF, "Hang"), (0x3130, 0x318F, "Hang"), (0xA960, 0xA97F, "Hang"), (0xAC00, 0xD7FF, "Hang"),
    (0x1200, 0x139F, "Ethi"), (0x1780, 0x17FF, "Khmr"),
    (0x3040, 0x30FF, "Kana"), (0x31F0, 0x31FF, "Kana"), (0xFF66, 0xFF9F, "Kana"),
    (0x3400, 0x4DBF, "Hani"), (0x4E00, 0x9FFF, "Hani"), (0xF900, 0xFAFF, "Hani"), (0x20000, 0x2FA1F, "Hani"),
])
_STARTS = [first for first, _, _ in SCRIPT_BLOCKS]
# Any character of those blocks: a Latin or Cyrillic page is passed over by one search.
_ANY = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b, _ in SCRIPT_BLOCKS) + "]+")

# Script -> the languages written in it, the main one first (fastText's label codes).
SCRIPT_LANGUAGES: dict[str, tuple[str, ...]] = {
    "Grek": ("el",), "Armn": ("hy",), "Hebr": ("he", "yi"), "Thaa": ("dv",),
    "Arab": ("ar", "fa", "ur", "ps", "ckb", "sd", "ug", "ku"),
    "Deva": ("hi", "mr", "ne", "sa", "mai", "bh", "new", "gom"),
    "Beng": ("bn", "as", "bpy"), "Guru": ("pa",), "Gujr": ("gu",), "Orya": ("or",), "Taml": ("ta",),
    "Telu": ("te",), "Knda": ("kn",), "Mlym": ("ml",), "Sinh": ("si",), "Thai": ("th",), "Laoo": ("lo",),
    "Tibt": ("bo",), "Mymr": ("my",), "Geor": ("ka",), "Ethi": ("am", "ti"), "Khmr": ("km",),
    "Hang": ("ko",), "Jpan": ("ja",), "Hani": ("zh", "ja"),
}
# fastText labels folded into ours: Egyptian Arabic; Wu and Cantonese, written in Chinese characters.
FASTTEXT_ALIASES = {"arz": "ar", "wuu": "zh", "yue": "zh"}
# The script each language is written in; Japanese is "Jpan" (kana and kanji), also when a text has only kanji.
USUAL_SCRIPT = {lang: script for script, languages in SCRIPT_LANGUAGES.items() for lang in languages
                if (lang, script) != ("ja", "Hani")}
WEIGHTS = {"Hani": 3.0, "Hang": 2.0, "Kana": 2.0}
EAST_ASIAN = ("Hani", "Kana", "Hang")
KANA_SHARE = 0.02        # of the Han and kana characters: below it, a kana is a loan in Chinese text
MIN_WEIGHTED = 4.0       # "צור קשר", "联系我们", "문의" are enough; a lone "π" or "Ω" is not
MIN_CHARACTERS = 2
FASTTEXT_SURE = 0.5

URDU_LETTERS = frozenset("ٹڈڑںےۓہ")
PERSIAN_LETTERS = frozenset("پچژگ")       # also Urdu's, which is tried first
PERSIAN_FORMS = frozenset("یک")           # Persian yeh and keheh, where Arabic writes ي and ك
ARABIC_LETTERS = frozenset("ة")
ARABIC_FORMS = frozenset("يكى")


@dataclass(frozen=True)
class WritingSystem:
    """Letters (and combining marks) of a text by script, beyond Latin and Cyrillic."""

    counts: Counter = field(default_factory=Counter)   # script -> characters
    latin: int = 0
    cyrillic: int = 0
    text: str = ""                                     # the characters counted, for letter facts

    @property
    def weighted(self) -> dict[str, float]:
        """Dominance weights per script, East Asian scripts summed under the one that names the language."""
        out = {"Latn": float(self.latin), "Cyrl": float(self.cyrillic)}
        east = sum(WEIGHTS[s] * self.counts[s] for s in EAST_ASIAN)
        if east:
            out[self.east_asian_script()] = east
        for script, n in self.counts.items():
            if script not in EAST_ASIAN:
                out[script] = float(n)
        return out

    def east_asian_script(self) -> str:
        han, kana, hangul = (self.counts[s] for s in EAST_ASIAN)
        if WEIGHTS["Hang"] * hangul >= WEIGHTS["Hani"] * han + WEIGHTS["Kana"] * kana:
            return "Hang"
        if kana and kana >= KANA_SHARE * (han + kana):
            return "Jpan"
        return "Hani"

    @property
    def dominant(self) -> str | None:
        """The script with the most weight, when it is one that names its language and has enough of it."""
        weighted = self.weighted
        script = max(weighted, key=weighted.get)
        if script not in SCRIPT_LANGUAGES or weighted[script] < MIN_WEIGHTED:
            return None
        raw = sum(self.counts[s] for s in EAST_ASIAN) if script in ("Hani", "Jpan", "Hang") else self.counts[script]
        return script if raw >= MIN_CHARACTERS else None

    @property
    def characters(self) -> int:
        return sum(self.counts.values())

    def as_evidence(self) -> dict:
        return {"scripts": dict(self.counts.most_common()), "dominant": self.dominant}


def has_other_scripts(text: str) -> bool:
    """Does ``text`` hold any character of the scripts read here? (One search; most pages hold none.)"""
    return _ANY.search(text) is not None


def writing_system(text: str, latin: int = 0, cyrillic: int = 0) -> WritingSystem:
    """Count the letters and combining marks of ``text`` by script (digits and punctuation of those
    blocks are left out); ``latin`` and ``cyrillic`` come from scripts.script_profile."""
    found = "".join(_ANY.findall(text))
    counts: Counter = Counter()
    kept = []
    for char in found:
        if char.isalpha() or _is_mark(char):
            i = bisect.bisect_right(_STARTS, ord(char)) - 1
            if i >= 0 and ord(char) <= SCRIPT_BLOCKS[i][1]:
                counts[SCRIPT_BLOCKS[i][2]] += 1
                kept.append(char)
    return WritingSystem(counts, latin, cyrillic, "".join(kept))


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def script_language(system: WritingSystem, declared: dict[str, str], fasttext: dict[str, float]) -> tuple[str, str]:
    """(language, why) for text whose dominant script names its language (``system.dominant``).

    ``declared``: source -> language the page declares (declared.Declarations.languages());
    ``fasttext``: label -> probability."""
    script = system.dominant
    if script is None:
        raise ValueError("script_language needs a text whose dominant script names its language")
    languages = SCRIPT_LANGUAGES[script]
    if len(languages) == 1:
        return languages[0], f"{script} letters"
    scores: dict[str, float] = {}
    for label, p in fasttext.items():
        lang = FASTTEXT_ALIASES.get(label, label)
        if lang in languages:
            scores[lang] = scores.get(lang, 0.0) + p
    best = max(scores, key=scores.get) if scores else languages[0]
    if script == "Arab":
        if (urdu := _count(system.text, URDU_LETTERS)) and urdu >= 0.005 * system.counts["Arab"]:
            return "ur", "Urdu letters (ٹ ڈ ڑ ں ے ہ)"
        if best not in ("ar", "fa", "ur") and scores[best] >= FASTTEXT_SURE:  # Pashto, Kurdish, Sindhi, Uyghur
            return best, f"Arabic script; fastText {best} {scores[best]:.2f}"
        if (by_letters := _persian_or_arabic(system.text)) is not None:
            return by_letters
    for source, lang in declared.items():
        if lang in languages:
            return lang, f"{script} letters; {lang} declared ({source})"
    # Han alone: fastText's choice between Chinese and Japanese words (会社 / 公司), however unsure
    needed = 0.0 if script == "Hani" else FASTTEXT_SURE
    if best != languages[0] and scores[best] >= needed and scores[best] > scores.get(languages[0], 0.0):
        return best, f"{script} letters; fastText {best} {scores[best]:.2f}"
    return languages[0], f"{script} letters"


def _count(text: str, letters: frozenset) -> int:
    return sum(text.count(c) for c in letters)


def _persian_or_arabic(letters: str) -> tuple[str, str] | None:
    persian = 3 * _count(letters, PERSIAN_LETTERS) + _count(letters, PERSIAN_FORMS)
    arabic = 3 * _count(letters, ARABIC_LETTERS) + _count(letters, ARABIC_FORMS)
    if persian > arabic:
        return "fa", "Persian letters (پ چ ژ گ ی ک)"
    if arabic > persian:
        return "ar", "Arabic letters (ة ي ك ى)"
    return None
