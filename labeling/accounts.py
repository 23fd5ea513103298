"""Accounts of the labeling roles, made from the command line (manage.py evaluation add-evaluator):
one step instead of two admin screens (add the user, then tick the group)."""
from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from labeling.permissions import EVALUATORS


class AccountError(ValueError):
    """The account cannot be made as asked; the message says why. Nothing was created."""


def one_time_password() -> str:
    """A random password to hand over once (about 96 bits)."""
    return secrets.token_urlsafe(12)


def _problems(error: ValidationError) -> str:
    return " ".join(error.messages)


@transaction.atomic
def add_evaluator(username: str, email: str, password: str):
    """A new user in the evaluators group, with ``password``; raises AccountError for a taken or
    malformed name, a malformed e-mail address or a password the validators refuse."""
    users = get_user_model()
    field = users._meta.get_field(users.USERNAME_FIELD)
    try:
        field.clean(username, None)
    except ValidationError as error:
        raise AccountError(f"bad user name {username!r}: {_problems(error)}") from None
    if users.objects.filter(**{f"{users.USERNAME_FIELD}__iexact": username}).exists():
        raise AccountError(f"user {username!r} already exists; nothing was changed "
                           "(the admin's Users page edits an existing user's groups)")
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            raise AccountError(f"bad e-mail address {email!r}: {_problems(error)}") from None
    if not password:
        raise AccountError("empty password: give one on standard input, or leave out --password-stdin "
                           "for a generated one")
    user = users(**{users.USERNAME_FIELD: username}, email=email)
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise AccountError(f"password refused: {_problems(error)}") from None
    user.set_password(password)
    user.save()
    user.groups.add(Group.objects.get_or_create(name=EVALUATORS)[0])
    return user
