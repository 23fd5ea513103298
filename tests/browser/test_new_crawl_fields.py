"""The New crawl form shows the fields of the chosen strategy, backlink providers and modules, marks
the required ones, and shows the whole strategy select; without JavaScript a button does the swap."""
import pytest
from playwright.sync_api import expect


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _field(page, name):
    return page.locator(f"#new-crawl [data-field={name}]")


def test_the_form_shows_the_chosen_strategys_fields_and_marks_the_required_ones(staff_login, live_server):
    page = staff_login()
    page.goto(f"{live_server.url}/crawls/new/")
    page.wait_for_function("window.htmx !== undefined")
    for hidden in ("topic_definition", "topic_cutoff", "backlink_providers", "edge_file", "backlink_url_template"):
        expect(_field(page, hidden)).to_have_count(0)
    for required in ("name", "page_budget", "strategy"):
        expect(_field(page, required).locator("label .required")).to_have_count(1)
    expect(_field(page, "host_interval").locator(".required")).to_have_count(0)
    page.fill("#id_name", "typed before the swap")
    page.select_option("#id_strategy", "focc")
    expect(_field(page, "topic_definition")).to_have_count(1)
    expect(_field(page, "topic_definition").locator("label .required")).to_have_count(1)
    expect(_field(page, "backlink_providers")).to_have_count(0)
    assert page.input_value("#id_name") == "typed before the swap", "the swap keeps what was typed"
    page.select_option("#id_strategy", "cobfc")
    expect(_field(page, "backlink_providers")).to_have_count(1)
    expect(_field(page, "topic_definition")).to_have_count(0)
    expect(_field(page, "backlink_url_template")).to_have_count(0)
    page.check("input[name=backlink_providers][value=http]")
    expect(_field(page, "backlink_url_template").locator("label .required")).to_have_count(1)
    assert page.input_value("#id_strategy") == "cobfc"


def test_the_strategy_select_shows_its_longest_choice_whole(staff_login, live_server):
    page = staff_login()
    for width in (1400, 1280, 1024):  # at 1,400 px the grid's column cut it to 310 px for a 351 px choice
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/crawls/new/")
        longest, shown = page.eval_on_selector("#id_strategy", """select => {
            const context = document.createElement('canvas').getContext('2d');
            const style = getComputedStyle(select);
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            return [Math.max(...[...select.options].map(o => context.measureText(o.text).width)), select.clientWidth];
        }""")
        assert shown >= longest + 20, f"at {width} px the select is {shown} px for a choice of {longest:.0f} px"


def test_without_javascript_a_button_shows_the_chosen_strategys_fields(browser, live_server, django_user_model):
    django_user_model.objects.create_superuser("operator", "op@example.org", "a-long-password-1")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/admin/login/?next=/crawls/new/")
        page.fill("#id_username", "operator")
        page.fill("#id_password", "a-long-password-1")
        page.click("input[type=submit]")
        page.wait_for_url("**/crawls/new/")
        expect(_field(page, "topic_definition")).to_have_count(0)
        page.fill("#id_name", "no script")
        page.select_option("#id_strategy", "focc")
        page.click("text=Show its fields")
        expect(_field(page, "topic_definition")).to_have_count(1)
        assert page.input_value("#id_strategy") == "focc" and page.input_value("#id_name") == "no script"
    finally:
        context.close()
