"""HTTPS=1 turns every HTTPS protection on: Django's own deployment check finds nothing to warn about.
A deployment without SECRET_KEY is warned that its key was generated on that host alone."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(tmp_path, *args, **env):
    # A deployment's environment: none of the HTTPS settings under test, and not the async switch the
    # browser tests set in this process for Playwright (check --deploy rightly refuses it).
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("HTTPS", "PROXY_SSL_HEADER", "HSTS_SECONDS", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE",
                                  "SECRET_KEY")}
    environment.update(VAR_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3", **env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=120)


KEY = "a-deployment-key-set-by-its-operator-0123456789-abcdefghij"


def test_check_deploy_is_clean_with_https_on(tmp_path):
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", HTTPS="1", SECRET_KEY=KEY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_without_https_check_deploy_names_the_four_https_protections(tmp_path):
    result = manage(tmp_path, "check", "--deploy")
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in result.stderr + result.stdout


def test_the_proxy_header_is_trusted_only_when_named(tmp_path):
    show = ("from django.conf import settings as s; "
            "print(s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)")
    named = manage(tmp_path, "shell", "-c", show, HTTPS="1", PROXY_SSL_HEADER="X-Forwarded-Proto")
    assert named.stdout.strip().splitlines()[-1] == "('HTTP_X_FORWARDED_PROTO', 'https') True True 31536000", named.stderr
    unnamed = manage(tmp_path, "shell", "-c", show, HTTPS="1")
    assert unnamed.stdout.strip().splitlines()[-1] == "None True True 31536000", unnamed.stderr


def test_a_bad_https_value_stops_start_up_naming_the_variable(tmp_path):
    result = manage(tmp_path, "check", HTTPS="maybe")
    assert result.returncode != 0
    assert "HTTPS='maybe' is not a boolean" in result.stderr


def test_check_deploy_warns_that_a_generated_secret_key_belongs_to_this_host_alone(tmp_path):
    result = manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", HTTPS="1")
    assert result.returncode != 0
    assert "crawlweb.W001" in result.stderr and f"{tmp_path / 'secret_key'}" in result.stderr
    assert "several web hosts" in result.stderr


def test_a_plain_check_says_nothing_of_the_generated_key(tmp_path):
    result = manage(tmp_path, "check", "--fail-level", "WARNING")
    assert result.returncode == 0 and "crawlweb.W001" not in result.stderr


def test_an_empty_secret_key_file_is_a_one_line_configuration_error(tmp_path):
    (tmp_path / "secret_key").write_text("\n")
    result = manage(tmp_path, "check")
    assert result.returncode == 2
    assert result.stderr == (f"configuration error: {tmp_path / 'secret_key'} holds no usable key (0 characters, "
                             "at least 32 needed): delete it to have a new one generated, or set SECRET_KEY\n")
