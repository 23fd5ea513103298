"""Rows of the page-pair exports, read with ``.iterator(chunk_size=…)``.

- pair_rows: one row a candidate pair (evaluation.models.CandidatePair) with the filter's verdict;
- aligned_paragraphs: the kept pairs' page texts (Page.text) cut into paragraphs and aligned by
  length with labeling.alignment (Gale & Church style, the judging view's aligner); only rows with
  text on both sides are translation units. Texts are big, so they come TEXT_CHUNK pairs at a time.
"""
from __future__ import annotations

from typing import Iterator

from console.exports.text import language_tag
from console.exports.tmx import TranslationUnit
from evaluation.models import CandidatePair
from labeling.alignment import align, paragraphs

PAIR_CHUNK = 500
TEXT_CHUNK = 20  # two page texts a pair: memory is bounded by 20 pairs of pages
# Bitextor's leading columns (src_url, trg_url), then what this crawler knows about the pair.
PAIR_COLUMNS = ("src_url", "trg_url", "score", "similarity", "method", "methods", "verdict", "reason",
                "src_lang", "trg_lang", "site")
# Bitextor's raw corpus order and Bicleaner's default input (URL1 URL2 SOURCE TARGET: --scol 3 --tcol 4).
SEGMENT_COLUMNS = ("src_url", "trg_url", "src_text", "trg_text", "score", "similarity", "method")


def pair_rows(crawl_id: int, *, kept_only: bool = False) -> Iterator[dict]:
    pairs = CandidatePair.objects.filter(crawl_id=crawl_id)
    if kept_only:
        pairs = pairs.filter(kept=True)
    fields = ("source_url", "target_url", "score", "similarity", "method", "methods", "kept", "reason",
              "source_language", "target_language", "source_page__script", "target_page__script", "site__name")
    for pair in pairs.order_by("site_id", "source_url", "target_url").values(*fields).iterator(chunk_size=PAIR_CHUNK):
        yield {"src_url": pair["source_url"], "trg_url": pair["target_url"], "score": pair["score"],
               "similarity": pair["similarity"], "method": pair["method"],
               "methods": ",".join(pair["methods"] or [pair["method"]]),
               "verdict": "kept" if pair["kept"] else "removed", "reason": pair["reason"],
               "src_lang": language_tag(pair["source_language"], pair["source_page__script"]),
               "trg_lang": language_tag(pair["target_language"], pair["target_page__script"]),
               "site": pair["site__name"]}


def aligned_paragraphs(crawl_id: int) -> Iterator[dict]:
    """One dict a pair of aligned paragraphs of a kept pair, with the pair's URLs, method and scores."""
    pairs = (CandidatePair.objects.filter(crawl_id=crawl_id, kept=True, source_page__isnull=False,
                                          target_page__isnull=False)
             .order_by("site_id", "source_url", "target_url")
             .values("source_url", "target_url", "method", "score", "similarity", "source_page__text",
                     "source_page__language", "source_page__script", "target_page__text", "target_page__language",
                     "target_page__script"))
    for pair in pairs.iterator(chunk_size=TEXT_CHUNK):
        src_lang = language_tag(pair["source_page__language"], pair["source_page__script"])
        trg_lang = language_tag(pair["target_page__language"], pair["target_page__script"])
        for source, target in align(paragraphs(pair["source_page__text"]), paragraphs(pair["target_page__text"])):
            if source and target:  # a paragraph without a counterpart is no translation unit
                yield {"src_url": pair["source_url"], "trg_url": pair["target_url"], "method": pair["method"],
                       "score": pair["score"], "similarity": pair["similarity"], "src_lang": src_lang,
                       "trg_lang": trg_lang, "src_text": " ".join(source.split("\n")),
                       "trg_text": " ".join(target.split("\n"))}


def translation_units(crawl_id: int) -> Iterator[TranslationUnit]:
    for row in aligned_paragraphs(crawl_id):
        props = [("x-source-url", row["src_url"]), ("x-target-url", row["trg_url"]), ("x-method", row["method"]),
                 ("x-score", f"{row['score']:.6g}")]
        if row["similarity"] is not None:
            props.append(("x-similarity", f"{row['similarity']:.6g}"))
        yield TranslationUnit(row["src_lang"], row["trg_lang"], row["src_text"], row["trg_text"], props)
