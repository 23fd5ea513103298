"""Training set and leave-one-site-out evaluation of the Link Predictor on the real sites.

Pure module used by scripts/train_link_predictor.py and the tests. Training set = switcher
conventions placed on the training sites' pages (switcher_examples.py) + the real labelled links
of the training sites. Evaluation holds one whole site out at a time, so no site is scored by a
model that has seen it; precision/recall/F1 are then pooled over all held-out links, per minimum
likelihood as in Barbosa et al.'s Table 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from frontier.classifiers.link_features import LinkContext
from frontier.classifiers.link_predictor import LinkPredictor
from frontier.classifiers.real_sites import DEFAULT_ROOT, LabelledLink, labelled_links, load_truth, site_pages
from frontier.classifiers.switcher_examples import switcher_examples

THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(10))


@dataclass(frozen=True)
class ThresholdScore:
    min_likelihood: float
    precision: float
    recall: float
    f1: float
    predicted: int
    true_positive: int
    positives: int


def training_set(
    real: list[LabelledLink], page_urls: list[str], seed: int = 0
) -> tuple[list[LinkContext], list[int]]:
    links, labels = switcher_examples(page_urls, seed=seed)
    links += [r.link for r in real]
    labels += [r.label for r in real]
    return links, labels


def score_at_thresholds(probabilities: np.ndarray, labels: np.ndarray) -> list[ThresholdScore]:
    labels = np.asarray(labels, dtype=int)
    out = []
    for t in THRESHOLDS:
        predicted = probabilities >= t
        tp = int((predicted & (labels == 1)).sum())
        n_pred, n_pos = int(predicted.sum()), int(labels.sum())
        p = tp / n_pred if n_pred else 0.0
        r = tp / n_pos if n_pos else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        out.append(ThresholdScore(t, p, r, f, n_pred, tp, n_pos))
    return out


def leave_one_site_out(
    root: Path = DEFAULT_ROOT, seed: int = 0, models: dict[str, LinkPredictor] | None = None
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Held-out P(translation link), true labels and site of every labelled real link.

    Pass a dict as ``models`` to get each site's held-out model (keyed by the held-out host).
    """
    root = Path(root)
    real = labelled_links(root)
    sites = sorted({r.site for r in real})
    pages = {s["host"]: [u for u, _ in site_pages(root, s["host"])] for s in load_truth(root)}
    probs: list[float] = []
    labels: list[int] = []
    owners: list[str] = []
    for held_out in sites:
        train_real = [r for r in real if r.site != held_out]
        train_pages = [u for host, urls in pages.items() if host != held_out for u in urls]
        links, y = training_set(train_real, train_pages, seed=seed)
        model = LinkPredictor.train(links, y, seed=seed)
        if models is not None:
            models[held_out] = model
        test = [r for r in real if r.site == held_out]
        probs += list(model.predict_proba([r.link for r in test]))
        labels += [r.label for r in test]
        owners += [held_out] * len(test)
    return np.asarray(probs), np.asarray(labels), owners


def train_shipped_model(root: Path = DEFAULT_ROOT, seed: int = 0) -> LinkPredictor:
    """The starting model: every real site plus the switcher conventions on all their pages."""
    root = Path(root)
    real = labelled_links(root)
    pages = [u for s in load_truth(root) for u, _ in site_pages(root, s["host"])]
    links, y = training_set(real, pages, seed=seed)
    model = LinkPredictor.train(links, y, seed=seed)
    model.meta["training"] = "switcher conventions + all real sites of shared/data/real-sites"
    return model


def detector_on_real_sites(
    models: dict[str, LinkPredictor], root: Path = DEFAULT_ROOT, min_likelihood: float = 0.8, max_fetches: int = 5
) -> list[dict]:
    """Run the BS Detector on every page of known language of each site, with that site's
    held-out model. Page languages come from truth.json's pairs (other pages: unknown, None),
    so language identification is perfect here: the figures measure the link step and the
    decision rule, not an identifier. A site is called bilingual when any page's verdict is."""
    from frontier.classifiers.bs_detector import detect_bilingual
    from frontier.classifiers.page_links import link_contexts_from_html
    from frontier.classifiers.real_sites import page_languages

    rows = []
    for site in load_truth(root):
        model = models.get(site["host"])
        if model is None:
            continue
        languages = page_languages(site)
        verdicts = []
        for url, path in site_pages(root, site["host"]):
            if url not in languages:
                continue
            links = link_contexts_from_html(path.read_text(encoding="utf-8", errors="replace"), url)
            verdicts.append(
                detect_bilingual(url, languages[url], links, model, languages.get, min_likelihood, ("sr", "en"), max_fetches)
            )
        rows.append(
            {
                "site": site["host"],
                "truth": bool(site.get("bilingual_sr_en")),
                "pages": len(verdicts),
                "pages_bilingual": sum(v.bilingual for v in verdicts),
                "bilingual": any(v.bilingual for v in verdicts),
                "mean_downloads": float(np.mean([v.pages_downloaded for v in verdicts])) if verdicts else 0.0,
            }
        )
    return rows
