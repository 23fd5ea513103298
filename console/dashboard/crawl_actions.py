"""Which of a crawl's actions apply in its state, so the crawl page offers only those (a running
crawl shows Pause, not Resume). crawl_control refuses the others anyway; this keeps them off screen.

A running crawl whose runner is gone (embedded mode: the process that ran its steps died, see
crawlweb/jobs/chain_runner.py) is the exception: nothing fetches for it, so its page offers
Resume, labelled "Take over", which runs its steps in the web server (crawl_control.resume_crawl)."""
from __future__ import annotations

from crawlweb.models import Crawl

LABELS = {"start": "Start again", "pause": "Pause", "resume": "Resume", "stop": "Stop", "reharvest": "Re-harvest"}
BY_STATE = {
    Crawl.State.NEW: ("start", "stop"),
    Crawl.State.RUNNING: ("pause", "stop", "reharvest"),
    Crawl.State.PAUSED: ("resume", "stop", "reharvest"),
    Crawl.State.STOPPED: ("start", "reharvest"),
    Crawl.State.FINISHED: ("start", "reharvest"),
}
RUNNER_GONE = (("resume", "Take over (resume here)"), ("stop", LABELS["stop"]))


def actions_for(state: str, runner_gone: bool = False) -> list[tuple[str, str]]:
    """[(action, button label)] valid for a crawl in ``state`` (``runner_gone``: a running crawl that
    nothing runs any more)."""
    if state == Crawl.State.RUNNING and runner_gone:
        return list(RUNNER_GONE)
    return [(action, "Start" if state == Crawl.State.NEW and action == "start" else LABELS[action])
            for action in BY_STATE.get(state, ())]
