"""Typed readers for settings that come from environment variables.

Each reader refuses a bad value at start-up with a message that names the variable and says
what is wrong, so a typo never turns into a silently different crawl. Pure: no Django imports.
"""
from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


class SettingError(Exception):
    """An environment variable holds a value the application cannot use."""


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str) -> str:
    return _raw(name) or default


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise SettingError(f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off")


def env_number(name: str, default: float, *, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False) -> float | int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value) if integer else float(value)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise SettingError(f"{name}={value!r} is not {kind}") from None
    if minimum is not None and number < minimum:
        raise SettingError(f"{name}={value!r} must be at least {minimum}")
    if maximum is not None and number > maximum:
        raise SettingError(f"{name}={value!r} must be at most {maximum}")
    return number


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = _raw(name)
    if value is None:
        return default
    if value not in choices:
        raise SettingError(f"{name}={value!r} is not one of: {', '.join(choices)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(name: str, url: str | None, sqlite_path: Path) -> dict:
    """A Django DATABASES entry from a URL such as postgres://user@127.0.0.1:5432/crawl.

    With no URL the embedded default is a SQLite file: no server to install.
    """
    if url is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(sqlite_path),
            # Jobs run in a thread beside the web server: wait for the write lock instead of
            # failing, and take it at BEGIN so two writers never deadlock on an upgrade.
            "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
            # Tests get a file too: an in-memory shared-cache database locks whole tables and ignores
            # the busy timeout, which the web server and the job thread would trip over.
            "TEST": {"NAME": str(sqlite_path.with_name(f"test_{os.getpid()}_{sqlite_path.name}"))},
        }
    parts = urlsplit(url)
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        database = unquote(parts.path.lstrip("/"))
        if not database:
            raise SettingError(f"{name}={url!r} names no database (expected postgres://user@host:5432/dbname)")
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        # No JIT compilation unless the URL asks for it (?options=...): it paid off for none of the
        # project's statements and cost 1.2-1.6 s per lease batch and 80-160 ms per dashboard poll at
        # 5M Targets, whose plans pass jit_above_cost through per-host subplans (docs/scale.md).
        options.setdefault("options", "-c jit=off")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": database,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if not path:
            raise SettingError(f"{name}={url!r} names no file (expected sqlite:////absolute/path.db)")
        return database_from_url(name, None, Path(path))
    raise SettingError(f"{name}={url!r}: unsupported scheme {parts.scheme!r} (use postgres:// or sqlite://)")


def redis_url(name: str) -> str | None:
    value = _raw(name)
    if value is None:
        return None
    if urlsplit(value).scheme not in ("redis", "rediss", "unix"):
        raise SettingError(f"{name}={value!r} is not a Redis URL (expected redis://host:6379/0)")
    return value


MIN_SECRET_KEY_LENGTH = 32


def secret_key(name: str, store: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept under var/ (never committed).

    A generated key belongs to this host alone: `check --deploy` says so (crawlweb/checks.py)."""
    value = _raw(name)
    if value is not None:
        if len(value) < MIN_SECRET_KEY_LENGTH:
            raise SettingError(f"{name} is too short: use at least {MIN_SECRET_KEY_LENGTH} characters")
        return value
    if not store.exists():
        generated = _create_key_once(store)
        if generated is not None:
            return generated
    return _stored_key(name, store)


def _stored_key(name: str, store: Path) -> str:
    try:
        stored = store.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise SettingError(f"cannot read {store}: {error}; delete it to have a new key generated, "
                           f"or set {name}") from None
    if len(stored) < MIN_SECRET_KEY_LENGTH:  # an emptied or truncated file
        raise SettingError(f"{store} holds no usable key ({len(stored)} characters, at least "
                           f"{MIN_SECRET_KEY_LENGTH} needed): delete it to have a new one generated, or set {name}")
    return stored


def _create_key_once(store: Path) -> str | None:
    """A new key written whole to a private file, then linked in as ``store`` only if no other process did
    first: workers starting together must never read a half-written file nor each keep a key of its own.
    None when another process won; its key is then the one to read."""
    store.parent.mkdir(parents=True, exist_ok=True)
    generated = secrets.token_urlsafe(50)
    descriptor, draft = tempfile.mkstemp(dir=store.parent, prefix=f".{store.name}.")  # mode 0600
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(generated)
        try:
            os.link(draft, store)
        except FileExistsError:
            return None
    finally:
        os.unlink(draft)
    return generated
