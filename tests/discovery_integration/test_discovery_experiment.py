"""`manage.py experiment` on a small test web: a CSV and a PNG of bilingual sites against pages."""
import csv

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from crawlweb.models import Crawl

pytestmark = pytest.mark.django_db(transaction=True)


def test_experiment_writes_the_harvest_curve_of_each_strategy(sync_jobs, crawl_settings, tmp_path, capsys):
    call_command("experiment", testweb=True, size=16, pages_per_site=4, budget=10, strategies="FC,OBFC",
                 out=str(tmp_path))
    rows = list(csv.DictReader((tmp_path / "harvest.csv").open()))
    assert {row["strategy"] for row in rows} == {"fc", "obfc"}
    for strategy in ("fc", "obfc"):
        curve = [(int(r["pages_fetched"]), int(r["bilingual_sites"])) for r in rows if r["strategy"] == strategy]
        assert curve[-1][0] == 10 and curve[-1][1] >= 1, "the seeds are bilingual sites"
        assert curve == sorted(curve), "the curve never goes down"
    assert (tmp_path / "harvest.png").read_bytes()[:4] == b"\x89PNG"
    out = capsys.readouterr().out
    assert "ratio of truly bilingual sites obfc_vs_fc" in out
    # The same curves on the dashboard, side by side.
    crawls = list(Crawl.objects.order_by("pk").values_list("pk", flat=True))
    assert f"dashboard: /frontier/harvest/?crawl={crawls[0]}&crawl={crawls[1]}" in out
    assert settings.CRAWLER_BATCH_SIZE == 4, "small batches: the frontier order decides nearly every fetch"


def test_a_bad_batch_size_is_refused(sync_jobs, tmp_path):
    with pytest.raises(CommandError, match="batch-size"):
        call_command("experiment", testweb=True, size=16, budget=10, batch_size=0, out=str(tmp_path))
