"""Crawls nobody runs (issue 34, finding 4), with real processes in the embedded mode (SQLite, jobs in
the process's own threads, no REDIS_URL):

- `crawl start --no-wait` used to leave a crawl running at 0 pages with nothing to run it, and
  `crawl kick` queued steps in a process that exited at once: both refuse now, creating nothing;
- a process killed with SIGKILL (`crawl start`, the demo) left its crawl running for good: the web
  server (and the demo) take such a crawl over when they start, and while they run; and its page
  preparation processes, which waited for pages forever (about 150 MB each), end with it.
"""
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crawlweb.models import Crawl
from tests.evaluation_integration.helpers import home_urls, pick_sites
from tests.process_servers import free_port

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 180  # the longest wait for one thing to happen, on a loaded machine


def embedded_env(var_dir: Path, proxy_url: str | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "JOBS_INPROCESS_MODE")}
    env.update(VAR_DIR=str(var_dir), WARC_DIR=str(var_dir / "warc"), CRAWLER_CHAIN_WATCH_SECONDS="1",
               CRAWLER_READ_TIMEOUT="5", SECRET_KEY="x" * 50)
    if proxy_url:
        env.update(HTTP_PROXY=proxy_url, http_proxy=proxy_url, NO_PROXY="127.0.0.1,localhost",
                   no_proxy="127.0.0.1,localhost")
    return env


