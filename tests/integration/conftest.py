import pytest

JOB_MODES = [pytest.param("rq", marks=pytest.mark.services), "thread", "sync"]


@pytest.fixture(params=JOB_MODES)
def job_mode(request, settings, empty_queues):
    """Run the test once per way jobs can run: RQ on real Redis, an in-process thread, synchronously."""
    mode = request.param
    if mode == "rq":
        settings.REDIS_URL = settings.RQ_QUEUES["crawl"]["URL"]
    else:
        settings.REDIS_URL = None
        settings.JOBS_INPROCESS_MODE = mode
    return mode
