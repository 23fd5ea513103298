"""Where the development data lives (shared/data: real LID paragraphs, real bilingual sites, the charset corpus).

It is not part of the repository: it sits beside it, as ../shared/data, or wherever
SHARED_DATA_DIR points. Pure: no Django."""
from __future__ import annotations

import os
from pathlib import Path


def shared_data_dir() -> Path:
    configured = os.environ.get("SHARED_DATA_DIR")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared" / "data"


def real_web_dir() -> Path:
    """The built real development web (scripts/build_realweb.py): REAL_WEB_DIR, else
    <SHARED_DATA_DIR>/real-web."""
    configured = os.environ.get("REAL_WEB_DIR")
    return Path(configured) if configured else shared_data_dir() / "real-web"


def charset_corpus_dir() -> Path:
    """The built charset corpus (scripts/build_charset_corpus.py): CHARSET_CORPUS_DIR, else
    <SHARED_DATA_DIR>/charsets."""
    configured = os.environ.get("CHARSET_CORPUS_DIR")
    return Path(configured) if configured else shared_data_dir() / "charsets"
