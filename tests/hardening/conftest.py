"""Fixtures of the hardening tests."""
import pytest

from bench.support.fuzz_crawl import FUZZ_SETTINGS


@pytest.fixture
def fuzz_settings(settings, crawl_settings, through_test_web):
    """The test web's server, the crawler routed through it with the fuzz crawls' settings, jobs synchronous."""
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    for name, value in FUZZ_SETTINGS.items():
        setattr(settings, name, value)
    return through_test_web
