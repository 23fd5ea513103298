"""The job health page: queues, workers and failed jobs (RQ), or the in-process workers."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from crawlweb.console_access import staff_console
from console.dashboard import job_health
from console.dashboard.crawl_waits import crawl_waits
from crawlweb.jobs.queueing import in_process_states, uses_redis


@never_cache
@staff_console
def jobs(request):
    if not uses_redis():
        return render(request, "dashboard/jobs.html", {"embedded": True, "in_process": in_process_states(),
                                                       "crawl_waits": crawl_waits()})
    context = {"embedded": False, "queues": job_health.queue_health(), "workers": job_health.worker_health(),
               "failed": job_health.failed_jobs(), "failed_shown": job_health.FAILED_SHOWN,
               "crawl_waits": crawl_waits()}
    return render(request, "dashboard/jobs.html", context)


ACTIONS = {
    "retry": (job_health.retry_failed, "requeued"),
    "delete": (job_health.delete_failed, "deleted"),
}


@staff_console
@require_POST
def failed_job_action(request, queue_name, job_id, action):
    if not uses_redis() or action not in ACTIONS:
        messages.error(request, f"Nothing to {action}: jobs run in-process." if not uses_redis()
                       else f"Unknown action {action!r}.")
        return redirect("jobs:index")
    act, done = ACTIONS[action]
    try:
        act(queue_name, job_id)
        messages.success(request, f"Job {job_id} of queue {queue_name} {done}.")
    except job_health.UnknownJob as error:
        messages.error(request, str(error))
    return redirect("jobs:index")


@staff_console
@require_POST
def clear_failed(request, queue_name):
    if not uses_redis():
        messages.error(request, "Nothing to clear: jobs run in-process.")
        return redirect("jobs:index")
    try:
        count = job_health.clear_failed(queue_name)
        messages.success(request, f"{count} failed jobs of queue {queue_name} deleted.")
    except job_health.UnknownJob as error:
        messages.error(request, str(error))
    return redirect("jobs:index")
