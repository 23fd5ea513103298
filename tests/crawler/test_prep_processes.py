"""Pages prepared in the worker's preparation processes are the pages the fetch threads would make,
and a preparation process that dies loses no page."""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from crawlweb.crawler.fetch import FetchResult
from crawlweb.devdata import shared_data_dir
from crawlweb.services import prep_processes
from crawlweb.services.crawl_config import CrawlConfig
from crawlweb.services.page_prep import prepare_page
from crawlweb.testweb.generator import generate_web

WINDOW = 10  # CRAWLER_TEXT_WINDOW_WORDS's default, which the processes are given


def _sample_pages() -> list[Path]:
    """Six pages of a real bilingual site from the development data; where that data is absent
    (a clone away from ../shared), six of the test web's pages, written to a temporary directory."""
    real = sorted((shared_data_dir() / "real-sites" / "hosts" / "www.drustvohispanistasrbija.rs").rglob("*.html"))
    if real:
        return real[:6]
    web = generate_web(seed=3, size=6, pages_per_site=4)
    directory = Path(tempfile.mkdtemp(prefix="prep-pages-"))
    atexit.register(shutil.rmtree, directory, True)
    paths = []
    urls = [url for site in web.sites for url in web.page_urls(site)[:2]][:6]
    for number, url in enumerate(urls):
        paths.append(directory / f"page-{number}.html")
        paths[-1].write_bytes(web.respond("GET", url).read())
    return paths


REAL_PAGES = _sample_pages()


def _fetched(path) -> FetchResult:
    url = f"http://www.drustvohispanistasrbija.rs/{path.name}"
    return FetchResult(requested_url=url, final_url=url, status=200, body=path.read_bytes(),
                       headers={"content-type": "text/html; charset=utf-8"})


@pytest.fixture
def one_process(settings):
    settings.CRAWLER_PREPARE_PROCESSES = 1
    yield
    prep_processes.shutdown()


def test_real_pages_prepared_in_a_process_equal_those_prepared_in_the_thread(one_process):
    assert len(REAL_PAGES) == 6
    config = CrawlConfig.from_dict({"session_params": ["sid"]})
    for path in REAL_PAGES:
        here = prepare_page(_fetched(path), "drustvohispanistasrbija.rs", config, window_words=WINDOW)
        there = prep_processes.prepare(_fetched(path), "drustvohispanistasrbija.rs", config)
        assert there == here
        assert there.fields["language"] and there.links  # Serbian, English and Spanish pages
    assert prep_processes.process_ids(), "the pages were prepared in the thread, not in a process"


def test_a_killed_preparation_process_loses_no_page_and_is_replaced(one_process):
    config = CrawlConfig.from_dict({})
    first = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)
    (victim,) = prep_processes.process_ids()
    os.kill(victim, signal.SIGKILL)

    again = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)
    assert again == first  # prepared in the thread when the pool turned out broken
    prep_processes.prepare(_fetched(REAL_PAGES[1]), "drustvohispanistasrbija.rs", config)
    assert prep_processes.process_ids() and victim not in prep_processes.process_ids()


def test_a_page_whose_pool_another_thread_retired_meanwhile_is_prepared_in_the_thread(one_process):
    """A fetch thread takes the pool; before it submits, another thread's page ends the pool's share
    and shuts it down. The page is prepared anyway (it was lost with "cannot schedule new futures")."""
    config = CrawlConfig.from_dict({})
    expected = prepare_page(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config, window_words=WINDOW)
    pool = prep_processes._current_pool()
    pool.shutdown(wait=True)  # retired between the taking and the submitting: still the pool in hand

    assert prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config) == expected


_held: list[bytes] = []


def _hold_megabytes(count: int) -> int:
    """Run in a preparation process: keep ``count`` MB resident there, as memory its allocator kept would."""
    _held.append(b"x" * (count << 20))
    return count


