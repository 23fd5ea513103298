"""`experiment` in a log: each strategy's crawl shows plain progress lines while it runs (from a
thread, since the experiment's synchronous crawl returns only at its end), ending finished."""
import io
import re

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)
LINE = re.compile(r"^experiment: (fc|obfc): pages (\d+)/10 \(\d+%\), [\d.]+/min, bilingual sites (\d+), ETA \S+, (\w+)$")


def test_each_strategy_of_an_experiment_shows_its_progress(settings, crawl_settings, tmp_path):
    settings.REDIS_URL = None
    settings.PROGRESS_LINE_SECONDS = 0.5
    out = io.StringIO()
    call_command("experiment", testweb=True, size=16, pages_per_site=4, budget=10, strategies="FC,OBFC",
                 out=str(tmp_path), stdout=out)
    lines = [LINE.match(line) for line in out.getvalue().splitlines() if line.startswith("experiment: ")]
    assert all(lines), out.getvalue()
    for strategy in ("fc", "obfc"):
        own = [m for m in lines if m[1] == strategy]
        assert own and own[-1][4] == "finished" and own[-1][2] == "10", (strategy, out.getvalue())
    assert int([m for m in lines if m[1] == "obfc"][-1][3]) >= 1, "the seeds are bilingual sites"
