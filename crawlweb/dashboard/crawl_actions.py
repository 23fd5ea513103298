"""Which of a crawl's actions apply in its state, so the crawl page offers only those (a running
crawl shows Pause, not Resume). crawl_control refuses the others anyway; this keeps them off screen."""
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


def actions_for(state: str) -> list[tuple[str, str]]:
    """[(action, button label)] valid for a crawl in ``state``."""
    return [(action, "Start" if state == Crawl.State.NEW and action == "start" else LABELS[action])
            for action in BY_STATE.get(state, ())]
