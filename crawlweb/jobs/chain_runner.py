"""Who runs a running crawl's steps in the embedded mode, and whether anyone still does.

Without REDIS_URL a crawl's step chain lives in the in-process job threads of the process that
queued it: the web server, the demo, `crawl start`. That process is recorded on the crawl
(Crawl.runner) whenever it queues the chains. When it dies (SIGKILL, a crash, Ctrl-C of `crawl
start`), the crawl stays running with nothing to run it: an orphan. A process on the same machine
tells an orphan by the runner's pid and start time (crawlweb/process_identity.py); one on another
machine sharing the database, by the runner's heartbeat, renewed by its watch every
CRAWLER_CHAIN_WATCH_SECONDS (crawlweb/jobs/embedded_watch.py).

With RQ workers no process owns a chain: the workers' chain watch (crawlweb/jobs/chain_watch.py)
looks after them, and nothing here applies.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from crawlweb.jobs.crawl_step import crawl_step, hand_back, in_process_lease_owners
from crawlweb.jobs.queueing import job_name, pending_crawl_jobs, uses_redis
from crawlweb.models import Crawl, Target
from crawlweb.process_identity import Liveness, liveness, parse, this_process

HEARTBEAT_MISSES = 3  # a runner on another machine unheard of for this many watch intervals is gone
DEFAULT_WATCH_S = 30.0  # the heartbeat's pace when the watch is off (CRAWLER_CHAIN_WATCH_SECONDS=0)


def runs_in_process_threads() -> bool:
    """Whether this process's jobs run in its own background threads, and end with it."""
    return not uses_redis() and settings.JOBS_INPROCESS_MODE == "thread"


def record_runner(crawl_id: int) -> None:
    """The crawl's chains about to be queued run in this process (embedded mode), or on RQ workers."""
    if uses_redis():
        Crawl.objects.filter(pk=crawl_id).exclude(runner="").update(runner="", runner_seen_at=None)
    else:
        Crawl.objects.filter(pk=crawl_id).update(runner=str(this_process()), runner_seen_at=timezone.now())


def is_mine(crawl: Crawl) -> bool:
    return crawl.runner == str(this_process())


def step_queued_here(crawl_id: int) -> bool:
    """Whether one of this process's in-process job threads holds a step of the crawl (queued or running)."""
    return bool(pending_crawl_jobs(crawl_id, ("crawl",)).get(job_name(crawl_step)))


def heartbeat_timeout() -> timedelta:
    return timedelta(seconds=HEARTBEAT_MISSES * (settings.CRAWLER_CHAIN_WATCH_SECONDS or DEFAULT_WATCH_S))


def why_orphaned(crawl: Crawl) -> str:
    """Why nothing runs the steps of this running crawl; "" when something does, when that cannot be
    told (jobs run synchronously, in another thread's hands), or when RQ workers run them."""
    if uses_redis() or crawl.state != Crawl.State.RUNNING:
        return ""
    if not crawl.runner:
        return "no process is recorded as running its steps"
    name = parse(crawl.runner)
    if name is None:
        return f"its runner {crawl.runner!r} names no process"
    if is_mine(crawl):
        if settings.JOBS_INPROCESS_MODE == "sync" or step_queued_here(crawl.pk):
            return ""
        return f"its steps stopped in this {name.describe()} (a step failed)"
    state = liveness(name)
    if state is Liveness.ENDED:
        return f"{name.describe()}, which ran its steps, has ended"
    if state is Liveness.ALIVE:
        return ""
    seen = crawl.runner_seen_at
    if seen is not None and timezone.now() - seen < heartbeat_timeout():
        return ""
    since = f"{timezone.localtime(seen):%Y-%m-%d %H:%M:%S %Z}" if seen else "it started them"
    return f"{name.describe()}, which ran its steps, has not said it lives since {since}"


def runner_gone(crawl: Crawl) -> str:
    """What the crawl page says of a running crawl whose runner is another process, gone (why_orphaned);
    "" otherwise. A chain that stopped in this very process is left to its watch, which waits to see it
    so twice: a page polled between two steps would otherwise show a runner gone that is not."""
    if not crawl.runner or is_mine(crawl):
        return ""
    return why_orphaned(crawl)


def hand_back_dead_leases(crawl: Crawl, runner: str) -> None:
    """The Targets a dead runner's steps held are leasable again at once, not when their leases run
    out (CRAWLER_LEASE_SECONDS): their hosts' busy clocks held up every crawl that shares them
    meanwhile. Only for a runner this machine saw end: one unheard of elsewhere may still fetch."""
    name = parse(runner)
    if name is None or liveness(name) is not Liveness.ENDED:
        return
    held = Target.objects.filter(crawl=crawl, state=Target.State.LEASED,
                                 lease_owner__startswith=in_process_lease_owners(name.host, name.pid))
    for owner in set(held.values_list("lease_owner", flat=True)):
        hand_back(crawl, owner)


def running_message(crawl: Crawl) -> str:
    """Why a running crawl cannot be resumed: its steps run."""
    if uses_redis() or not crawl.runner:
        return f"crawl {crawl.pk} is running; cannot go to running"
    name = parse(crawl.runner)
    where = "this process" if is_mine(crawl) else name.describe() if name else crawl.runner
    return (f"crawl {crawl.pk} is running: its steps run in {where}; nothing to resume "
            "(Pause stops them, Resume then runs them here)")
