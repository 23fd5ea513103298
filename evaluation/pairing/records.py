"""Plain records shared by the pairing algorithms (no Django).

Orientation: every pairing function takes ``languages=(first, second)``; a
pattern ⟨t, t′⟩ and a CandidatePair(source_url, target_url) put the page of the
FIRST language on the left.  Default ("en", "sr") reads as the method's ⟨en, sr⟩,
⟨english, srpski⟩, ⟨ε, sr⟩ (about.html ↔ about-sr.html).
"""
from __future__ import annotations

from dataclasses import dataclass, field

EPSILON = ""  # the empty unit ε of an ε-pattern ⟨ε, sr⟩
Pattern = tuple[str, str]  # ⟨t, t′⟩, case-folded units, ε == ""
DEFAULT_LANGUAGES = ("en", "sr")


def base_language(tag: str | None) -> str:
    """'sr-Latn' → 'sr', 'EN_us' → 'en', None → ''."""
    if not tag:
        return ""
    return tag.replace("_", "-").split("-")[0].strip().casefold()


def script_of(tag: str | None, script: str | None = None) -> str:
    """Script subtag of a language tag ('sr-Cyrl' → 'cyrl'), or the explicit script."""
    if script:
        return script.strip().casefold()[:4]
    parts = (tag or "").replace("_", "-").split("-")
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            return part.casefold()
    return ""


def check_languages(languages) -> tuple[str, str]:
    if len(languages) != 2:
        raise ValueError(f"languages must be a pair like ('en', 'sr'), got {languages!r}")
    first, second = (base_language(lang) for lang in languages)
    if not first or not second or first == second:
        raise ValueError(f"languages must be two different language codes, got {languages!r}")
    return first, second


def pattern_label(pattern: Pattern) -> str:
    t, t2 = pattern
    return f"⟨{t or 'ε'}, {t2 or 'ε'}⟩"


@dataclass(frozen=True)
class PageRecord:
    """One fetched page as the pairing code sees it (the lead fills it from Page)."""

    url: str
    lang: str  # "sr", "en", "sr-Latn", ... from page language identification
    script: str = ""  # "Cyrl" / "Latn" or empty; falls back to the script subtag of lang
    text_length: int = 0
    outlinks: tuple[str, ...] = ()
    html: str = ""
    text: str = ""  # visible text, when the HTML is not at hand (a crawl keeps text, not HTML)
    structure: str = ""  # tag signature (crawlweb.crawler.structure), when the HTML is not at hand

    @property
    def base_lang(self) -> str:
        return base_language(self.lang)

    @property
    def script_code(self) -> str:
        return script_of(self.lang, self.script)


@dataclass
class CandidatePair:
    """Two pages proposed as translations; source_url is in languages[0]."""

    source_url: str
    target_url: str
    method: str  # "hreflang", "switch", "local", "rescue_global", "rescue_domain", "deep", "content"
    pattern: Pattern | None = None
    score: float = 0.0
    evidence: str = ""
    methods: set[str] = field(default_factory=set)  # all methods that proposed it (after merging)

    def __post_init__(self):
        self.methods = set(self.methods) | {self.method}

    @property
    def key(self) -> tuple[str, str]:
        return (self.source_url, self.target_url)
