"""Steps shared by the browser tests of labeling: log in, read the judging card, press a key."""
import re

from tests.labeling.conftest import PASSWORD


def log_in(page, live_server, username):
    page.goto(f"{live_server.url}/labeling/login/?next=/labeling/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/labeling/$"))


def progress(page) -> str:
    return page.locator("#progress-count").inner_text().strip()


def shown_assignment(page) -> int:
    return int(page.locator("#card").get_attribute("data-assignment"))


def press(page, key: str, expect_progress: str):
    """Press a key and wait until the answer is in and htmx has settled the next card (a key
    pressed while a request is in flight is dropped on purpose: hx-sync drop)."""
    page.keyboard.press(key)
    page.wait_for_function("want => document.querySelector('#progress-count').innerText.trim() === want"
                           " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
                           arg=expect_progress)
