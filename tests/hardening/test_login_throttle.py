"""Password guessing: failed logins are counted per account from one address and per address, then
refused for a while; a guesser cannot lock the operator out, and every web process counts the same."""
import logging
import uuid

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-password-1"
LOCKED = "Too many failed logins from this address"


@pytest.fixture
def limits(settings):
    settings.LOGIN_MAX_FAILURES_PER_ACCOUNT = 3
    settings.LOGIN_MAX_FAILURES_PER_ADDRESS = 5
    settings.LOGIN_LOCKOUT_SECONDS = 60
    return settings


def fresh_address() -> str:
    """Counts are shared (Redis when set): each test guesses from its own address with its own accounts."""
    n = uuid.uuid4().int
    return f"10.{n % 250}.{n // 250 % 250}.{n // 62500 % 250 + 1}"


def person(django_user_model, **extra):
    return django_user_model.objects.create_user(f"user-{uuid.uuid4().hex[:10]}", password=PASSWORD, **extra)


def log_in(client, url, username, password, address):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("login_url, staff", [("labeling:login", False), ("admin:login", True)])
def test_an_account_is_locked_from_the_guessing_address_even_for_the_right_password(
        client, django_user_model, limits, caplog, login_url, staff):
    user = person(django_user_model, is_staff=staff)
    url, address = reverse(login_url), fresh_address()
    with caplog.at_level(logging.WARNING, logger="crawlweb.login"):
        for _ in range(3):
            response = log_in(client, url, user.username, "wrong", address)
            assert response.status_code == 200 and LOCKED not in response.content.decode()
        response = log_in(client, url, user.username, PASSWORD, address)
    assert response.status_code == 200
    assert LOCKED in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert f"failed login for '{user.username}' from {address} (account 3/3" in caplog.text
    assert f"login refused for '{user.username}'" in caplog.text


@pytest.mark.parametrize("login_url, staff", [("labeling:login", False), ("admin:login", True)])
def test_a_guesser_elsewhere_cannot_keep_the_operator_out(client, django_user_model, limits, login_url, staff):
    operator = person(django_user_model, is_staff=staff)
    url, guesser = reverse(login_url), fresh_address()
    for _ in range(3):
        log_in(client, url, operator.username, "wrong", guesser)
    assert LOCKED in log_in(client, url, operator.username, PASSWORD, guesser).content.decode()
    response = log_in(client, url, operator.username, PASSWORD, fresh_address())  # the operator, at their desk
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_an_address_is_locked_after_failures_on_many_accounts(client, django_user_model, limits):
    url, address = reverse("labeling:login"), fresh_address()
    for _ in range(5):
        log_in(client, url, f"guess-{uuid.uuid4().hex[:8]}", "wrong", address)
    victim = person(django_user_model)
    assert LOCKED in log_in(client, url, victim.username, PASSWORD, address).content.decode()
    response = log_in(client, url, victim.username, PASSWORD, fresh_address())  # elsewhere, the account is fine
    assert response.status_code == 302


def test_a_success_clears_the_accounts_count(client, django_user_model, limits):
    user = person(django_user_model)
    url, address = reverse("labeling:login"), fresh_address()
    for _ in range(2):
        log_in(client, url, user.username, "wrong", address)
    assert log_in(client, url, user.username, PASSWORD, address).status_code == 302
    client.logout()
    for _ in range(2):
        log_in(client, url, user.username, "wrong", address)
    assert log_in(client, url, user.username, PASSWORD, address).status_code == 302


def test_behind_a_proxy_the_named_header_gives_the_address(client, django_user_model, limits):
    limits.CLIENT_IP_HEADER = "X-Forwarded-For"
    url, proxy, guesser = reverse("labeling:login"), fresh_address(), fresh_address()
    for _ in range(5):
        client.post(url, {"username": "nobody-" + uuid.uuid4().hex[:6], "password": "x"}, REMOTE_ADDR=proxy,
                    HTTP_X_FORWARDED_FOR=f"203.0.113.9, {guesser}")
    someone = person(django_user_model)
    response = client.post(url, {"username": someone.username, "password": PASSWORD}, REMOTE_ADDR=proxy,
                           HTTP_X_FORWARDED_FOR=fresh_address())
    assert response.status_code == 302  # the proxy's own address is not what was locked


@pytest.mark.django_db(transaction=True)
def test_without_redis_two_web_processes_count_the_same_failures(tmp_path):
    """`gunicorn -w 4` without Redis: each process counted its own failures, so 20 wrong passwords
    were tried before every process refused (5 intended). Two servers over one embedded database:
    three failures on the first lock the account from that address on the second."""
    import os
    import re
    import subprocess
    import sys

    import requests

    from tests.process_servers import free_port, wait_for_http

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(VAR_DIR=str(tmp_path), LOGIN_MAX_FAILURES_PER_ACCOUNT="3", SECRET_KEY="x" * 50)
    manage = [sys.executable, "manage.py"]
    subprocess.run(manage + ["migrate", "-v0"], env=env, check=True, timeout=120)
    subprocess.run(manage + ["shell", "-c", "from django.contrib.auth.models import User; "
                             f"User.objects.create_user('operator', password='{PASSWORD}')"],
                   env=env, check=True, timeout=60)
    ports = [free_port(), free_port()]
    servers = [subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "1", "-b", f"127.0.0.1:{port}",
                                 "crawlweb.wsgi"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for port in ports]
    try:
        for port in ports:
            wait_for_http(f"http://127.0.0.1:{port}/labeling/login/", timeout=60)

        def attempt(port, password):
            session = requests.Session()
            url = f"http://127.0.0.1:{port}/labeling/login/"
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', session.get(url, timeout=10).text)[1]
            return session.post(url, data={"username": "operator", "password": password,
                                           "csrfmiddlewaretoken": token},
                                headers={"Referer": url}, allow_redirects=False, timeout=10)

        for _ in range(3):
            assert attempt(ports[0], "wrong").status_code == 200
        refused = attempt(ports[1], PASSWORD)
        assert refused.status_code == 200 and LOCKED in refused.text
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
