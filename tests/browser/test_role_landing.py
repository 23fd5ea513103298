"""Each role in a real browser: where logging in lands it, which menu links it sees (every one of
them opens), and the 403 page's way back."""
import re

import pytest

from tests.labeling.conftest import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in_at(page, url: str, username: str) -> None:
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")


def menu(page) -> dict[str, str]:
    """Menu link text -> href."""
    links = page.locator("header.topbar nav a")
    return {links.nth(i).inner_text().strip(): links.nth(i).get_attribute("href") for i in range(links.count())}


def assert_every_menu_link_opens(page, live_server) -> None:
    for text, href in menu(page).items():
        response = page.request.get(f"{live_server.url}{href}", max_redirects=0)
        assert response.status == 200, (text, href, response.status)


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("operator", "op@example.org", PASSWORD)


def test_an_evaluator_lands_on_labeling_and_sees_only_what_they_may_open(page, live_server, django_user_model):
    make_user(django_user_model, "ana", "evaluators")
    log_in_at(page, f"{live_server.url}/labeling/login/", "ana")
    assert page.url == f"{live_server.url}/labeling/"
    assert page.locator("h1").first.inner_text() != "Not Found"
    links = menu(page)
    assert "Labeling" in links and not {"Crawls", "Admin", "Jobs", "Training"} & set(links), links
    assert_every_menu_link_opens(page, live_server)
    assert page.locator("a.brand").get_attribute("href") == "/labeling/"


def test_staff_land_on_the_dashboard_and_see_every_menu_link(page, live_server, staff):
    log_in_at(page, f"{live_server.url}/labeling/login/", "operator")
    assert page.url == f"{live_server.url}/"
    assert {"Crawls", "Labeling", "Jobs", "Admin"} <= set(menu(page))
    assert_every_menu_link_opens(page, live_server)


def test_login_goes_to_next_when_it_is_on_this_site(page, live_server, django_user_model):
    make_user(django_user_model, "ana", "evaluators")
    log_in_at(page, f"{live_server.url}/labeling/login/?next=/labeling/help/", "ana")
    assert page.url == f"{live_server.url}/labeling/help/"
    page.context.clear_cookies()
    log_in_at(page, f"{live_server.url}/labeling/login/?next=http://elsewhere.example/", "ana")
    assert page.url == f"{live_server.url}/labeling/"


def test_anonymous_visitors_see_only_the_log_in_link(page, live_server):
    page.goto(f"{live_server.url}/labeling/login/")
    assert menu(page) == {"Log in": "/labeling/login/"}


def test_the_403_page_says_why_and_leads_home(page, live_server, django_user_model):
    make_user(django_user_model, "ana", "evaluators")
    log_in_at(page, f"{live_server.url}/labeling/login/", "ana")
    response = page.goto(f"{live_server.url}/training/")  # the training page is the admins'
    assert response.status == 403
    assert "Not authorized" in page.locator("#forbidden h1").inner_text()
    assert "ana" in page.locator("#forbidden").inner_text()
    with page.expect_navigation():
        page.click("text=Back to your home page")
    assert page.url == f"{live_server.url}/labeling/"


def test_pages_name_an_icon_that_is_served_and_favicon_ico_leads_to_it(page, live_server):
    missing = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(f"{live_server.url}/labeling/login/")
    icon = page.locator("link[rel=icon]").get_attribute("href")
    served = page.request.get(f"{live_server.url}{icon}")
    assert served.status == 200 and served.headers["content-type"].startswith("image/svg+xml")
    fallback = page.request.get(f"{live_server.url}/favicon.ico")
    assert fallback.status == 200 and re.search(r"<svg", fallback.text())
    assert not missing, missing


def test_the_site_root_is_the_way_in_for_every_role(page, live_server, django_user_model, staff):
    make_user(django_user_model, "ana", "evaluators")
    page.goto(f"{live_server.url}/")
    assert page.url.startswith(f"{live_server.url}/labeling/login/")  # not the admin's staff-only log-in
    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/labeling/")
    page.goto(f"{live_server.url}/")  # signed in, an evaluator's / is their labeling home
    assert page.url == f"{live_server.url}/labeling/"
    page.context.clear_cookies()
    log_in_at(page, f"{live_server.url}/", "operator")
    assert page.url == f"{live_server.url}/" and "Crawls" in menu(page)
