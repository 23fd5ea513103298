"""A page's structure as STRAND reads it (Resnik & Smith), and a compact signature to store it.

A document is linearized to tokens ("[START:tag]", 0), ("[END:tag]", 0) and ("[Chunk]", n): a
run of visible text and its length in characters (whitespace collapsed).  Script, style,
noscript and template contents are no text; comments only split text runs.  The tree is the one
lxml (libxml2) builds, so implied elements (html, body) are tokens like written ones, and a
void element (br, img) has an end token.

The signature is the same token list as one line of text, so a crawl can keep it on its Page
(the HTML itself is only in the WARC files) and the pairing filter can align two pages later:
``p`` start tag, ``/p`` end tag, ``#42`` a text run of 42 characters, separated by spaces,
at most MAX_TOKENS tokens (a 30 kB page gives about 550 tokens, 3 kB of text).
"""
from __future__ import annotations

import re

import lxml.etree

SKIP_TEXT_IN = frozenset({"script", "style", "noscript", "template"})
MAX_TOKENS = 2000  # STRAND's alignment is quadratic: a page's first 2,000 tokens say enough
START, END, CHUNK = "[START:{}]", "[END:{}]", "[Chunk]"
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_TAG_CHARS = re.compile(r"[^a-z0-9:_-]")

Token = tuple[str, int]


class _Collector:
    """lxml parser target: tokens in document order, text runs merged until the next tag."""

    def __init__(self):
        self.tokens: list[Token] = []
        self.texts: list[str] = []
        self._buffer: list[str] = []
        self._skip = 0

    def _flush(self) -> None:
        if self._buffer:
            text = " ".join("".join(self._buffer).split())
            self._buffer.clear()
            if text and not self._skip:
                self.tokens.append((CHUNK, len(text)))
                self.texts.append(text)

    def start(self, tag, attrib):
        self._flush()
        if not isinstance(tag, str):
            return
        tag = tag.lower()
        if tag in SKIP_TEXT_IN:
            self._skip += 1
        self.tokens.append((START.format(tag), 0))

    def end(self, tag):
        self._flush()
        if not isinstance(tag, str):
            return
        tag = tag.lower()
        if tag in SKIP_TEXT_IN and self._skip:
            self._skip -= 1
        self.tokens.append((END.format(tag), 0))

    def data(self, data):
        self._buffer.append(data)

    def comment(self, text):
        self._flush()

    def pi(self, target, data=None):
        self._flush()

    def close(self):
        self._flush()
        return self.tokens


FEED_CHARS = 1 << 16


def _collect(html: str, limit: int | None = None) -> _Collector:
    """Parse ``html`` in pieces; with ``limit``, stop once that many tokens are read, so a huge
    page (a 10 MB one the fetcher cut) costs no more than its beginning."""
    if not isinstance(html, str):
        raise TypeError(f"html must be str, got {type(html).__name__}")
    target = _Collector()
    html = _XML_DECL.sub("", html, count=1)  # lxml refuses str input that declares an encoding
    if not html.strip():
        return target
    parser = lxml.etree.HTMLParser(target=target, recover=True, no_network=True)
    try:
        for start in range(0, len(html), FEED_CHARS):
            parser.feed(html[start:start + FEED_CHARS])
            if limit is not None and len(target.tokens) >= limit:
                break
        parser.close()
    except (lxml.etree.LxmlError, ValueError):
        target.close()  # broken beyond recovery: keep what was read
    return target


def linearize(html: str, limit: int | None = None) -> list[Token]:
    """Tokens of a document: ("[START:p]", 0), ("[Chunk]", 42), ("[END:p]", 0), …; with
    ``limit``, its first ``limit`` tokens only (and only as much of the page is parsed)."""
    tokens = _collect(html, limit).tokens
    return tokens[:limit] if limit is not None else tokens


def visible_text(html: str) -> str:
    """The text runs of a document joined by spaces (script, style, noscript, template left out)."""
    return " ".join(_collect(html).texts)


_names: dict[str, str] = {}


def _tag(token: str) -> str:
    """"[START:o:p]" → "o:p": a tag name as one signature word (a page's odd names sanitized)."""
    name = _names.get(token)
    if name is None:
        name = _TAG_CHARS.sub("_", token[token.index(":") + 1:-1]) or "_"
        if len(_names) < 10_000:
            _names[token] = name
    return name


def tag_signature(html: str, *, max_tokens: int = MAX_TOKENS) -> str:
    """The page's token sequence as one compact line: "html head title #12 /title /head body …"."""
    words = []
    for key, length in linearize(html, max_tokens):
        if key == CHUNK:
            words.append(f"#{length}")
        elif key.startswith("[END:"):
            words.append(f"/{_tag(key)}")
        else:
            words.append(_tag(key))
    return " ".join(words)


def signature_tokens(signature: str) -> list[Token]:
    """The tokens a signature stands for (the inverse of tag_signature, tag names sanitized)."""
    tokens: list[Token] = []
    for word in signature.split():
        if word.startswith("#"):
            try:
                tokens.append((CHUNK, int(word[1:])))
            except ValueError:
                raise ValueError(f"bad text run {word!r} in a tag signature") from None
        elif word.startswith("/"):
            tokens.append((END.format(word[1:]), 0))
        else:
            tokens.append((START.format(word), 0))
    return tokens
