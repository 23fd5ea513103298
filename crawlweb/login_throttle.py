"""Failed logins are counted per account from one client address, and per address; past a limit,
logins to that account from that address, or any login from that address, are refused for a while,
with a message saying so, and every failure is logged.

Per account *and address*, not per account alone: five wrong passwords from anywhere locked any
account, the admin's included, so anyone could keep the operator out. Now a guesser locks only
themselves (their address after LOGIN_MAX_FAILURES_PER_ADDRESS tries on any accounts).

Both login pages use it: the admin's (console/admin.py sets admin.site.login_form) and the labeling
one (labeling/urls.py). Counts live in the "logins" cache: Redis when REDIS_URL is set, else a table of
the database, so every web process shares them. A correct password does not get through a lock:
otherwise guessing would go on until it succeeds. A success clears its account-and-address count (not
the address's).
"""
from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import caches
from django.core.exceptions import ValidationError

log = logging.getLogger("crawlweb.login")


def client_address(request) -> str:
    """REMOTE_ADDR, or the header a trusted proxy sets (CLIENT_IP_HEADER) when the site is behind one."""
    header = settings.CLIENT_IP_HEADER
    if header and request is not None:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        if value.strip():
            return value.split(",")[-1].strip()  # the proxy appends the address it saw last
    return (request.META.get("REMOTE_ADDR") if request is not None else "") or "unknown"


def _key(kind: str, value: str) -> str:
    return f"login-failures:{kind}:{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}"


def _account_key(username: str, address: str) -> str:
    return _key("account", f"{username.strip().lower()}\n{address}")


def _limits(username: str, address: str) -> list[tuple[str, int]]:
    return [(_account_key(username, address), settings.LOGIN_MAX_FAILURES_PER_ACCOUNT),
            (_key("address", address), settings.LOGIN_MAX_FAILURES_PER_ADDRESS)]


def is_locked(username: str, address: str) -> bool:
    cache = caches["logins"]
    return any((cache.get(key) or 0) >= limit for key, limit in _limits(username, address))


def record_failure(username: str, address: str) -> None:
    cache = caches["logins"]
    counts = []
    for key, limit in _limits(username, address):
        cache.add(key, 0, timeout=settings.LOGIN_LOCKOUT_SECONDS)  # the window starts at the first failure
        try:
            counts.append(f"{cache.incr(key)}/{limit}")
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)
            counts.append(f"1/{limit}")
    log.warning("failed login for %r from %s (account %s, address %s)", username, address, *counts)


def record_success(username: str, address: str) -> None:
    caches["logins"].delete(_account_key(username, address))


class ThrottledLoginMixin:
    """For an AuthenticationForm: refuse locked accounts and addresses, count failures."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request)
        if is_locked(username, address):
            log.warning("login refused for %r from %s: too many failed logins", username, address)
            minutes = max(1, round(settings.LOGIN_LOCKOUT_SECONDS / 60))
            raise ValidationError(f"Too many failed logins from this address (for this account, or for all "
                                  f"accounts); try again in {minutes} minutes.", code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError:
            record_failure(username, address)
            raise
        record_success(username, address)
        return cleaned


class ThrottledLoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass
