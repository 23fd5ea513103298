"""axe-core (Deque's accessibility checker, npm package axe-core, MPL-2.0), injected into a page under
test: the violations a user of a screen reader or the keyboard would meet, serious or critical ones.
scripts/install.sh --test installs it into .venv/axe."""
from __future__ import annotations

from pathlib import Path

AXE_JS = Path(__file__).resolve().parents[2] / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def serious_violations(page) -> list[str]:
    """One line per serious or critical axe-core violation on the page as it is now: rule, impact, and
    the first elements it names, why the first fails (empty when the page passes)."""
    assert AXE_JS.is_file(), f"{AXE_JS} is missing: run scripts/install.sh --test (it installs axe-core with npm)"
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"][:4])
            + " — " + " ".join(v["nodes"][0].get("failureSummary", "").split())[:300]
            for v in results["violations"] if v["impact"] in BLOCKING]
