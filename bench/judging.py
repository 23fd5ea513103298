"""Benchmark: a judgment's round trip through the real judging views, over HTTP on loopback.

    .venv/bin/python bench/judging.py [--quick] [--evaluators K] [--pause P] [--saturating Z] [--seconds S] [--keep-db]

Two runs on one server: the timed run (RESULT judge_p50_ms / judge_p95_ms), K evaluators (default
16) who each read a card for P seconds on average (default 1 s, uniform 0.5–1.5 P: a brisk human
reads a pair of pages for several seconds, so 16 such evaluators press keys faster than a room of
a hundred real ones); then the saturation run, Z more evaluators (default 4) answering without any
pause, which on this 2-core machine keeps both cores busy: its round trip measures how long an
answer waits for a free worker, and its judgments per second the server's capacity
(saturated_p95_ms, saturated_judgments_per_s).

1. Creates a PostgreSQL database of its own (``bench_judging_<pid>`` on the server of
   ``BENCH_PG_URL``, default postgres://postgres@127.0.0.1:5432/postgres), migrates it, and
   inserts a crawl's worth of candidate pairs in bulk: 100,000 (``--quick``: 20,000) over 8 methods,
   kept and removed, pointing at a pool of stored Serbian/English page pairs with real-length text
   (so the card's paragraph alignment has work to do), then ANALYZEs it (a running deployment has
   autovacuum's statistics; a freshly bulk-loaded table has none, and the plans differ).
2. Samples an evaluation from them with the project's own code (labeling.creation, stratified by
   method and filter verdict, 385 per stratum, 20 % overlap) for K + Z evaluators.
3. Starts a real server on a free loopback port (gunicorn with W sync workers when installed, as
   deployed, or with ``--threads T`` > 1 gthread workers of T threads and keep-alive connections;
   else ``manage.py runserver --noreload``, which connects to the database per request),
   logs each evaluator in through the login form (session cookie, CSRF token), and lets K threads
   judge concurrently as the browser does: POST the key to the card's answer URL with the
   ``HX-Request`` header and get the next card back. Before timing, each evaluator loads the card
   a few times (every worker has imported the code, compiled the templates and connected to the
   database, as in a server that has been running), and all start together (a barrier). Each
   thread stops after its judgment budget or after S seconds, whichever comes first.
4. Measures each round trip (request sent → next card received: the judgment stored and the next
   item rendered; a sync worker closes the connection after each response, so every round trip
   includes its TCP connect, as a browser's would), checks every answer showed a new card and
   every answer sent was stored once.
   The CPU time of this process (the evaluators' threads: a stand-in for browsers that, unlike
   them, shares the server's cores) per judgment is printed beside the server's.
   The time each answer spent in the server's worker (gunicorn's access log, ``%(D)s``: no
   connect, no wait for a free worker) and the CPU time the server's workers and their PostgreSQL
   backends spent, per judgment, are printed too (bench/support/cpu_meter.py): on a shared, loaded
   machine they move far less than the round trip.
5. In-process probe: 40 (quick: 20) more answers through Django's test client (no HTTP, no other
   evaluator): the queries of one round trip and the time the server spends on it. Drops the database.

Last line: RESULT judge_p50_ms=<float> judge_p95_ms=<float> saturated_p95_ms=<float> saturated_judgments_per_s=<float>
(target: judge_p95_ms < 50 ms).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.support.cpu_meter import CpuMeter  # noqa: E402
from bench.support.server_timing import gunicorn_options, line_count, server_milliseconds  # noqa: E402, F401

METHODS = ["local", "hreflang", "deep", "rescue_global"]
WORDS_SR = ("град влада закон народ развој пројекат година школа култура подршка сарадња економија "
            "grad vlada zakon narod razvoj projekat godina škola kultura podrška saradnja ekonomija").split()
WORDS_EN = ("city government law people development project year school culture support cooperation "
            "economy region public service report meeting council budget").split()
KEYS = ["y", "y", "y", "n", "1", "3", "p"]  # what the simulated evaluators press, mostly "parallel"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer pairs and a shorter run (under 60 s)")
    parser.add_argument("--pairs", type=int, help="candidate pairs to insert (default 100,000; quick 20,000)")
    parser.add_argument("--evaluators", type=int, default=16, help="concurrent evaluators (threads) of the timed "
                                                                    "run (default 16)")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds an evaluator reads a card before the key, "
                                                                 "on average (uniform 0.5–1.5 times it; default 1)")
    parser.add_argument("--saturating", type=int, default=4, help="evaluators of the saturation run that follows, "
                                                                  "answering without pause (default 4; 0: none)")
    parser.add_argument("--saturating-seconds", type=float, help="its time limit (default 30; quick 5)")
    parser.add_argument("--judgments", type=int, help="judgments per evaluator at most (default 300; quick 60)")
    parser.add_argument("--seconds", type=float, help="judging time limit (default 120; quick 10)")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (gunicorn; default 2, "
                                                               "one per core of the 2-core machine)")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker: 1 = sync workers (default), "
                                                                 "more = gthread workers with keep-alive")
    parser.add_argument("--keep-db", action="store_true", help="leave the database for inspection")
    args = parser.parse_args()
    args.pairs = args.pairs or (20_000 if args.quick else 100_000)
    args.judgments = args.judgments or (60 if args.quick else 300)
    args.seconds = args.seconds or (10.0 if args.quick else 120.0)
    args.saturating_seconds = args.saturating_seconds or (5.0 if args.quick else 30.0)
    if not 1 <= args.evaluators <= 32 or not 0 <= args.saturating <= 16:
        parser.error("--evaluators must be between 1 and 32, --saturating between 0 and 16")
    if not 0 <= args.pause <= 60 or not 1 <= args.saturating_seconds <= 600:
        parser.error("--pause must be 0–60 s and --saturating-seconds 1–600")
    if not 1 <= args.workers <= 8:
        parser.error("--workers must be between 1 and 8")
    if not 1 <= args.threads <= 16:
        parser.error("--threads must be between 1 and 16")
    if not 1 <= args.judgments <= 2000 or not 1 <= args.seconds <= 600:
        parser.error("--judgments must be 1–2000 and --seconds 1–600")
    return args


def create_database(server_url: str, name: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + "/" + name


def drop_database(server_url: str, name: str) -> None:
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def paragraphs(rng: random.Random, words: list[str], count: int) -> str:
    return "\n\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(25, 60))).capitalize() + "."
                       for _ in range(count))


def populate(n_pairs: int, n_evaluators: int, seed: int = 5):
    """The crawl, its page pool, n_pairs candidate pairs, the evaluators and the evaluation."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from crawlweb.models import Crawl, Host, Page, Site
    from evaluation.models import CandidatePair
    from labeling.creation import create_evaluation

    rng = random.Random(seed)
    crawl = Crawl.objects.create(name="judging bench")
    sites = [Site.objects.create(name=f"site{i}.rs") for i in range(50)]
    hosts = [Host.objects.create(name=s.name, site=s) for s in sites]
    now = timezone.now()
    pool = []
    for i in range(400):  # 400 page pairs, each with 6–10 paragraphs a side
        site, host = sites[i % 50], hosts[i % 50]
        count = rng.randint(6, 10)
        for lang, words in (("sr", WORDS_SR), ("en", WORDS_EN)):
            pool.append(Page(crawl=crawl, site=site, host=host, url=f"http://{site.name}/{lang}/p{i}",
                             final_url=f"http://{site.name}/{lang}/p{i}", status_code=200, md5=f"{lang}{i:030d}",
                             language=lang, script="Latn", title=f"Page {i} ({lang})",
                             text=paragraphs(rng, words, count), fetched_at=now))
    pages = Page.objects.bulk_create(pool, batch_size=400)
    started = time.perf_counter()
    batch = []
    for i in range(n_pairs):
        source, target = pages[2 * (i % 400)], pages[2 * (i % 400) + 1]
        site = sites[i % 50]
        batch.append(CandidatePair(crawl=crawl, site=site, source_url=f"http://{site.name}/sr/{i}",
                                   target_url=f"http://{site.name}/en/{i}", source_page=source, target_page=target,
                                   method=METHODS[i % len(METHODS)], kept=rng.random() < 0.8,
                                   similarity=rng.random(), score=rng.random(), source_language="sr",
                                   target_language="en", reason="bench"))
        if len(batch) == 5000:
            CandidatePair.objects.bulk_create(batch)
            batch = []
    CandidatePair.objects.bulk_create(batch)
    insert_s = time.perf_counter() - started
    evaluators = []
    group = Group.objects.get(name="evaluators")
    for i in range(n_evaluators):
        user = User.objects.create_user(f"judge{i}", password=f"bench-pw-{i}")
        user.groups.add(group)
        evaluators.append(user)
    started = time.perf_counter()
    evaluation = create_evaluation(name="Bench evaluation", what="pairs", crawls=[crawl], stratify_by="method",
                                   sample_size=385, seed=seed, overlap=0.2, purpose="estimate", evaluators=evaluators)
    sample_s = time.perf_counter() - started
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return evaluation, insert_s, sample_s


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(port: int, workers: int, threads: int = 1, access_log: Path | None = None) -> list[str]:
    """gunicorn when installed, as a deployment would run: sync workers (one request at a time each,
    the connection closed after each response), or with ``threads`` > 1 gthread workers (that many
    requests in flight per worker, keep-alive connections); each thread keeps its database
    connection. Without gunicorn, Django's runserver, which opens a connection per request."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if gunicorn.exists():
        model = ["--worker-class", "gthread", "--threads", str(threads)] if threads > 1 else ["--worker-class", "sync"]
        # The workers' heartbeat file in memory, as gunicorn's FAQ advises: on a disk-backed /tmp its
        # fchmod after each request can wait behind the disk's journal (PostgreSQL commits here).
        heartbeat = ["--worker-tmp-dir", "/dev/shm"] if Path("/dev/shm").is_dir() else []
        return [str(gunicorn), "crawlweb.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers), *model,
                *heartbeat, "--log-level", "warning", *(gunicorn_options(access_log) if access_log else [])]
    return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]


def start_server(env: dict, port: int, workers: int, log_path: Path, threads: int = 1,
                 access_log: Path | None = None) -> subprocess.Popen:
    log = open(log_path, "wb")
    command = server_command(port, workers, threads, access_log)
    print("server:", " ".join(Path(command[0]).name if i == 0 else c for i, c in enumerate(command)))
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}; see {log_path}")
        try:
            requests.get(f"http://127.0.0.1:{port}/labeling/login/", timeout=5, proxies={"http": None})
            return server
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"the server did not answer within 30 s; see {log_path}")


ASSIGNMENT = re.compile(r'data-assignment="(\d+)"')


class Evaluator(threading.Thread):
    """One evaluator in a browser: logs in, opens the card, then presses keys until done."""

    def __init__(self, base: str, evaluation_id: int, index: int, budget: int, deadline: float, warmup: int,
                 ready: threading.Barrier, pause: float = 0.0):
        super().__init__(daemon=True)
        self.ready, self.pause = ready, pause
        self.base, self.evaluation_id, self.index, self.warmup = base, evaluation_id, index, max(1, warmup)
        self.budget, self.deadline = budget, deadline
        self.timings: list[float] = []
        self.error = ""
        self.rng = random.Random(index)

    def run(self):
        try:
            self._judge()
        except Exception as error:  # reported by the main thread
            self.error = f"{type(error).__name__}: {error}"

    def _judge(self):
        session = requests.Session()
        session.trust_env = False  # loopback only, never through a proxy
        session.get(f"{self.base}/labeling/login/").raise_for_status()
        response = session.post(f"{self.base}/labeling/login/", data={
            "username": f"judge{self.index}", "password": f"bench-pw-{self.index}",
            "csrfmiddlewaretoken": session.cookies["csrftoken"], "next": f"/labeling/{self.evaluation_id}/judge/"},
            headers={"Referer": f"{self.base}/labeling/login/"}, allow_redirects=False)
        if response.status_code != 302 or "sessionid" not in session.cookies:
            raise RuntimeError("login failed")
        for _ in range(self.warmup):
            page = session.get(f"{self.base}/labeling/{self.evaluation_id}/judge/").text
        self.ready.wait(60)  # every evaluator warm: the CPU meter starts
        headers = {"HX-Request": "true", "X-CSRFToken": session.cookies["csrftoken"],
                   "Referer": f"{self.base}/labeling/{self.evaluation_id}/judge/"}
        while len(self.timings) < self.budget and time.monotonic() < self.deadline:
            found = ASSIGNMENT.search(page)
            if not found:
                return  # queue done
            if self.pause:  # reading the card: uniform around the mean, so the evaluators drift apart
                time.sleep(min(self.rng.uniform(0.5, 1.5) * self.pause, max(0.0, self.deadline - time.monotonic())))
            shown = f"{time.time():.3f}"
            started = time.perf_counter()
            response = session.post(f"{self.base}/labeling/assignments/{found.group(1)}/answer/",
                                    data={"key": self.rng.choice(KEYS), "shown": shown}, headers=headers)
            self.timings.append((time.perf_counter() - started) * 1000.0)
            response.raise_for_status()
            page = response.text
            following = ASSIGNMENT.search(page)
            if following and following.group(1) == found.group(1):
                raise RuntimeError(f"assignment {found.group(1)} was shown again after its answer")


def in_process_probe(evaluation_id: int, answers: int = 40) -> tuple[int, list[float]]:
    """The last evaluator's next answers through Django's test client: queries and milliseconds."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from django.db.models import Count

    # The evaluator with the fewest judgments, so the probe has cards left (the saturation run may
    # have judged its evaluators' whole queues).
    user = (User.objects.filter(username__startswith="judge").annotate(done=Count("labeling_assignments__judgment"))
            .order_by("done", "id").first())
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    page = client.get(f"/labeling/{evaluation_id}/judge/").content.decode()
    timings, queries = [], 0
    for i in range(answers + 1):
        found = ASSIGNMENT.search(page)
        if not found:
            break
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            response = client.post(f"/labeling/assignments/{found.group(1)}/answer/",
                                   {"key": "y", "shown": f"{time.time():.3f}"}, HTTP_HX_REQUEST="true")
        if i:  # the first one warms this process up
            timings.append((time.perf_counter() - started) * 1000.0)
            queries = max(queries, len(captured))
        if response.status_code != 200:
            raise SystemExit(f"in-process answer failed with {response.status_code}")
        page = response.content.decode()
    return queries, timings