def test_a_process_grown_past_its_limit_is_replaced_by_a_fresh_one(one_process, monkeypatch, settings):
    """A long-lived preparation process grew with the pages it had seen (docs/fuzzing.md): once it has
    grown by CRAWLER_PREPARE_PROCESS_GROWTH_MB since its first check, new processes prepare the next
    pages, and the old ones exit."""
    monkeypatch.setattr(prep_processes, "CHECK_EVERY_PAGES", 1)
    settings.CRAWLER_PREPARE_PROCESS_GROWTH_MB = 32
    config = CrawlConfig.from_dict({})
    here = [prepare_page(_fetched(path), "drustvohispanistasrbija.rs", config, window_words=WINDOW)
            for path in REAL_PAGES[:3]]
    there = [prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)]
    (old,) = prep_processes.process_ids()
    assert prep_processes._current_pool().submit(_hold_megabytes, 40).result() == 40
    there.append(prep_processes.prepare(_fetched(REAL_PAGES[1]), "drustvohispanistasrbija.rs", config))
    there.append(prep_processes.prepare(_fetched(REAL_PAGES[2]), "drustvohispanistasrbija.rs", config))
    assert there == here
    (new,) = prep_processes.process_ids()
    assert new != old
    deadline = time.monotonic() + 30
    while _running(old) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(old)


def test_a_process_within_its_limit_keeps_preparing(one_process, monkeypatch):
    """Replaced every 500 pages whatever its size, a new process's 1.3 s warm-up held the fetch
    threads' pages (a third of the crawl step's time per page at scale): on ordinary pages it stays."""
    monkeypatch.setattr(prep_processes, "CHECK_EVERY_PAGES", 1)
    config = CrawlConfig.from_dict({})
    prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", config)
    (first,) = prep_processes.process_ids()
    for path in REAL_PAGES * 3:
        prep_processes.prepare(_fetched(path), "drustvohispanistasrbija.rs", config)
    assert prep_processes.process_ids() == [first]
    assert prep_processes.resident_mb(first) > 0, "its size is read (else no process is ever replaced)"


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting for its parent)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_no_processes_when_set_to_zero(settings):
    settings.CRAWLER_PREPARE_PROCESSES = 0
    prep_processes.shutdown()
    page = prep_processes.prepare(_fetched(REAL_PAGES[0]), "drustvohispanistasrbija.rs", CrawlConfig.from_dict({}))
    assert page.parsed is not None and prep_processes.process_ids() == []


def _run_script(script: str, *args: str, env: dict | None = None) -> dict:
    """Run ``script`` in a fresh interpreter at the project's root; its last line, a JSON report."""
    run = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2], env=env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def _assert_same_page(report: dict, path: Path, config: CrawlConfig) -> None:
    """The report's page (language, links) is the one prepared here, in the thread."""
    here = prepare_page(_fetched(path), "drustvohispanistasrbija.rs", config, window_words=WINDOW)
    assert report["language"] == here.fields["language"]
    assert report["links"] == [link.values["target_url"] for link in here.links] and report["links"]


# A fresh interpreter, as a worker is: single-threaded until it starts its preparation process.
WORKER_LIKE = """
import json, os, sys, threading
os.environ["DJANGO_SETTINGS_MODULE"] = "crawlweb.settings"
import django
django.setup()
from crawlweb.crawler.fetch import FetchResult
from crawlweb.services import prep_processes
from crawlweb.services.crawl_config import CrawlConfig

busy = threading.Event()
if sys.argv[2] == "with-a-thread":
    threading.Thread(target=busy.wait, daemon=True).start()
prep_processes.start()
url = "http://www.drustvohispanistasrbija.rs/page.html"
body = open(sys.argv[1], "rb").read()
page = prep_processes.prepare(FetchResult(requested_url=url, final_url=url, status=200, body=body,
                                          headers={"content-type": "text/html; charset=utf-8"}),
                              "drustvohispanistasrbija.rs", CrawlConfig.from_dict({}))
(child,) = prep_processes.process_ids()
command = lambda pid: open(f"/proc/{pid}/cmdline", "rb").read()
print(json.dumps({"forked": command(child) == command(os.getpid()), "language": page.fields["language"],
                  "links": [link.values["target_url"] for link in page.links]}))
busy.set()
prep_processes.shutdown()
"""


