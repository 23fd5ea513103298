"""Text markers that separate the BCMS standards (sr, hr, bs, cnr), Slovene and Macedonian.

Pure module. A general-purpose identifier (fastText) cannot tell Serbian Latin from Croatian or
Bosnian: the four standards share almost all function words. What does separate them:

* the reflex of old jat: ekavian (mleko, vreme, deca) is standard only in Serbian; ijekavian
  (mlijeko, vrijeme, djeca) is Croatian, Bosnian, Montenegrin and the Serbian of Bosnia and
  Montenegro;
* lexical pairs (tko/ko, tisuća/hiljada, tjedan/sedmica, povijest/istorija/historija ...)
  and Croatian month names (siječanj ... prosinac);
* orthography and syntax: Serbian writes the fused future "biće", Croatian and Bosnian
  "bit će"; Serbian prefers "mogu da radim" to the Croatian infinitive "mogu raditi";
  Montenegrin has the letters ś and ź.

Word lists live in data/bcms_markers.tsv (one marker a line, with the varieties it points to).
Each marker adds weight to the varieties of its profile; a repeated word counts sub-linearly so
one frequent word cannot outvote several different ones.
"""
from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

BCMS = ("sr", "hr", "bs", "cnr")
MAX_TOKENS = 3000  # evidence saturates long before; keeps a long page within a few ms
DATA_FILE = Path(__file__).with_name("data") / "bcms_markers.tsv"

# Default profile and weight of each marker group (a TSV line may override both).
GROUP_DEFAULTS: dict[str, tuple[dict[str, float], float]] = {
    "ekav": ({"sr": 1.0}, 1.5),
    # Ijekavian Serbian exists (Republika Srpska) but is the minority norm: low share for sr.
    "ijek": ({"hr": 1.0, "bs": 1.0, "cnr": 1.0, "sr": 0.35}, 1.5),
    "lex": ({}, 1.0),
    "month": ({}, 1.0),
    "futur": ({}, 1.0),
    "place": ({}, 0.25),  # a place name says what the page is about, not which standard it uses
}

# Two different words, so that one name ("Zvezdara", "Crvena zvezda") does not make a text ekavian.
MIN_EKAVIAN_WORDS = 2
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# Consonant + "je" clusters that arise only from ijekavian jat (mjesto, vjera, rječnik,
# tjedan, cjenik, pjesma); ekavian Serbian has "me, ve, re, te, ce, pe" there.
_IJEK_CLUSTER = re.compile(r"(?:mje|vje|rje|tje|cje|pje)")
# Long ijekavian jat "ije" before a consonant (lijep, cijena, svijet, riješiti); ekavian has
# "e" there. Loanwords and shared words with the same letters are excluded: klijent, pacijent,
# orijentacija (-ijent, and -ijenat: the genitive plural klijenata, pacijenata), premijer,
# hijerarhija (-ijer), nijedan, prijem, Kijev, dijeta, bijenale.
_IJEK_LONG = re.compile(r"ije[bcčćdđfghjklmnprsštvzž]")
# Possessives and pronouns of an -ij stem after č or ž decline with -eg, -em (čiji → čijeg, nečijeg,
# svačijem; Božiji → Božijeg, ptičijeg): the "ije" there is an ending, no jat, in every standard.
_IJEK_LONG_EXCEPTIONS = re.compile(r"ijen(?:t|at)|ijer|^nijed|^prijem|^kijev|^dijet[aeiou]|^bijenal|^dijecez|[čž]ije[gm]")
# "bit ćemo", "radit će": an infinitive cut to -t before the future auxiliary.
_CROATIAN_FUTURE = re.compile(r"(?<=[^\W\d_]{2})t\s+ć(?:u|eš|e|emo|ete)\b")
_MODALS = frozenset(
    "mogu može možemo možete mogli moći treba trebalo želi želim želimo želite moram mora "
    "moramo morate hoću hoćemo hoćete pokušava počinje nastavlja uspeva".split()
)
# Verbs borrowed from Latin/French: Serbian -ovati/-isati (organizovati, kombinuje, definisati,
# informiše), Croatian -irati (organizirati, kombinira). Serbian keeps -irati for some verbs
# (komunicirati), so a bare -ira- form is weaker evidence than an -ova-/-isa- form.
_OVATI = re.compile(
    r"(?:iz|in|ik|ent|ord)(?:ova(?:ti|n|na|no|ni|nih|nog|la|li|lo|nje|nja)|uj(?:e|u|em|emo|ete|ući))$"
    r"|(?:ul|ol|in|rm|on)(?:isa(?:ti|n|na|no|ni|nih|nog|la|li|lo|nje|nja)|iš(?:e|u|em|emo|ete|ući))$"
)
# Serbian keeps plain -irati (kreirati, testirati, diplomirati); -izirati and -ificirati are
# where the standards split (personalizovati/personalizirati, kvalifikovati/kvalificirati).
_IRATI = re.compile(r"(?:iz|fic)ira(?:ti|n|na|no|ni|nih|nog|nu|nje|nja|mo|te|ju|la|li|lo|jući)$")
# Adjectives of -cija nouns: Serbian informacioni, televizijski/televizioni; Croatian informacijski.
_CION_ADJ = re.compile(r"[cz]ion(?:i|a|o|e|og|ih|im|om|u|oj|ima|ama|oga)$")
_CIJSK_ADJ = re.compile(r"[cz]ijsk(?:i|a|o|e|og|ih|im|om|u|oj|ima|ama|oga)$")
_CNR_LETTERS = re.compile(r"[śźŚŹ]")

