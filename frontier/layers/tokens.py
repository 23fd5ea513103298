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

Host names written in the anchor text are left out (our choice): "Primer (www.primer.rs)" gives
"primer" (the word, not the host), "primer.rs" nothing, "http://www.primer.de/en/" only its
path's "en". The TST takes the Target's URL without its domain name; a domain name in the anchor
names a site, not the page's language, and its country-code TLD collides with the needles
(rs, de, hu, it, si, uk, es, fr, ru): every link of a directory or partner list would otherwise
fire the Serbian needle "rs", whatever the language of the page it leads to. A host name is a
dotted name after a scheme or starting with "www.", or one ending in a public suffix
(tldextract's bundled list), so file names such as "o-nama.html" or "cenovnik.pdf" stay.
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

from crawlweb.crawler.urls import ends_in_public_suffix

_LETTER_RUN = re.compile(r"[^\W\d_]+")
# A scheme and/or a dotted name whose last label is letters: "http://www.primer.rs", "primer.rs",
# "o-nama.html" (kept later: not a public suffix). Unicode labels too ("primer.срб").
_DOTTED_NAME = re.compile(r"(?P<scheme>[^\W\d_][\w+.\-]*://)?(?P<name>(?:[^\W_](?:[\w\-]*[^\W_])?\.)+[^\W\d_]{2,63})\b")
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


def _host_or_kept(match: re.Match) -> str:
    name = match.group("name")
    if match.group("scheme") or name.lower().startswith("www.") or ends_in_public_suffix(name):
        return " "
    return match.group(0)


def without_host_names(text: str) -> str:
    """``text`` with the host names written in it blanked out (see the module docstring)."""
    if "." not in text:  # the common case, and the hot path: nothing dotted, nothing to do
        return text
    return _DOTTED_NAME.sub(_host_or_kept, text)


def tst(url: str, anchor_text: str = "") -> list[str]:
    """The Target Semantic Terms: URL tokens (relative part) followed by anchor-text tokens."""
    return text_tokens(unquote(relative_part(url))) + text_tokens(without_host_names(anchor_text or ""))
