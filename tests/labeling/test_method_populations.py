"""The report's per-method Population column (it was empty): each method's part of the population its
strata stand for, exact when the evaluation is stratified by method, estimated from the sample when a
stratum holds several methods (and marked so)."""
from datetime import datetime, timezone

from labeling.models import Verdict
from labeling.report_data import ItemRecord, JudgmentRecord
from labeling.reporting import build_report

AT = datetime(2026, 11, 29, tzinfo=timezone.utc)


def item(number: int, stratum: str, size: int, method: str, verdict: str = Verdict.YES) -> ItemRecord:
    return ItemRecord(id=number, position=number, label=f"item {number}", stratum=stratum, stratum_size=size,
                      purpose="estimate", method=method,
                      judgments=[JudgmentRecord("ana", verdict, "", AT, 3.0)])


def test_a_stratum_per_method_gives_each_method_its_stratum_s_size():
    report = build_report([item(1, "hreflang · kept", 100, "hreflang"), item(2, "local · kept", 300, "local"),
                           item(3, "local · removed", 50, "local", Verdict.NO)])
    assert [(r.name, r.population, r.population_estimated) for r in report.methods] == [
        ("hreflang", 100, False), ("local", 300, False)]  # the output's precision: kept strata only


def test_methods_sharing_a_stratum_get_their_sampled_share_of_it_marked_as_estimated():
    # 1,000 kept pairs sampled as one stratum: 3 of the 4 sampled came from "local" → 750, "hreflang" 250
    records = [item(1, "kept", 1000, "local"), item(2, "kept", 1000, "local"), item(3, "kept", 1000, "local"),
               item(4, "kept", 1000, "hreflang", Verdict.NO)]
    report = build_report(records)
    assert [(r.name, r.population, r.population_estimated) for r in report.methods] == [
        ("hreflang", 250, True), ("local", 750, True)]
