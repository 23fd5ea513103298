"""Learning from judgments, pure (no Django, no RQ). Stored models are checked as data by
crawlweb/model_data.py, shared with the frontier's classifiers.

- features.py         a candidate pair's stored fields → a fixed, named feature vector
- pair_classifier.py  standardized logistic regression over pair features, to and from data
- link_model.py       the Link Predictor (calibrated linear SVM) to and from data
- comparison.py       cross-validated comparison of a new model with the current one; the promotion rule
- threshold.py        the detector's minimum link likelihood chosen from judged sites
"""
