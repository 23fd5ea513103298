"""Classifiers that steer the crawl (Barbosa et al. 2011) — pure modules, no Django.

- link_features / page_links / tokens: the five link contexts of a link (LinkContext)
- link_predictor: probabilistic SVM "does this link lead to the other language version?"
- bs_detector: Bilingual Site Detector decision (link predictor + language of a few pages)
- link_classifier / text_normalize: Naive Bayes Backlink and Forward-Link classifiers
- switcher_examples / real_sites / predictor_training: training data and evaluation
  (scripts/train_link_predictor.py rebuilds data/link_predictor.json, read by shipped_link_predictor)
"""
