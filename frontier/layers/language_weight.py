"""Target language weight (TLW) of the Language module M01, vectorized over a batch.

Every Target of the batch is a document whose terms are its TST tokens. The method defines

    TLW = (1/n) * sum_i W_i * l_i

with W_i the TF-IDF weight of token i, l_i = +1 when the language's Hunspell dictionary
recognizes token i and -1 otherwise, and n the number of tokens in the TST. TLW > 0 is positive.

TF-IDF variant used here (exactly):
  * i runs over the DISTINCT terms of the document's TST;
  * tf_i  = raw count of term i in the TST (occurrences, not divided by n);
  * idf_i = ln((1 + N) / (1 + df_i)) + 1   (scikit-learn's smooth_idf=True form), N = documents
            in the batch, df_i = documents whose TST contains term i;
  * W_i   = tf_i * idf_i, with NO l2 (or other) normalization;
  * n     = number of token occurrences in the TST; an empty TST has TLW = 0 (not positive).
So TLW is the average, over token occurrences, of +idf (known word) or -idf (unknown word):
rare known words pull harder than tokens every URL of the batch shares.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np


class TermIndex:
    """Integer ids for the distinct tokens of a batch, plus the (doc, term) occurrence arrays."""

    def __init__(self, documents: Sequence[Sequence[str]]):
        vocabulary: dict[str, int] = {}
        doc_ids: list[int] = []
        term_ids: list[int] = []
        for doc, tokens in enumerate(documents):
            for token in tokens:
                term = vocabulary.get(token)
                if term is None:
                    term = vocabulary[token] = len(vocabulary)
                term_ids.append(term)
            doc_ids.extend([doc] * len(tokens))
        self.vocabulary = vocabulary
        self.terms = list(vocabulary)  # id -> token
        self.n_docs = len(documents)
        self.doc_ids = np.asarray(doc_ids, dtype=np.int64)
        self.term_ids = np.asarray(term_ids, dtype=np.int64)
        self.lengths = np.bincount(self.doc_ids, minlength=self.n_docs).astype(np.float64)

    def document_frequency(self) -> np.ndarray:
        n_terms = len(self.terms)
        if n_terms == 0:
            return np.zeros(0)
        pairs = np.unique(self.doc_ids * n_terms + self.term_ids)
        return np.bincount(pairs % n_terms, minlength=n_terms).astype(np.float64)

    def idf(self) -> np.ndarray:
        """Smooth idf: ln((1 + N) / (1 + df)) + 1."""
        return np.log((1.0 + self.n_docs) / (1.0 + self.document_frequency())) + 1.0


def target_language_weights(index: TermIndex, known: Callable[[str], bool]) -> np.ndarray:
    """TLW of every document for one language; ``known`` is that language's (cached) dictionary test.

    sum_i tf_i * idf_i * l_i over distinct terms equals the sum of idf * l over occurrences, so
    one weighted bincount over the occurrence arrays gives every document's sum at once.
    """
    if len(index.terms) == 0:
        return np.zeros(index.n_docs)
    signs = np.fromiter((1.0 if known(t) else -1.0 for t in index.terms), dtype=np.float64, count=len(index.terms))
    per_term = index.idf() * signs
    sums = np.bincount(index.doc_ids, weights=per_term[index.term_ids], minlength=index.n_docs)
    with np.errstate(invalid="ignore", divide="ignore"):
        tlw = np.where(index.lengths > 0, sums / np.maximum(index.lengths, 1.0), 0.0)
    return tlw
