"""Every page a person can reach, in Chromium, as each role, over a real crawl of the test web
(tests/browser/page_walk.py lists them): each page shows to the roles that may open it and to no one
else (403 page, or the log-in page and back), axe-core finds no serious or critical violation on any
page a role is shown, and each role's menu links land where they say."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.axe import serious_violations
from tests.browser.page_walk import (ADMIN_LOGIN, HOME, LOGIN, ROLES, USERNAMES, build_world,
                                     reachable_pages)
from tests.labeling.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HOMES = {"evaluator": "/labeling/", "viewer": "/labeling/", "staff": "/"}
MENUS = {"visitor": ["Log in"], "evaluator": ["Labeling"], "viewer": ["Labeling", "Reports"],
         "staff": ["Crawls", "Labeling", "Reports", "Training", "Jobs", "Admin"]}


@pytest.fixture
def world(case_web_server, settings, tmp_path, django_user_model):
    settings.WARC_DIR = tmp_path / "warc"
    return build_world(case_web_server.truth(), django_user_model)


@pytest.fixture
def as_role(browser):
    """A fresh browser context per role, logged in at the one log-in page of every role."""
    opened = []

    def open_as(role: str, base: str):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        if role != "visitor":
            log_in(page, f"{base}/labeling/login/", USERNAMES[role])
        return page

    yield open_as
    for context in opened:
        context.close()


def log_in(page, url: str, username: str) -> None:
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")


def outcome(page, base: str, path: str):
    """GET ``path`` in the browser: the status shown, or where the role was sent (LOGIN, ADMIN_LOGIN, HOME)."""
    response = page.goto(base + path)
    page.wait_for_load_state("load")
    here = urlsplit(page.url)
    sent_back_to = parse_qs(here.query).get("next", [None])[0]
    if here.path == "/labeling/login/" != urlsplit(path).path:
        assert sent_back_to == path, page.url  # and back to the page after logging in
        return LOGIN
    if here.path == "/admin/login/":
        assert sent_back_to == path, page.url
        return ADMIN_LOGIN
    if path == "/" and here.path == "/labeling/":
        return HOME
    return response.status


def test_every_page_shows_to_the_roles_that_may_open_it_with_no_serious_accessibility_violation(
        as_role, live_server, world):
    pages = reachable_pages(world)
    wrong, violations, checked, shown = [], {}, set(), set()
    for role in ROLES:
        page = as_role(role, live_server.url)
        for reachable in pages:
            got = outcome(page, live_server.url, reachable.path)
            if got != reachable.gets[role]:
                wrong.append(f"{reachable.name} {reachable.path} as {role}: {got}, expected {reachable.gets[role]}")
                continue
            if got == 403:
                assert "Not authorized" in page.locator("#forbidden h1").inner_text()
                assert page.locator("#forbidden a", has_text="Back to your home page").count() == 1
            # Each page as each role shown it; the 403 page and the log-in pages once per role.
            key = (role, reachable.name) if got in (200, 404) else (role, got)
            if got != HOME and key not in checked:
                checked.add(key)
                shown.add(reachable.name if got in (200, 404) else got)
                if found := serious_violations(page):
                    violations[f"{reachable.name} ({page.url}) as {role}"] = found
    assert not wrong, "\n".join(wrong)
    assert not violations, "\n".join(f"{where}:\n  " + "\n  ".join(lines) for where, lines in violations.items())
    assert shown == {p.name for p in pages} | {403, LOGIN, ADMIN_LOGIN}  # axe-core read every page


def nav_links(page) -> list[tuple[str, str]]:
    links = page.locator("header.topbar nav a")
    return [(links.nth(i).inner_text().strip(), links.nth(i).get_attribute("href")) for i in range(links.count())]


@pytest.mark.parametrize("role", ["evaluator", "viewer", "staff"])
def test_each_menu_link_of_a_signed_in_role_lands_on_its_page_and_others_give_the_403_page_with_a_way_back(
        as_role, live_server, world, role):
    base = live_server.url
    page = as_role(role, base)
    assert urlsplit(page.url).path == HOMES[role]  # where logging in lands
    links = nav_links(page)
    assert [text for text, _ in links] == MENUS[role]
    for text, href in links:  # each from the role's home (the admin's pages have a menu of their own)
        page.goto(base + HOMES[role])
        with page.expect_navigation() as landed:
            page.click(f"header.topbar nav a:text-is('{text}')")
        assert landed.value.status == 200, (text, href, landed.value.status)
        assert urlsplit(page.url).path == href, (text, page.url)
        assert "Not authorized" not in page.locator("h1").first.inner_text()
    page.goto(f"{base}/labeling/")
    with page.expect_navigation():
        page.click("header.topbar a.brand")
    assert urlsplit(page.url).path == HOMES[role]

    refused = [p for p in reachable_pages(world) if p.gets[role] == 403]
    assert bool(refused) == (role != "staff")
    for reachable in refused:  # typed by hand: the 403 page, and its button leads home
        response = page.goto(base + reachable.path)
        assert response.status == 403, reachable.name
        assert USERNAMES[role] in page.locator("#forbidden").inner_text()
        with page.expect_navigation():
            page.click("#forbidden a:text('Back to your home page')")
        assert urlsplit(page.url).path == HOMES[role], reachable.name


def test_a_visitor_sees_only_log_in_and_goes_to_the_page_asked_for_after_logging_in(as_role, live_server, world):
    base = live_server.url
    page = as_role("visitor", base)
    page.goto(f"{base}/labeling/login/")
    assert [text for text, _ in nav_links(page)] == MENUS["visitor"]
    with page.expect_navigation():
        page.click("header.topbar nav a:text-is('Log in')")
    assert urlsplit(page.url).path == "/labeling/login/"

    crawl_page = f"/crawls/{world['crawl'].pk}/"
    assert outcome(page, base, crawl_page) == LOGIN
    page.fill("#id_username", "operator")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert urlsplit(page.url).path == crawl_page and world["crawl"].name in page.locator("h1").inner_text()

    page.context.clear_cookies()
    judging = f"/labeling/{world['evaluation'].pk}/judge/"
    assert outcome(page, base, judging) == LOGIN
    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert urlsplit(page.url).path == judging and page.locator("#card").count() == 1
