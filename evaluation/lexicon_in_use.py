"""The bilingual lexicon (settings PAIR_LEXICON, PAIR_LEXICON_LANGUAGES), read once per process.

Method "content" scores with it, and the pair classifier's features read it: training, scoring and
uncertainty sampling must read one lexicon, or a classifier would see other features than it was
trained on. A default dictionary that is not installed is no error (start-up
checks a dictionary that is set explicitly): the features are then "missing", and a warning says why.
"""
from __future__ import annotations

import functools
import logging
from pathlib import Path

from django.conf import settings

from evaluation.bodies.lexicon import Lexicon, LexiconError

logger = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def lexicon_in_use() -> Lexicon | None:
    files = settings.PAIR_LEXICON
    if not files:
        return None
    try:
        return Lexicon.from_dictd(Path(files[0]), Path(files[1]), settings.PAIR_LEXICON_LANGUAGES)
    except LexiconError as error:
        logger.warning("the pair classifier reads no lexicon (PAIR_LEXICON): %s", error)
        return None
