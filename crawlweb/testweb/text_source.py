"""Real parallel sentences for the test web, read from Django's translation catalogs.

One .po entry gives an English msgid and its translation, so entries that exist in the
Serbian Cyrillic (sr), Serbian Latin (sr_Latn), Croatian (hr) and German (de) catalogs of
the same Django app form a small multilingual parallel corpus. Pages of a generated pair
are built from the same entries, so they really are translations of each other.

The .po files are parsed here (no gettext dependency): msgid/msgstr with multi-line
continuation strings, msgid_plural/msgstr[0], fuzzy and empty entries skipped,
python-format placeholders stripped.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from crawlweb.language.transliterate import cyrillic_to_latin

# Catalog languages we read; "en" is the msgid side.
CATALOG_LANGUAGES = ("sr", "sr_Latn", "hr", "de")

# %(name)s, %(count)d, %s, %d, {name} — placeholders carry no language.
_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdifr]|%[sdifr]|\{[^{}]*\}")
_TAGS = re.compile(r"<[^>]+>")
_SPACES = re.compile(r"\s+")
_EMPTY_BRACKETS = re.compile(r"\(\s*\)|“\s*”|„\s*“|\"\s*\"|`[^`]*`|«\s*»")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,;:!?)])")
_DANGLING_PUNCT = re.compile(r"[:;,]+([.!?])")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


class TextSourceError(RuntimeError):
    """The catalogs needed for the test web's text cannot be found or read."""


@dataclass(frozen=True)
class ParallelEntry:
    """One sentence (or phrase) in every language the test web writes."""

    en: str
    sr_cyrl: str
    sr_latn: str
    hr: str  # "" when the Croatian catalog lacks this entry
    de: str  # "" when the German catalog lacks this entry

    def text(self, language: str) -> str:
        """Text in one of: en, sr-cyrl, sr-latn, hr, de."""
        key = language.replace("-", "_")
        if key not in ("en", "sr_cyrl", "sr_latn", "hr", "de"):
            raise ValueError(f"unknown test-web language {language!r}")
        return getattr(self, key)


def _unquote(literal: str) -> str:
    # A .po string literal is a C-style quoted string.
    body = literal.strip()
    if len(body) < 2 or body[0] != '"' or body[-1] != '"':
        raise TextSourceError(f"malformed .po string literal: {literal[:60]!r}")
    body = body[1:-1]
    return (body.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t")
            .replace("\\\\", "\\"))


def parse_po(text: str) -> dict[str, str]:
    """Map msgid → msgstr for the usable entries of one .po file's text."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    flags = ""
    current: str | None = None

    def flush() -> None:
        msgid = fields.get("msgid", "")
        msgstr = fields.get("msgstr", fields.get("msgstr[0]", ""))
        if msgid and msgstr and "fuzzy" not in flags and "msgctxt" not in fields:
            entries.setdefault(msgid, msgstr)

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if current is not None:
                flush()
                fields, flags, current = {}, "", None
            if line.startswith("#,"):
                flags += line
            continue
        if line.startswith('"'):
            if current is not None:
                fields[current] += _unquote(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid", "msgctxt") and "msgid" in fields:
            # A new entry starts without a comment line in between.
            flush()
            fields, flags = {}, ""
        fields[keyword] = _unquote(rest)
        current = keyword
    if fields:
        flush()
    return entries


def clean_sentence(text: str) -> str:
    """Drop placeholders and markup so only words of the language stay."""
    text = _TAGS.sub(" ", _PLACEHOLDER.sub("", text))
    text = _EMPTY_BRACKETS.sub("", text)
    text = _SPACES.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _DANGLING_PUNCT.sub(r"\1", text)   # "are: %(list)s." → "are."
    return text.strip(" :;,-–")


def _django_root() -> Path:
    spec = importlib.util.find_spec("django")
    if spec is None or not spec.submodule_search_locations:
        raise TextSourceError("Django is not installed: the test web reads its translation catalogs")
    return Path(list(spec.submodule_search_locations)[0])


def _catalog_dirs(root: Path) -> list[Path]:
    # django/conf/locale and every contrib app's locale directory, in a fixed order.
    dirs = [root / "conf" / "locale"]
    dirs += sorted(p / "locale" for p in (root / "contrib").iterdir() if (p / "locale").is_dir())
    return dirs


def _usable(entry: ParallelEntry) -> bool:
    # Format-only or one-word UI strings make poor paragraphs: keep phrases with words.
    words = entry.en.split()
    if len(words) < 3 or len(_LETTER.findall(entry.en)) < 12:
        return False
    if any(ch in entry.en for ch in "`<>/_=") or not entry.sr_cyrl or not entry.sr_latn:
        return False
    return entry.sr_cyrl != entry.en and entry.sr_latn != entry.en


@lru_cache(maxsize=8)
def entries_for(languages: tuple[str, ...]) -> tuple[ParallelEntry, ...]:
    """The entries that have text in every one of `languages` (e.g. ("en", "de"))."""
    chosen = tuple(e for e in parallel_entries() if all(e.text(lang) for lang in languages))
    if len(chosen) < 30:
        raise TextSourceError(f"only {len(chosen)} catalog entries exist in all of {languages}")
    return chosen


@lru_cache(maxsize=1)
def parallel_entries() -> tuple[ParallelEntry, ...]:
    """Usable entries with Serbian in both scripts (hr/de when present), sorted by English text."""
    found: dict[str, ParallelEntry] = {}
    for locale_dir in _catalog_dirs(_django_root()):
        catalogs: dict[str, dict[str, str]] = {}
        for lang in CATALOG_LANGUAGES:
            path = locale_dir / lang / "LC_MESSAGES" / "django.po"
            if not path.is_file():
                break
            catalogs[lang] = parse_po(path.read_text(encoding="utf-8"))
        if len(catalogs) != len(CATALOG_LANGUAGES):
            continue
        for msgid, sr in catalogs["sr"].items():
            latin = catalogs["sr_Latn"].get(msgid) or cyrillic_to_latin(sr)
            entry = ParallelEntry(
                en=clean_sentence(msgid), sr_cyrl=clean_sentence(sr), sr_latn=clean_sentence(latin),
                hr=clean_sentence(catalogs["hr"].get(msgid, "")),
                de=clean_sentence(catalogs["de"].get(msgid, "")),
            )
            if _usable(entry):
                found.setdefault(entry.en, entry)
    if len(found) < 50:
        raise TextSourceError(
            f"only {len(found)} usable parallel entries in Django's catalogs under {_django_root()}; "
            "the test web needs at least 50")
    # Catalogs sometimes give two English messages one translation; keep the first of them so
    # a Serbian sentence always has exactly one English counterpart.
    unique: list[ParallelEntry] = []
    seen: set[str] = set()
    for key in sorted(found):
        entry = found[key]
        forms = {text.lower().rstrip(".!?") for text in (entry.en, entry.sr_cyrl, entry.sr_latn)}
        if not forms & seen:
            seen.update(forms)
            unique.append(entry)
    return tuple(unique)
