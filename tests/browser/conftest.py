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
