"""Settings come from the environment; a bad value stops start-up naming the variable."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crawlweb.env import SettingError, database_from_url, env_bool, env_choice, env_number, redis_url

ROOT = Path(__file__).resolve().parents[1]


def run_manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    environment.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("variable, value, expected", [
    ("CRAWLER_HOST_INTERVAL", "soon", "CRAWLER_HOST_INTERVAL='soon' is not a number"),
    ("CRAWLER_MAX_PAGE_BYTES", "12", "CRAWLER_MAX_PAGE_BYTES='12' must be at least 1024"),
    ("DEBUG", "maybe", "DEBUG='maybe' is not a boolean"),
    ("CRAWLER_ADDRESS_POLICY", "everything", "CRAWLER_ADDRESS_POLICY='everything' is not one of"),
    ("DATABASE_URL", "mysql://root@localhost/crawl", "unsupported scheme 'mysql'"),
    ("REDIS_URL", "localhost:6379", "REDIS_URL='localhost:6379' is not a Redis URL"),
    ("SECRET_KEY", "short", "SECRET_KEY is too short"),
    ("PAIRS_RESCORE_GROWTH", "1", "PAIRS_RESCORE_GROWTH=1.0 must be 0 (score the whole crawl only at its end) or above 1"),
    ("PAIRS_DISCOVERY_ITERATIONS", "0", "PAIRS_DISCOVERY_ITERATIONS='0' must be at least 1"),
    ("PAIRS_CONTENT_THRESHOLD", "2", "PAIRS_CONTENT_THRESHOLD='2' must be at most 1"),
    ("PAIRS_CONTENT_PAIRING", "perhaps", "PAIRS_CONTENT_PAIRING='perhaps' is not a boolean"),
    ("TRAIN_PROMOTE_MIN_PER_LABEL", "1", "TRAIN_PROMOTE_MIN_PER_LABEL='1' must be at least 2"),
    ("PAIR_LEXICON", "/usr/share/dictd/freedict-hrv-eng", "PAIR_LEXICON='/usr/share/dictd/freedict-hrv-eng' must "
                                                          "name two dictd dictionaries"),
    ("PAIR_LEXICON", "/nowhere/sr-en,/nowhere/en-sr", "PAIR_LEXICON: /nowhere/sr-en.index does not exist"),
    ("PAIRS_CONTENT_LEXICON_THRESHOLD", "-1", "PAIRS_CONTENT_LEXICON_THRESHOLD='-1' must be at least 0"),
    ("PAIRS_MIN_BODY_COVERAGE", "2", "PAIRS_MIN_BODY_COVERAGE='2' must be at most 1"),
    ("PAIRS_MIN_ALIGNED_SHARE", "1.5", "PAIRS_MIN_ALIGNED_SHARE='1.5' must be at most 1"),
    ("PAIR_LEXICON_LANGUAGES", "sr", "PAIR_LEXICON_LANGUAGES='sr' must be two different language codes"),
])
def test_a_bad_setting_stops_start_up_with_a_message_naming_it(variable, value, expected):
    result = run_manage("check", **{variable: value})
    assert result.returncode == 2
    assert result.stderr.startswith("configuration error:")
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


def test_good_settings_start(tmp_path):
    result = run_manage("check", VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "secret_key").exists(), "a generated SECRET_KEY is kept under VAR_DIR"


def test_the_dictionary_can_be_turned_off_or_given_for_another_pair(tmp_path):
    assert run_manage("check", VAR_DIR=str(tmp_path), PAIR_LEXICON="off").returncode == 0
    result = run_manage("shell", "-c", "from django.conf import settings; print(settings.PAIR_LEXICON, "
                        "settings.PAIR_LEXICON_LANGUAGES)", VAR_DIR=str(tmp_path), PAIR_LEXICON="off",
                        PAIR_LEXICON_LANGUAGES="HR,en")
    assert result.stdout.strip().splitlines()[-1] == "() ('hr', 'en')", result.stderr


def test_the_generated_secret_key_is_stable_across_starts(tmp_path, monkeypatch):
    from crawlweb.env import secret_key

    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = secret_key("SECRET_KEY", tmp_path / "key")
    assert len(first) >= 50
    assert secret_key("SECRET_KEY", tmp_path / "key") == first


# Each process sleeps until the same instant, then reads (or makes) the key: workers started together.
START_TOGETHER = """
import sys, time
from pathlib import Path
from crawlweb.env import secret_key
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
print(secret_key("SECRET_KEY", Path(sys.argv[1])))
"""


def test_processes_starting_together_without_a_key_all_get_the_one_key_stored(tmp_path):
    environment = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    store = tmp_path / "var" / "secret_key"
    for attempt in range(5):  # several rounds: a race shows only sometimes
        store.unlink(missing_ok=True)
        start = f"{time.time() + 1.5:.3f}"
        processes = [subprocess.Popen([sys.executable, "-c", START_TOGETHER, str(store), start], cwd=ROOT,
                                      env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(8)]
        results = [process.communicate(timeout=60) for process in processes]
        assert all(process.returncode == 0 for process in processes), [error for _, error in results]
        keys = {output.strip() for output, _ in results}
        assert keys == {store.read_text(encoding="utf-8")}, f"round {attempt}: {len(keys)} different keys"
        assert oct(store.stat().st_mode & 0o777) == "0o600"
    assert [path.name for path in store.parent.iterdir()] == ["secret_key"], "no draft file is left behind"


def test_typed_readers_use_defaults_when_unset(monkeypatch):
    monkeypatch.delenv("X_FLAG", raising=False)
    assert env_bool("X_FLAG", True) is True
    assert env_number("X_FLAG", 3, integer=True) == 3
    assert env_choice("X_FLAG", "a", ("a", "b")) == "a"


def test_typed_readers_parse_values(monkeypatch):
    monkeypatch.setenv("X_FLAG", "off")
    assert env_bool("X_FLAG", True) is False
    monkeypatch.setenv("X_NUM", "2.5")
    assert env_number("X_NUM", 1.0) == 2.5
    monkeypatch.setenv("X_NUM", "2.5")
    with pytest.raises(SettingError, match="X_NUM='2.5' is not an integer"):
        env_number("X_NUM", 1, integer=True)


def test_database_urls_are_understood(tmp_path):
    pg = database_from_url("DATABASE_URL", "postgres://crawler:s%40cret@db.example:5433/crawl", tmp_path / "x")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "crawl", "crawler", "s@cret", "db.example", "5433")
    embedded = database_from_url("DATABASE_URL", None, tmp_path / "crawl.sqlite3")
    assert embedded["ENGINE"] == "django.db.backends.sqlite3"
    assert embedded["NAME"].endswith("crawl.sqlite3")
    with pytest.raises(SettingError, match="names no database"):
        database_from_url("DATABASE_URL", "postgres://127.0.0.1:5432/", tmp_path / "x")


def test_redis_url_must_be_a_redis_url(monkeypatch):
    monkeypatch.setenv("R", "redis://127.0.0.1:6379/3")
    assert redis_url("R") == "redis://127.0.0.1:6379/3"
    monkeypatch.delenv("R")
    assert redis_url("R") is None