# Function words: BCMS versus Slovene (Latin), Serbian versus Macedonian (Cyrillic).
BCMS_FUNCTION_WORDS = frozenset(
    "i u su kao koji koja koje kojih ili nije sa sve jer što šta bio ovaj ova ovo ovog ove "
    "taj njihov može".split()
)
# Slovene-only: "naše" and "svoje" are ordinary BCMS words too ("Naše mašine" in a Serbian menu made
# a Serbian page Slovene on the real development web), so they are not here.
SLOVENE_FUNCTION_WORDS = frozenset(
    "in ki so tudi kot pri bo ter zelo vendar kjer če oziroma vse lahko kateri "
    "katere ker".split()
)
# Serbian has an infinitive (бити) and "буде", Macedonian neither (биде); Serbian "у, је, су,
# сви" are Macedonian "во, е, се, сите". (Jat gives "e" in Macedonian too, so ekavian words
# do not separate the two.)
SERBIAN_CYRILLIC_WORDS = frozenset(
    "у је су из са који које ће ћете није нису ово овај код већ бити буде више сви све био "
    "била било када молимо".split()
)
MACEDONIAN_WORDS = frozenset(
    "во со е кој кои кое ќе ги го биде повеќе сите тие тоа оваа овие кога нив веќе меѓу "
    "бидејќи".split()
)
# Macedonian postfixed definite article -от (корисникот, документот); Serbian nouns rarely
# end so (живот is the common exception).
_MK_ARTICLE = re.compile(r"\w{3,}от$")
# Verb endings: Serbian has infinitives (-ати, -ети, -ити, -ути, -ћи) and 3rd plural -ају/-ију,
# Macedonian has no infinitive and a 3rd plural -аат/-еат (имаат, можат).
_SR_VERB = re.compile(r"\w{2,}(?:ати|ети|ути|ћи|ају|ију|еју)$")
_MK_VERB = re.compile(r"\w{2,}(?:аат|еат)$")


@dataclass(frozen=True)
class Marker:
    form: str
    group: str
    profile: dict[str, float]
    weight: float
    prefix: bool


@dataclass
class MarkerEvidence:
    """Scores per BCMS variety and the words that produced them."""

    scores: dict[str, float] = field(default_factory=lambda: {v: 0.0 for v in BCMS})
    by_group: dict[str, dict[str, float]] = field(default_factory=dict)
    matched: list[tuple[str, str, int]] = field(default_factory=list)  # (form, group, count)

    def add(self, form: str, group: str, profile: dict[str, float], weight: float, count: int):
        gain = weight * (1.0 + math.log(count))  # sub-linear in repetitions
        bucket = self.by_group.setdefault(group, {})
        for variety, share in profile.items():
            self.scores[variety] += gain * share
            bucket[variety] = bucket.get(variety, 0.0) + gain * share
        self.matched.append((form, group, count))

    @property
    def total(self) -> float:
        return max(self.scores.values())

    def as_evidence(self, limit: int = 25) -> dict:
        return {
            "scores": {k: round(v, 2) for k, v in self.scores.items()},
            "by_group": {g: {k: round(v, 2) for k, v in d.items()} for g, d in self.by_group.items()},
            "matched": [f"{form}:{group}x{n}" for form, group, n in self.matched[:limit]],
        }


