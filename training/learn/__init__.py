"""Learning from judgments, pure (no Django, no RQ). Stored models are checked as data by
crawlweb/model_data.py, shared with the frontier's classifiers. The Link Predictor's data format
is frontier/classifiers/link_model.py; how page bodies compare is evaluation/bodies/.

- features.py         a candidate pair's stored fields → a fixed, named feature vector
- pair_classifier.py  standardized logistic regression over pair features, to and from data
- comparison.py       cross-validated comparison of a new model with the current one; the promotion rule
- threshold.py        the detector's minimum link likelihood chosen from judged sites
"""
