"""manage.py evaluation add-evaluator NAME: an evaluator in one step, who can log in and judge."""
import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from labeling.permissions import EVALUATORS

pytestmark = pytest.mark.django_db


def logs_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


def test_it_creates_an_evaluator_and_prints_a_one_time_password(django_user_model, capsys):
    call_command("evaluation", "add-evaluator", "vesna", "--email", "vesna@example.org")
    out = capsys.readouterr().out
    password = next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("password: "))
    user = django_user_model.objects.get(username="vesna")
    assert user.email == "vesna@example.org" and not user.is_staff
    assert list(user.groups.values_list("name", flat=True)) == [EVALUATORS]
    assert len(password) >= 16 and password not in user.password  # stored hashed, shown once
    assert logs_in("vesna", password)


def test_two_evaluators_get_different_passwords(capsys):
    call_command("evaluation", "add-evaluator", "a1")
    call_command("evaluation", "add-evaluator", "a2")
    passwords = [line for line in capsys.readouterr().out.splitlines() if line.startswith("password: ")]
    assert len(set(passwords)) == 2


def test_it_reads_the_password_from_stdin_and_prints_none(capsys):
    call_command("evaluation", "add-evaluator", "marko", "--password-stdin", stdin=io.StringIO("a secret phrase\n"))
    out = capsys.readouterr().out
    assert "a secret phrase" not in out and "password: " not in out and "marko" in out
    assert logs_in("marko", "a secret phrase")


def test_an_existing_user_is_refused_and_left_alone(django_user_model):
    ana = django_user_model.objects.create_user("ana", password="old-password")
    with pytest.raises(CommandError, match="user 'Ana' already exists; nothing was changed"):
        call_command("evaluation", "add-evaluator", "Ana")
    ana.refresh_from_db()
    assert ana.check_password("old-password") and not ana.groups.exists()
    assert django_user_model.objects.count() == 1


@pytest.mark.parametrize("name", ["has space", "sla/sh", "x" * 151, ""])
def test_a_bad_name_is_named_and_nothing_is_created(name, django_user_model):
    with pytest.raises(CommandError, match="bad user name"):
        call_command("evaluation", "add-evaluator", name)
    assert not django_user_model.objects.exists()


def test_a_bad_email_or_an_empty_password_creates_nothing(django_user_model):
    with pytest.raises(CommandError, match="bad e-mail address 'not-an-address'"):
        call_command("evaluation", "add-evaluator", "mila", "--email", "not-an-address")
    with pytest.raises(CommandError, match="empty password"):
        call_command("evaluation", "add-evaluator", "mila", "--password-stdin", stdin=io.StringIO("\n"))
    assert not django_user_model.objects.exists()
