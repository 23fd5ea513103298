"""Features of one link for the Link Predictor (Barbosa et al. 2011, Sec. 2.1, "Link-Based Prediction").

The paper's five contexts are kept apart by a prefix, so "en" in the URL and "en" in the anchor are
two features: ``url:``, ``anchor:``, ``around:``, ``alt:`` (image alt) and ``src:`` (image src, where
flag file names such as ``gb.png`` live). A few relative features (``rel:``) compare the link with the
page that holds it, e.g. "same URL except a language unit"; the five contexts stay the core.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urldefrag, urljoin

from frontier.classifiers.tokens import (
    language_units,
    path_words,
    url_parts,
    url_words,
    without_language_units,
    words,
)

CONTEXTS = ("url", "anchor", "around", "alt", "src")
# "/en/index.html" and "/en/" are the same page; extensions do not tell pages apart either.
_PAGE_NOISE = frozenset({"index", "default", "html", "htm", "php", "asp", "aspx", "www"})
# Stop words of the src context: every image path has them, so they only say "there is an image"
# (flag file names such as gb.png or a "flags" folder are what carries the signal).
_IMAGE_NOISE = frozenset(
    {"png", "gif", "jpg", "jpeg", "svg", "webp", "ico", "bmp", "img", "image", "images", "assets", "static", "media"}
)


@dataclass(frozen=True)
class LinkContext:
    """One link as seen on a page: target URL and the four texts around it.

    ``hreflang`` is optional (``<a hreflang>`` or ``<link rel=alternate hreflang>``); it is an
    extra signal beside the paper's five contexts.
    """

    url: str
    anchor_text: str = ""
    text_around: str = ""
    img_alt: str = ""
    img_src: str = ""
    page_url: str = ""
    hreflang: str = ""

    def __post_init__(self):
        if not isinstance(self.url, str) or not self.url.strip():
            raise ValueError(f"LinkContext needs a non-empty target url, got {self.url!r}")


def _core(tokens: list[str]) -> list[str]:
    return [t for t in without_language_units(tokens) if t not in _PAGE_NOISE]


def _join(base: str, url: str) -> str:
    try:
        return urljoin(base, url) if base else url
    except ValueError:  # malformed URL on a crawled page: keep its text as it is
        return url


def _absolute(link: LinkContext) -> str:
    return _join(link.page_url, link.url.strip())


def _relative_features(link: LinkContext, target: str) -> list[str]:
    if not link.page_url:
        return []
    try:
        page = urldefrag(link.page_url)[0]
        bare_target, fragment = urldefrag(target)
    except ValueError:
        return []
    if bare_target == page:
        return ["rel:self"] if not fragment else ["rel:self", "rel:fragment"]
    page_host, page_path = url_parts(page)
    target_host, target_path = url_parts(bare_target)
    feats = ["rel:same_host" if page_host == target_host else "rel:other_host"]
    page_tokens = words(page_host) + words(page_path)
    target_tokens = words(target_host) + words(target_path)
    page_units, target_units = language_units(page_tokens), language_units(target_tokens)
    # "Same path except a language unit": index_en.html -> index_sr.html, /en/a -> /sr/a,
    # en.site.rs/a -> sr.site.rs/a. Pupsniffer's URL pairing patterns rest on the same fact.
    if page_units != target_units and _core(page_tokens) == _core(target_tokens):
        feats.append("rel:lang_swap")
    return feats


def extract_link_features(link: LinkContext) -> list[str]:
    """The prefixed feature tokens of one link (duplicates removed, order kept)."""
    target = _absolute(link)
    page_host = url_parts(link.page_url)[0] if link.page_url else None
    target_host = url_parts(target)[0]
    # Host words of a same-site link are the site's name, which says nothing about translation
    # and would make the model learn site names; they count only for links that leave the host.
    url_tokens = path_words(target) if page_host == target_host else url_words(target)
    feats = [f"url:{t}" for t in url_tokens]
    anchor = words(link.anchor_text)
    feats += [f"anchor:{t}" for t in anchor]
    feats += [f"around:{t}" for t in words(link.text_around)]
    feats += [f"alt:{t}" for t in words(link.img_alt)]
    if link.img_src:
        src_tokens = path_words(_join(link.page_url or target, link.img_src))
        feats += [f"src:{t}" for t in src_tokens if t not in _IMAGE_NOISE]
    if link.hreflang:
        feats += [f"hreflang:{t}" for t in words(link.hreflang)[:1]]
    feats += _relative_features(link, target)
    return list(dict.fromkeys(feats))