@dataclass
class Phase:
    timings: list[float]
    wall: float
    client_cpu: float
    web_s: float
    database_s: float
    in_worker: list[float]


def judge_phase(base: str, evaluation_id: int, indices, *, workers: int, server_pid: int, database: str,
                access_log: Path, pause: float, seconds: float, budget: int) -> Phase:
    """Evaluators ``indices`` log in, warm up and then judge together for ``seconds`` (or ``budget``
    judgments each), pausing ``pause`` s on average before each key; the server's CPU is metered."""
    indices = list(indices)
    ready = threading.Barrier(len(indices) + 1)
    deadline = time.monotonic() + seconds + 30  # warming up is bounded by the barrier's 60 s
    evaluators = [Evaluator(base, evaluation_id, i, budget, deadline, warmup=2 * workers, ready=ready,
                            pause=pause) for i in indices]
    for e in evaluators:
        e.start()
    ready.wait(60)
    for e in evaluators:
        e.deadline = time.monotonic() + seconds
    warm_lines = line_count(access_log)  # the logins and warm-up loads are not timed
    meter = CpuMeter(server_pid, database)
    meter.poll()
    client_cpu = time.process_time()  # the evaluators' threads: the stand-in for browsers shares the cores
    started = time.perf_counter()
    while any(e.is_alive() for e in evaluators) and time.perf_counter() - started < seconds + 30:
        time.sleep(0.5)
        meter.poll()
    wall = time.perf_counter() - started
    client_cpu = time.process_time() - client_cpu
    errors = [e.error for e in evaluators if e.error]
    if errors:
        raise SystemExit("evaluator failed: " + "; ".join(errors))
    web_s, database_s = meter.seconds()
    in_worker = [ms for (method, _path), values in server_milliseconds(access_log, warm_lines).items()
                 if method == "POST" for ms in values]
    return Phase([t for e in evaluators for t in e.timings], wall, client_cpu, web_s, database_s, in_worker)