def manage(env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def start(env: dict, log: Path, *args: str) -> subprocess.Popen:
    with open(log, "w") as out:
        return subprocess.Popen([sys.executable, "manage.py", *args], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)


def end(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


def crawl_row(var_dir: Path, crawl_id: int | None = None) -> dict | None:
    """The crawl (the newest when no id is given) as the database holds it, or None."""
    with sqlite3.connect(var_dir / "crawl.sqlite3", timeout=30) as db:
        db.row_factory = sqlite3.Row
        where, params = ("WHERE id = ?", (crawl_id,)) if crawl_id else ("", ())
        row = db.execute(f"SELECT * FROM {Crawl._meta.db_table} {where} ORDER BY id DESC LIMIT 1", params).fetchone()
    return dict(row) if row else None


def count_crawls(var_dir: Path) -> int:
    with sqlite3.connect(var_dir / "crawl.sqlite3", timeout=30) as db:
        return db.execute(f"SELECT count(*) FROM {Crawl._meta.db_table}").fetchone()[0]


def wait_for(what: str, check, *, processes=(), logs=()) -> dict:
    """Poll ``check()`` until it returns a row, or fail naming ``what`` (or the process that exited)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        row = check()
        if row:
            return row
        for process, log in zip(processes, logs):
            assert process.poll() is None, f"{process.args} exited while waiting for {what}:\n{log.read_text()[-3000:]}"
        time.sleep(0.5)
    raise AssertionError(f"not within {WAIT_S} s: {what}")


def fetching_more(var_dir: Path, crawl_id: int, than: int, *, runner_pid: int):
    """A check: the crawl's row once it has more than ``than`` pages, run by process ``runner_pid``."""
    def check():
        row = crawl_row(var_dir, crawl_id)
        return row if row["pages_fetched"] > than and f"pid {runner_pid} " in row["runner"] else None
    return check


def killed_while_fetching(env: dict, log: Path, var_dir: Path, args: list[str], *, also=(), also_logs=()) -> dict:
    """Start ``args``, SIGKILL it once its new crawl has fetched a page; the crawl's row a moment later."""
    before = crawl_row(var_dir)
    process = start(env, log, *args)
    try:
        row = wait_for(f"{args[0]}'s crawl fetching", lambda: (row := crawl_row(var_dir)) and
                       row["id"] != (before or {}).get("id") and row["pages_fetched"] > 0 and row,
                       processes=[process, *also], logs=[log, *also_logs])
    finally:
        sigkill(process)
    time.sleep(2)
    left = crawl_row(var_dir, row["id"])
    assert left["state"] == "running", left  # left behind: running, and nothing runs it
    return dict(left, killed_pid=process.pid)


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (its page preparation processes, multiprocessing's tracker)."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                children.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
    return children


def still_running(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text()}


def sigkill(process: subprocess.Popen) -> None:
    """SIGKILL, as `kill -9 PID` does: the process alone; what it started must end by itself."""
    children = children_of(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 30
    while still_running(children) and time.monotonic() < deadline:
        time.sleep(0.5)
    left = still_running(children)
    for pid in left:  # never leave them behind, whatever the test says
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes {sorted(left)} started by {process.args} outlived it by 30 s"


def crawl_start_args(server, name: str) -> list[str]:
    sites = pick_sites(server.web.truth(), [("bilingual-sr-en", "dirs"), ("bilingual-sr-en", "suffix-dot"),
                                           ("mono-sr-cyrl", "single")])
    urls = [arg for url in home_urls(sites) for arg in ("--url", url)]
    # A crawl that lasts: a second between two requests to a host, more pages than the sites hold.
    return ["crawl", "start", "--name", name, "--strategy", "bfs", *urls, "--budget", "500", "--host-interval", "1"]


@pytest.fixture
def embedded(tmp_path):
    env = embedded_env(tmp_path)
    migrated = manage(env, "migrate", "-v0")
    assert migrated.returncode == 0, migrated.stderr
    return tmp_path


def test_crawl_start_no_wait_without_redis_refuses_and_creates_nothing(embedded):
    done = manage(embedded_env(embedded), "crawl", "start", "--url", "http://www.primer.rs/", "--budget", "5",
                  "--no-wait")
    assert done.returncode != 0, done.stdout
    assert ("--no-wait: without REDIS_URL the crawl's jobs run inside this command's process, which would exit at "
            "once and leave the crawl running with nothing to run it") in done.stderr
    assert "leave out --no-wait" in done.stderr and "set REDIS_URL and start workers" in done.stderr
    assert "Nothing was created." in done.stderr
    assert count_crawls(embedded) == 0


def test_crawl_resume_no_wait_and_kick_without_redis_refuse_and_change_nothing(embedded):
    env = embedded_env(embedded)
    made = manage(env, "shell", "-c", "from crawlweb.models import Crawl; "
                  "print(Crawl.objects.create(name='paused', state='paused').pk)")
    crawl_id = int(made.stdout.strip().splitlines()[-1])
    resumed = manage(env, "crawl", "resume", str(crawl_id), "--no-wait")
    assert resumed.returncode != 0 and "--no-wait: without REDIS_URL" in resumed.stderr, resumed.stdout
    assert crawl_row(embedded, crawl_id)["state"] == "paused"
    kicked = manage(env, "crawl", "kick", str(crawl_id))
    assert kicked.returncode != 0, kicked.stdout
    assert "kick: without REDIS_URL" in kicked.stderr and "`crawl resume ID`" in kicked.stderr


def test_pairs_discover_no_wait_without_redis_refuses_and_changes_nothing(embedded):
    from evaluation.models import DiscoveryRun

    env = embedded_env(embedded)
    made = manage(env, "shell", "-c", "from crawlweb.models import Crawl; "
                  "print(Crawl.objects.create(name='crawled', state='finished', pages_fetched=3).pk)")
    crawl_id = int(made.stdout.strip().splitlines()[-1])
    done = manage(env, "pairs", "discover", str(crawl_id), "--no-wait")
    assert done.returncode != 0, done.stdout
    assert ("--no-wait: without REDIS_URL the discovery's crawl rounds and later rankings run inside this "
            "command's process, which would exit at once") in done.stderr
    assert "leave out --no-wait" in done.stderr and "set REDIS_URL and start workers" in done.stderr
    assert crawl_row(embedded, crawl_id)["state"] == "finished"
    with sqlite3.connect(embedded / "crawl.sqlite3", timeout=30) as db:
        assert db.execute(f"SELECT count(*) FROM {DiscoveryRun._meta.db_table}").fetchone()[0] == 0


def test_the_web_server_takes_over_crawls_whose_process_was_killed_at_its_start_and_while_it_runs(
        embedded, test_web_server):
    env = embedded_env(embedded, test_web_server.proxy_url)
    first_log, web_log, second_log = (embedded / name for name in ("first.log", "web.log", "second.log"))
    first = killed_while_fetching(env, first_log, embedded, crawl_start_args(test_web_server, "first"))

    web = start(env, web_log, "runserver", "--noreload", f"127.0.0.1:{free_port()}")
    try:
        taken = wait_for(f"crawl {first['id']} fetching again once the web server started",
                         fetching_more(embedded, first["id"], first["pages_fetched"], runner_pid=web.pid),
                         processes=[web], logs=[web_log])
        assert f"process {first['killed_pid']} on host" in taken["status_message"], taken
        assert "which ran its steps, has ended" in taken["status_message"]

        second = killed_while_fetching(env, second_log, embedded, crawl_start_args(test_web_server, "second"),
                                       also=[web], also_logs=[web_log])
        wait_for(f"crawl {second['id']} taken over by the web server while it runs",
                 fetching_more(embedded, second["id"], second["pages_fetched"], runner_pid=web.pid),
                 processes=[web], logs=[web_log])
    finally:
        end(web)


def test_a_restarted_demo_takes_over_the_crawl_a_killed_demo_left_running(embedded):
    env = dict(embedded_env(embedded), DEMO_ADMIN_PASSWORD="demo-password-for-the-test")
    first_log, second_log = embedded / "demo1.log", embedded / "demo2.log"
    killed = killed_while_fetching(env, first_log, embedded, ["demo", "--size", "16", "--port", str(free_port())])
    demo = start(env, second_log, "demo", "--size", "16", "--port", str(free_port()))
    try:
        wait_for(f"crawl {killed['id']} of the killed demo fetching again in the new one",
                 fetching_more(embedded, killed["id"], killed["pages_fetched"], runner_pid=demo.pid),
                 processes=[demo], logs=[second_log])
        assert count_crawls(embedded) == 2  # the new demo's own crawl beside it
    finally:
        end(demo)
