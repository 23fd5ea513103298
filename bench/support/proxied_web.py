"""The generated test web served on a loopback proxy, with this process's crawler routed through it."""
from __future__ import annotations

import os
from contextlib import contextmanager


@contextmanager
def proxied_test_web(web, real_sites_dir=None):
    """Serve ``web`` (plus the real sites under ``real_sites_dir``) and point HTTP_PROXY at it; yields the server."""
    from crawlweb.services.network import fetcher_for
    from crawlweb.testweb.server import TestWebServer

    server = TestWebServer(web, host="127.0.0.1", port=0, real_sites_dir=real_sites_dir)
    server.start()
    try:
        for name in ("HTTP_PROXY", "http_proxy"):
            os.environ[name] = server.proxy_url
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost,::1"
        fetcher_for.cache_clear()  # the shared Fetcher read the proxy settings when it was made
        yield server
    finally:
        server.stop()
