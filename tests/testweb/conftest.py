"""Fixtures for the test-web tests: one generated web served on a loopback proxy, and a
client that reaches it the way the crawler does (requests with an http proxy)."""
from __future__ import annotations

import pytest
import requests

from crawlweb.testweb.generator import generate_web
from crawlweb.testweb.server import TestWebServer

SLOW_DELAY_S = 0.4


@pytest.fixture(scope="session")
def web():
    return generate_web(seed=7, size=24, pages_per_site=8, slow_delay_s=SLOW_DELAY_S)


@pytest.fixture(scope="session")
def truth(web):
    return web.truth()


@pytest.fixture(scope="session")
def server(web):
    with TestWebServer(web) as running:
        yield running


@pytest.fixture(scope="session")
def client(server):
    """GET/HEAD through the proxy, without following redirects unless asked."""
    session = requests.Session()
    session.trust_env = False  # only our proxy, whatever the environment says
    session.proxies = {"http": server.proxy_url}

    def fetch(url, method="GET", allow_redirects=False, **kwargs):
        kwargs.setdefault("timeout", 15)
        return session.request(method, url, allow_redirects=allow_redirects, **kwargs)

    yield fetch
    session.close()