def fold_diacritics(word: str) -> str:
    """č ć -> c, š -> s, ž -> z, đ -> dj: how BCMS is typed without a local keyboard."""
    word = word.replace("đ", "dj")
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


class MarkerTable:
    """The TSV marker list, indexed for exact and prefix look-up."""

    def __init__(self, markers: list[Marker]):
        self.exact = {m.form: m for m in markers if not m.prefix}
        self.prefixes = sorted((m for m in markers if m.prefix), key=lambda m: -len(m.form))
        self._by_first: dict[str, list[Marker]] = {}
        for m in self.prefixes:
            self._by_first.setdefault(m.form[:2], []).append(m)
        # Folded copies for text typed without diacritics; only forms of 4+ letters whose folded
        # spelling is not itself another word of the list (sto = "što"/"hundred" is dropped).
        self.folded_exact: dict[str, Marker] = {}
        for m in markers:
            if m.prefix or len(m.form) < 4:
                continue
            f = fold_diacritics(m.form)
            if f != m.form and f not in self.exact:
                self.folded_exact[f] = m
        self.folded_prefixes = [
            Marker(fold_diacritics(m.form), m.group, m.profile, m.weight, True)
            for m in self.prefixes
            if len(m.form) >= 5 and fold_diacritics(m.form) != m.form
        ]

    def lookup(self, word: str, folded: bool = False) -> Marker | None:
        m = self.exact.get(word)
        if m is not None:
            return m
        for p in self._by_first.get(word[:2], ()):
            if word.startswith(p.form):
                return p
        if folded:
            m = self.folded_exact.get(word)
            if m is not None:
                return m
            for p in self.folded_prefixes:
                if word.startswith(p.form):
                    return p
        return None


def _parse_profile(text: str) -> dict[str, float]:
    profile = {}
    for part in text.split(","):
        name, _, share = part.strip().partition(":")
        if name not in BCMS:
            raise ValueError(f"unknown variety {name!r} in marker profile {text!r} ({DATA_FILE})")
        profile[name] = float(share) if share else 1.0
    return profile


def load_markers(path: Path = DATA_FILE) -> MarkerTable:
    markers = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        form, group = cols[0].strip(), cols[1].strip()
        if group not in GROUP_DEFAULTS:
            raise ValueError(f"{path}:{number}: unknown marker group {group!r}")
        default_profile, default_weight = GROUP_DEFAULTS[group]
        profile = _parse_profile(cols[2]) if len(cols) > 2 and cols[2].strip() else dict(default_profile)
        if not profile:
            raise ValueError(f"{path}:{number}: group {group!r} needs an explicit profile")
        weight = float(cols[3]) if len(cols) > 3 and cols[3].strip() else default_weight
        prefix = form.endswith("*")
        form = unicodedata.normalize("NFC", form.rstrip("*").lower())
        markers.append(Marker(form, group, profile, weight, prefix))
    return MarkerTable(markers)


_table: MarkerTable | None = None
_table_lock = threading.Lock()


def marker_table() -> MarkerTable:
    global _table
    if _table is None:
        with _table_lock:
            if _table is None:
                _table = load_markers()
    return _table


def words(text: str) -> list[str]:
    """Lower-cased NFC word tokens (letters only)."""
    return _WORD.findall(unicodedata.normalize("NFC", text).lower())


