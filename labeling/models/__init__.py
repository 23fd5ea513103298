"""Labeling sessions: evaluations, their sampled items, who judges which, and what they said."""
from labeling.models.evaluations import Evaluation, EvaluationItem
from labeling.models.judgments import Adjudication, Assignment, ErrorCategory, Judgment, Verdict

__all__ = ["Adjudication", "Assignment", "ErrorCategory", "Evaluation", "EvaluationItem", "Judgment", "Verdict"]
