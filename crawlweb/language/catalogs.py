"""Real sentences from installed translation catalogs (gettext .po and .mo files).

Pure module. Django ships human translations of its UI strings for many languages; every
msgstr is a real sentence in that language and its msgid the English original. Debian
packages install compiled .mo catalogs under /usr/share/locale on many machines (not on
minimal images), which gives a second, independent source.

Parsing follows the PO format of GNU gettext: `msgid`/`msgstr` (or `msgstr[n]` for plurals)
followed by continuation lines of quoted strings; entries flagged `#, fuzzy` are not
reviewed translations and are skipped.
"""
from __future__ import annotations

import ast
import re
import struct
from pathlib import Path

PLACEHOLDER = re.compile(r"%\([^)]*\)[sdifr]|%[sdifr]|\{[^}]*\}|<[^>]+>")
MIN_WORDS = 4


def parse_po(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of a .po file; plural forms give one pair per msgstr[n].

    Fuzzy and untranslated entries are skipped; the header (empty msgid) too."""
    pairs: list[tuple[str, str]] = []
    entry: dict[str, str] = {}
    fuzzy = False
    key = None

    def flush():
        nonlocal entry, fuzzy, key
        msgid = entry.get("msgid", "")
        if msgid and not fuzzy:
            plural = entry.get("msgid_plural", msgid)
            for k, v in entry.items():
                if k.startswith("msgstr") and v:
                    # msgstr / msgstr[0] translate the singular msgid, msgstr[n>0] the plural
                    original = msgid if k in ("msgstr", "msgstr[0]") else plural
                    pairs.append((original, v))
        entry, fuzzy, key = {}, False, None

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            if entry:
                flush()
            continue
        if line.startswith("#,") and "fuzzy" in line:
            if entry:
                flush()
            fuzzy = True
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"') and key:
            entry[key] += _unquote(line, path)
            continue
        head, _, rest = line.partition(" ")
        if head in ("msgid", "msgstr", "msgid_plural", "msgctxt") or head.startswith("msgstr["):
            if head == "msgid" and "msgid" in entry:  # entries not separated by a blank line
                flush()  # a fuzzy flag of the next entry would have flushed this one already
            key = head
            entry[key] = _unquote(rest, path)
        else:
            raise ValueError(f"{path}: unexpected line in PO file: {line[:60]!r}")
    if entry:
        flush()
    return pairs


def _unquote(token: str, path: Path) -> str:
    token = token.strip()
    if not (token.startswith('"') and token.endswith('"')):
        raise ValueError(f"{path}: expected a quoted PO string, got {token[:60]!r}")
    return ast.literal_eval(token)


MO_MAGIC = 0x950412DE


def parse_mo(path: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of a compiled .mo catalog (GNU gettext "The Format of GNU MO
    Files": magic, revision, N, offset of the original-string table, offset of the
    translation table; each table entry is (length, offset)). Plural forms are split at NUL,
    a context prefix (before EOT) is dropped. Raises ValueError for a file that is not MO."""
    data = path.read_bytes()
    if len(data) < 20:
        raise ValueError(f"{path}: too short for a MO file")
    for order in ("<", ">"):
        if struct.unpack(order + "I", data[:4])[0] == MO_MAGIC:
            break
    else:
        raise ValueError(f"{path}: not a MO file (bad magic number)")
    _, count, orig_at, trans_at = struct.unpack(order + "4I", data[4:20])
    raw = []
    for i in range(count):
        olen, ooff = struct.unpack(order + "2I", data[orig_at + 8 * i: orig_at + 8 * i + 8])
        tlen, toff = struct.unpack(order + "2I", data[trans_at + 8 * i: trans_at + 8 * i + 8])
        raw.append((data[ooff:ooff + olen], data[toff:toff + tlen]))
    charset = "utf-8"
    for msgid, msgstr in raw:
        if msgid == b"":
            found = re.search(rb"charset=([-\w]+)", msgstr)
            charset = found.group(1).decode("ascii") if found else charset
    pairs = []
    for msgid, msgstr in raw:
        if not msgid or not msgstr:
            continue
        original = msgid.split(b"\x04")[-1].split(b"\0")[0].decode(charset, "replace")
        for form in msgstr.split(b"\0"):
            if form:
                pairs.append((original, form.decode(charset, "replace")))
    return pairs


def clean_sentence(text: str) -> str | None:
    """Strip placeholders, markup and accelerators; keep only strings of >= 4 words."""
    text = PLACEHOLDER.sub(" ", text).replace("_", "").replace("&", "")
    text = " ".join(text.split())
    if len(re.findall(r"[^\W\d_]+", text)) < MIN_WORDS:
        return None
    return text


def django_po_files(django_dir: Path, locale: str) -> list[Path]:
    files = [django_dir / "conf" / "locale" / locale / "LC_MESSAGES" / "django.po"]
    files += sorted(django_dir.glob(f"contrib/*/locale/{locale}/LC_MESSAGES/django.po"))
    return [f for f in files if f.exists()]


def catalog_sentences(files: list[Path], *, english: bool = False) -> list[str]:
    """Unique cleaned sentences (msgstr, or msgid when english=True) from .po/.mo files."""
    seen: set[str] = set()
    out: list[str] = []
    for f in files:
        try:
            pairs = parse_po(f) if f.suffix == ".po" else parse_mo(f)
        except (ValueError, LookupError):  # a foreign or damaged system catalog is skipped
            if f.suffix == ".po":
                raise
            continue
        for msgid, msgstr in pairs:
            s = clean_sentence(msgid if english else msgstr)
            if s and s not in seen:
                seen.add(s)
                out.append(s)
    return out
