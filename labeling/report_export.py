"""The report and the judgments as plain rows and dicts, for the CSV and JSON downloads."""
from __future__ import annotations

import math
from dataclasses import asdict

from labeling.agreement import kappa_reading
from labeling.estimates import Proportion
from labeling.models import Evaluation
from labeling.report_data import ItemRecord
from labeling.reporting import Report

REPORT_COLUMNS = ["section", "name", "population", "judged", "correct", "value", "low", "high"]
JUDGMENT_COLUMNS = ["item", "position", "label", "stratum", "stratum_size", "purpose", "method", "evaluator",
                    "verdict", "category", "judged_at", "seconds", "final_verdict", "final_category", "final_source"]


def _figure(p: Proportion) -> dict:
    return {"judged": p.n, "correct": p.successes, "value": p.p, "low": p.low, "high": p.high}


def report_rows(report: Report) -> list[dict]:
    """One flat row per figure (CSV): precision per stratum and method, the estimate, the error
    categories, agreement and pace, all in the columns of REPORT_COLUMNS."""
    rows = [{"section": "stratum", "name": r.name, "population": r.population, **_figure(r.figure)}
            for r in report.strata]
    rows += [{"section": "method", "name": r.name, "population": r.population, **_figure(r.figure)}
             for r in report.methods]
    e = report.estimate
    if e is not None:
        rows.append({"section": "estimate", "name": report.estimate_scope, "population": e.population,
                     "judged": e.judged, "value": e.p, "low": e.low, "high": e.high})
    for row in report.breakdown:
        for category, count in sorted(row.categories.items()):
            rows.append({"section": "error_category", "name": f"{row.group} / {category or 'unspecified'}",
                         "judged": row.judged, "value": count})
    for a in report.cohen:
        rows.append({"section": "cohen_kappa", "name": f"{a.first} / {a.second}", "judged": a.kappa.items,
                     "value": a.kappa.kappa})
    if report.pooled is not None:
        rows.append({"section": "cohen_kappa_pooled", "name": "all pairs", "judged": report.pooled.items,
                     "value": report.pooled.kappa})
    rows += [{"section": "fleiss_kappa", "name": f"{f.raters_per_item} raters", "judged": f.items, "value": f.kappa}
             for f in report.fleiss]
    rows += [{"section": "judgments_per_minute", "name": who, "judged": p.judgments, "value": p.per_minute}
             for who, p in report.pace.items()]
    return [{column: row.get(column) for column in REPORT_COLUMNS} for row in rows]


def report_document(evaluation: Evaluation, report: Report) -> dict:
    """The report as one JSON document, its sections keyed by name."""
    return {
        "evaluation": {"id": evaluation.pk, "name": evaluation.name, "what": evaluation.what,
                       "stratify_by": evaluation.stratify_by, "seed": evaluation.seed, "state": evaluation.state},
        "items": report.items, "estimate_items": report.estimate_items, "improve_items": report.improve_items,
        "decided": report.decided, "undecided": report.undecided,
        "strata": [{"name": r.name, "population": r.population, **_figure(r.figure)} for r in report.strata],
        "methods": [{"name": r.name, "population": r.population, "population_estimated": r.population_estimated,
                     **_figure(r.figure)} for r in report.methods],
        "estimate": _estimate(report),
        "error_categories": [{"group": row.group, "judged": row.judged, "correct": row.correct,
                              "partial": row.partial, "categories": dict(row.categories)}
                             for row in report.breakdown],
        "agreement": {
            "cohen": [{"evaluators": [a.first, a.second], **_kappa(a.kappa)} for a in report.cohen],
            "cohen_pooled": _kappa(report.pooled) if report.pooled else None,
            "fleiss": [_kappa(f) for f in report.fleiss],
        },
        "judgments_per_minute": {who: asdict(p) for who, p in report.pace.items()},
    }


def _estimate(report: Report) -> dict | None:
    """The estimate with its effective sample size; null for a census (every stratum judged whole),
    since JSON has no infinity."""
    e = report.estimate
    if e is None:
        return None
    finite = e.effective_n is not None and math.isfinite(e.effective_n)
    return {"scope": report.estimate_scope, **asdict(e), "effective_n": e.effective_n if finite else None}


def _kappa(kappa) -> dict:
    return {**asdict(kappa), "reading": kappa_reading(kappa.kappa)}


def judgment_rows(records: list[ItemRecord]) -> list[dict]:
    """One row per judgment (an item nobody judged yet gets one row with empty judgment columns)."""
    rows = []
    for item in records:
        final = item.final
        base = {"item": item.id, "position": item.position, "label": item.label, "stratum": item.stratum,
                "stratum_size": item.stratum_size, "purpose": item.purpose, "method": item.method,
                "final_verdict": final.verdict if final else "", "final_category": final.category if final else "",
                "final_source": final.source if final else ""}
        for j in item.judgments or [None]:
            judged = {} if j is None else {"evaluator": j.evaluator, "verdict": j.verdict, "category": j.category,
                                           "judged_at": j.at.isoformat(), "seconds": j.seconds}
            rows.append({column: {**base, **judged}.get(column, "") for column in JUDGMENT_COLUMNS})
    return rows