@pytest.mark.parametrize("threads, forked", [("alone", True), ("with-a-thread", False)])
def test_a_single_threaded_worker_forks_its_preparation_process_else_it_spawns_one(threads, forked):
    """Forked, the process copies the modules its parent loaded already; a process that runs
    threads spawns, since a fork would copy locks they may hold."""
    path = REAL_PAGES[0]
    report = _run_script(WORKER_LIKE, str(path), threads)
    assert report["forked"] is forked
    _assert_same_page(report, path, CrawlConfig.from_dict({}))


PURE = """
import json, sys
from crawlweb.crawler.fetch import FetchResult
from crawlweb.services.page_prep import PageOptions, prepare_page

url = "http://www.drustvohispanistasrbija.rs/page.html"
page = prepare_page(FetchResult(requested_url=url, final_url=url, status=200, body=open(sys.argv[1], "rb").read(),
                                headers={"content-type": "text/html; charset=utf-8"}),
                    "drustvohispanistasrbija.rs", PageOptions(("sid",), {}), window_words=10)
print(json.dumps({"django": sorted(name for name in sys.modules if name.split(".")[0] == "django"),
                  "language": page.fields["language"], "links": [link.values["target_url"] for link in page.links]}))
"""


def test_page_preparation_runs_without_django():
    """What a preparation process runs: no Django settings, no Django module loaded, the same page."""
    path = REAL_PAGES[1]
    report = _run_script(PURE, str(path), env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"})
    assert report["django"] == []
    _assert_same_page(report, path, CrawlConfig.from_dict({"session_params": ["sid"]}))


# manage.py rqworker, as far as the preparation processes go: they start before Django is set up.
EARLY = """
import json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "crawlweb.settings"
from crawlweb.services import prep_processes

prep_processes.start_for_worker(["manage.py", "rqworker", *sys.argv[2:]])
before_django = prep_processes.process_ids()
import django
django.setup()
from crawlweb.crawler.fetch import FetchResult
from crawlweb.services.crawl_config import CrawlConfig

url = "http://www.drustvohispanistasrbija.rs/page.html"
page = prep_processes.prepare(FetchResult(requested_url=url, final_url=url, status=200, body=open(sys.argv[1], "rb").read(),
                                          headers={"content-type": "text/html; charset=utf-8"}),
                              "drustvohispanistasrbija.rs", CrawlConfig.from_dict({}))
print(json.dumps({"before_django": before_django, "after": prep_processes.process_ids(),
                  "language": page.fields["language"], "links": [link.values["target_url"] for link in page.links]}))
prep_processes.shutdown()
"""


@pytest.mark.parametrize("worker_class, early", [([], True), (["--worker-class", "rq.SimpleWorker"], True),
                                                 (["--worker-class=rq.Worker"], False)])
def test_a_worker_starts_its_preparation_process_before_django_unless_its_work_horses_fork(worker_class, early):
    """So that the dictionaries (1.3 s) load while Django does (1 s): a short crawl's first pages
    waited for them. A forking worker class prepares in each work horse's own process instead."""
    path = REAL_PAGES[2]
    report = _run_script(EARLY, str(path), "crawl", "score", "train", *worker_class)
    assert bool(report["before_django"]) is early
    assert report["after"] and (report["after"] == report["before_django"] or not early)
    _assert_same_page(report, path, CrawlConfig.from_dict({}))


@pytest.mark.parametrize("arguments, processes", [
    (["score", "train", "crawl", "--name", "scorer"], 0),  # CRAWLER_SCORE_WORKER_PREPARE_PROCESSES's default
    (["--name", "score", "crawl", "score", "train"], 1),  # a worker named "score" takes crawl steps first
])
def test_a_score_first_worker_prepares_its_few_pages_in_its_own_process(arguments, processes):
    """A worker whose first queue is "score" mostly scores: a preparation process would cost it ~130 MB for
    the few pages it prepares (detector reads, crawl steps when no scoring waits). The page is the same."""
    path = REAL_PAGES[2]
    report = _run_script(EARLY, str(path), *arguments)
    assert len(report["before_django"]) == len(report["after"]) == processes
    _assert_same_page(report, path, CrawlConfig.from_dict({}))
