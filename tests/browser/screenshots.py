"""Where the browser tests save the screenshots of the README and the docs.

docs/ when UPDATE_SCREENSHOTS=1 (`make screenshots`), else the test's own temporary folder: a test
run leaves the working tree as it found it, and the README's pictures change only when asked."""
import os
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def screenshot_path(name: str, tmp_path: Path) -> Path:
    folder = DOCS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