def report_phase(phase: Phase, args, title: str) -> None:
    timings, n = phase.timings, len(phase.timings)
    if not timings:
        raise SystemExit(f"{title}: no judgment was made")
    print(f"{title}: {len(timings)} judgments in {phase.wall:.1f} s ({len(timings) / phase.wall:.1f} judgments/s "
          f"in all); round trip p50 {statistics.median(timings):.1f} ms, p95 {percentile(timings, 0.95):.1f} ms, "
          f"max {max(timings):.1f} ms (target p95 < 50 ms)")
    if phase.in_worker:
        print(f"  in the server's workers (gunicorn access log, request read → response written): "
              f"p50 {statistics.median(phase.in_worker):.1f} ms, p95 {percentile(phase.in_worker, 0.95):.1f} ms, "
              f"max {max(phase.in_worker):.1f} ms")
    print(f"  CPU per judgment: {1000 * (phase.web_s + phase.database_s) / n:.1f} ms = web server "
          f"({args.workers} gunicorn workers × {args.threads} threads) {1000 * phase.web_s / n:.1f} ms + PostgreSQL "
          f"backends {1000 * phase.database_s / n:.1f} ms; the evaluators' client (this process, on the same cores) "
          f"{1000 * phase.client_cpu / n:.1f} ms")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main():
    args = parse_args()
    server_url = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    name = f"bench_judging_{os.getpid()}"
    total_started = time.perf_counter()
    database_url = create_database(server_url, name)
    os.environ.update({"DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "crawlweb.settings"})
    os.environ.pop("REDIS_URL", None)
    server = None
    try:
        import django
        from django.core.management import call_command
        django.setup()
        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        print(f"database {name}: migrated in {time.perf_counter() - started:.1f} s")
        evaluation, insert_s, sample_s = populate(args.pairs, args.evaluators + args.saturating)
        from labeling.models import Assignment, Judgment
        items = evaluation.items.count()
        print(f"{args.pairs:,} candidate pairs inserted in {insert_s:.1f} s; evaluation of {items} items "
              f"({Assignment.objects.filter(evaluation=evaluation).count()} assignments) sampled in {sample_s:.2f} s")
        from django.db import connections
        connections.close_all()
        port = free_port()
        env = {**os.environ, "JOBS_INPROCESS_MODE": "sync", "DEBUG": "0"}
        log_path = Path(os.environ.get("VAR_DIR", ROOT / "var")) / "bench-judging-server.log"
        log_path.parent.mkdir(parents=True, exist_ok=True)
        access_log = log_path.with_name("bench-judging-access.log")
        access_log.unlink(missing_ok=True)
        server = start_server(env, port, args.workers, log_path, args.threads, access_log)
        print(f"load average before judging: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
              f"({os.cpu_count()} cores)")
        base = f"http://127.0.0.1:{port}"
        where = {"workers": args.workers, "server_pid": server.pid, "database": name, "access_log": access_log}
        paced = judge_phase(base, evaluation.pk, range(args.evaluators), **where, pause=args.pause,
                            seconds=args.seconds, budget=args.judgments)
        report_phase(paced, args, f"{args.evaluators} evaluators pausing {args.pause:g} s on average per card")
        saturated = None
        if args.saturating:  # evaluators of their own, so their queues are fresh
            saturated = judge_phase(base, evaluation.pk, range(args.evaluators, args.evaluators + args.saturating),
                                    **where, pause=0.0, seconds=args.saturating_seconds,
                                    budget=args.judgments)
            report_phase(saturated, args, f"saturation: {args.saturating} evaluators answering without pause")
        stored = Judgment.objects.filter(assignment__evaluation=evaluation).count()
        sent = len(paced.timings) + (len(saturated.timings) if saturated else 0)
        if stored != sent:
            raise SystemExit(f"{sent} answers sent but {stored} judgments stored")
        server.terminate()
        server.wait(10)
        server = None
        queries, inproc = in_process_probe(evaluation.pk, answers=20 if args.quick else 40)
        print(f"in-process (test client, no HTTP): {queries} queries per answer; p50 {statistics.median(inproc):.1f} ms, "
              f"p95 {percentile(inproc, 0.95):.1f} ms over {len(inproc)} answers")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        print(f"total {time.perf_counter() - total_started:.1f} s")
        p50, p95 = statistics.median(paced.timings), percentile(paced.timings, 0.95)
        extra = (f" saturated_p95_ms={percentile(saturated.timings, 0.95):.2f} "
                 f"saturated_judgments_per_s={len(saturated.timings) / saturated.wall:.1f}" if saturated else "")
        print(f"RESULT judge_p50_ms={p50:.2f} judge_p95_ms={p95:.2f}{extra}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        from django.db import connections
        connections.close_all()
        if not args.keep_db:
            drop_database(server_url, name)


if __name__ == "__main__":
    main()
