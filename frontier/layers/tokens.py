"""Target Semantic Terms (TST) of the Language module M01.

The method's transformation and filtration steps, in order:
  * only the URL part relative to the domain name is considered (path, query and fragment, as linked);
  * tokens are regex-matched alphanumeric chunks (Unicode letters: č ć đ š ž and Cyrillic);
  * purely numerical tokens are excluded;
  * numeric characters inside alphanumeric tokens are trimmed -- they SPLIT the token
    ("elp64fk128" -> "elp", "fk");
  * everything is lower-cased.
Matching runs of letters only (``[^\\W\\d_]+``) does the last three steps at once: digits and
underscores end a run, so numeric tokens vanish and digits split mixed ones.

The method's Table 1 prints "ftx, rxb, c" for "...-ftxb35c-rxb35c-...": that contradicts its own
rules (digits split "ftxb35c" into "ftxb" and "c", twice). We follow the rules and give
"ftxb, c, rxb, c".

Percent-escapes are decoded first (our choice): a linked ``/%D0%B2%D0%B5%D1%81%D1%82%D0%B8``
is the word "вести", while its raw escape text would only give junk tokens such as "d", "b".
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

_LETTER_RUN = re.compile(r"[^\W\d_]+")
# scheme (optional) and authority; a regex instead of urlsplit because it is the hot path.
_SCHEME_AND_HOST = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:)?//[^/?#]*")


def relative_part(url: str) -> str:
    """Everything after the host: path, ``?query`` and ``#fragment`` as linked.

    A string without scheme and host (``"sr/cinkovanje/"``) is already relative.
    """
    match = _SCHEME_AND_HOST.match(url)
    return url[match.end():] if match else url


def text_tokens(text: str) -> list[str]:
    """Lower-cased letter runs of ``text`` (NFC first, so "č" is one letter, not c + caron)."""
    if not text:
        return []
    return _LETTER_RUN.findall(unicodedata.normalize("NFC", text).lower())


def tst(url: str, anchor_text: str = "") -> list[str]:
    """The Target Semantic Terms: URL tokens (relative part) followed by anchor-text tokens."""
    return text_tokens(unquote(relative_part(url))) + text_tokens(anchor_text)
