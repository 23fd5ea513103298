"""Test support: small dictd dictionaries written as FreeDict ships them, and Debian's real pair."""
import gzip
from pathlib import Path

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Debian's dict-freedict-hrv-eng and dict-freedict-eng-hrv (scripts/install.sh installs them)
DEBIAN_LEXICON = (Path("/usr/share/dictd/freedict-hrv-eng"), Path("/usr/share/dictd/freedict-eng-hrv"))


def encode(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 64)
        digits = BASE64[digit] + digits
        if number == 0:
            return digits


def write_dictd(base: Path, entries: dict[str, str]) -> Path:
    """An info entry, then per headword "headword /pron/" and a line of comma-separated translations."""
    data, index = b"", []
    for headword, translations in {"00databaseinfo": "made for a test", **entries}.items():
        entry = f"{headword} /x/\n{translations}\n".encode()
        index.append(f"{headword}\t{encode(len(data))}\t{encode(len(entry))}")
        data += entry
    Path(f"{base}.index").write_text("\n".join(index) + "\n", encoding="utf-8")
    Path(f"{base}.dict.dz").write_bytes(gzip.compress(data))
    return base


# Ten Serbian words and their English translations: the small dictionary several tests read pages with.
VILLAGE_WORDS = {"kuća": "house", "planina": "mountain", "jezero": "lake", "šuma": "forest", "livada": "meadow",
                 "dvorac": "castle", "crkva": "church", "most": "bridge", "ulica": "street", "pijaca": "market"}


def two_way_lexicon(directory: Path, words: dict[str, str]):
    """A Serbian–English Lexicon of ``words`` (one translation each), read back from dictd files."""
    from evaluation.bodies.lexicon import Lexicon

    return Lexicon.from_dictd(write_dictd(directory / "sr-en", words),
                              write_dictd(directory / "en-sr", {en: sr for sr, en in words.items()}), ("sr", "en"))
