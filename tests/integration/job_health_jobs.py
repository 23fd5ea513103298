"""Job functions for the job health tests (module level, as RQ needs them)."""
import time
from pathlib import Path


def fail_first_time(marker: str) -> str:
    """Fails while ``marker`` does not exist (creating it), succeeds afterwards: a transient error."""
    path = Path(marker)
    if not path.exists():
        path.write_text("tried once\n")
        raise RuntimeError("first attempt fails on purpose <b>not bold</b>")
    path.write_text("succeeded on retry\n")
    return "ok"


def wait_for_file(release: str, timeout: float = 30.0) -> None:
    """Stays busy until ``release`` exists: a job that is surely running while the page is read."""
    deadline = time.monotonic() + timeout
    while not Path(release).exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{release} never appeared")
        time.sleep(0.05)


def hold_crawl(crawl_id: int, release: str, timeout: float = 30.0) -> None:
    """A follow-up job of crawl ``crawl_id`` (its first parameter says so) busy until ``release`` exists."""
    wait_for_file(release, timeout)