def bcms_markers(tokens: list[str], text_lower: str, *, folded: bool = False) -> MarkerEvidence:
    """Score sr/hr/bs/cnr from Latin-script tokens (Cyrillic text is transliterated first).

    `folded` also matches marker words typed without diacritics (rjesenje, hiljada)."""
    evidence = MarkerEvidence()
    counts = Counter(tokens[:MAX_TOKENS])
    for word, n in counts.items():
        found = classify_word(word, folded)
        if found is not None:
            form, group, profile, weight = found
            evidence.add(form, group, profile, weight, n)
    # Croatian writes the preposition "s" where Serbian prefers "sa"; only the balance counts.
    s_minus_sa = counts.get("s", 0) - counts.get("sa", 0)
    if s_minus_sa > 0:
        evidence.add("s>sa", "preposition", {"hr": 1.0, "bs": 0.6}, 0.5, s_minus_sa)
    elif s_minus_sa < 0:
        evidence.add("sa>s", "preposition", {"sr": 1.0, "bs": 0.6, "cnr": 1.0}, 0.5, -s_minus_sa)
    _add_pattern(evidence, _CROATIAN_FUTURE, text_lower, "futur-split", {"hr": 1.0, "bs": 1.0}, 1.0)
    # Serbian "mogu da dođem" / "da li" where Croatian has the infinitive / "je li".
    modal_da = da_li = 0
    for first, second in zip(tokens, tokens[1:MAX_TOKENS]):
        if second == "da" and first in _MODALS:
            modal_da += 1
        elif first == "da" and second == "li":
            da_li += 1
    if modal_da:
        evidence.add("modal+da", "modal-da", {"sr": 1.0, "bs": 1.0, "cnr": 1.0}, 0.7, modal_da)
    if da_li:
        evidence.add("da li", "da-li", {"sr": 1.0, "bs": 1.0, "cnr": 1.0}, 0.7, da_li)
    _add_pattern(evidence, _CNR_LETTERS, text_lower, "letter-ś-ź", {"cnr": 1.0}, 2.0)
    return evidence


@lru_cache(maxsize=50_000)  # words repeat (Zipf): 50,000 hold the common ones; 200,000 held ~40 MB
def classify_word(word: str, folded: bool = False) -> tuple[str, str, dict, float] | None:
    """(form, group, profile, weight) of the marker a word is, or None; memoised because
    words repeat across pages. Word lists first, then the productive suffix rules."""
    m = marker_table().lookup(word, folded)
    if m is not None:
        return m.form + ("*" if m.prefix else ""), m.group, m.profile, m.weight
    if _IJEK_CLUSTER.search(word) or (
        _IJEK_LONG.search(word) and not _IJEK_LONG_EXCEPTIONS.search(word)
    ):
        profile, weight = GROUP_DEFAULTS["ijek"]
        return word, "ijek", profile, weight * 0.8
    if len(word) < 7:
        return None
    if _OVATI.search(word):
        return word, "verb-ovati", {"sr": 1.0, "bs": 0.7, "cnr": 1.0}, 1.0
    if _IRATI.search(word):
        return word, "verb-irati", {"hr": 1.0, "bs": 0.6}, 0.8
    if _CION_ADJ.search(word):
        return word, "adj-cioni", {"sr": 1.0, "cnr": 1.0, "bs": 0.5}, 1.0
    if _CIJSK_ADJ.search(word):
        return word, "adj-cijski", {"hr": 1.0, "bs": 0.7}, 1.0
    return None


def _add_pattern(evidence, pattern, text, group, profile, weight):
    hits = pattern.findall(text)
    if hits:
        evidence.add(hits[0].strip(), group, profile, weight, len(hits))


def ekavian_text(evidence: MarkerEvidence) -> bool:
    """Is the text ekavian: MIN_EKAVIAN_WORDS different ekavian words and not one ijekavian word?"""
    ekavian = {form for form, group, _ in evidence.matched if group == "ekav"}
    return len(ekavian) >= MIN_EKAVIAN_WORDS and "ijek" not in evidence.by_group


def has_ijekavian(text: str, minimum: int = 2) -> bool:
    """Does the text hold at least ``minimum`` ijekavian jat clusters (mje, vje, rje, tje, cje, pje)?"""
    return len(_IJEK_CLUSTER.findall(text.lower())) >= minimum


def function_word_counts(tokens: list[str]) -> dict[str, int]:
    """How many tokens are BCMS-only vs Slovene-only function words."""
    bcms = sum(1 for t in tokens if t in BCMS_FUNCTION_WORDS)
    slovene = sum(1 for t in tokens if t in SLOVENE_FUNCTION_WORDS)
    return {"bcms": bcms, "sl": slovene}


def cyrillic_word_counts(tokens: list[str]) -> dict[str, int]:
    """Serbian-only vs Macedonian-only Cyrillic function words."""
    return {
        "sr": sum(1 for t in tokens if t in SERBIAN_CYRILLIC_WORDS),
        "mk": sum(1 for t in tokens if t in MACEDONIAN_WORDS),
        "mk_article": sum(1 for t in tokens if t != "живот" and _MK_ARTICLE.search(t)),
        "sr_verb": sum(1 for t in tokens if _SR_VERB.search(t)),
        "mk_verb": sum(1 for t in tokens if _MK_VERB.search(t)),
    }
