import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def browser():
    # The live server and the ORM run beside Playwright's event loop in this thread.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def staff_login(page, live_server, django_user_model):
    django_user_model.objects.create_superuser("operator", "op@example.org", "a-long-password-1")

    def login():
        page.goto(f"{live_server.url}/admin/login/?next=/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", "a-long-password-1")
        page.click("input[type=submit]")
        return page

    return login


@pytest.fixture
def case_web_server(monkeypatch, settings):
    """The generated test web with its judging cases (judging_cases.py) on a loopback proxy; jobs run
    synchronously, so a crawl started in the test is finished when start_crawl returns."""
    from crawlweb.services.network import fetcher_for
    from crawlweb.testweb.generator import generate_web
    from crawlweb.testweb.server import TestWebServer
    from tests.conftest import route_through

    server = TestWebServer(generate_web(seed=3, size=20, pages_per_site=6, judging_cases=True),
                           host="127.0.0.1", port=0)
    server.start()
    route_through(server, monkeypatch)
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    settings.CRAWLER_HOST_INTERVAL, settings.CRAWLER_BATCH_SIZE = 0.0, 16
    settings.CRAWLER_IDLE_FINISH_SECONDS = 3.0
    yield server
    server.stop()
    fetcher_for.cache_clear()
