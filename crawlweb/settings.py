"""Django settings. Every value an operator may change comes from an environment variable,
read by a typed helper that refuses a bad value at start-up (docs/reference/settings.md lists them all)."""
from __future__ import annotations

from pathlib import Path

from crawlweb.crawler.politeness import MAX_HOST_INTERVAL_S
from crawlweb.env import (
    SettingError, database_from_url, env_bool, env_choice, env_list, env_number, env_str, redis_url, secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

SECRET_KEY = secret_key("SECRET_KEY", VAR_DIR / "secret_key")
# Where the key came from when SECRET_KEY is not set: generated on this host (check --deploy warns).
SECRET_KEY_FILE = None if env_str("SECRET_KEY", "") else VAR_DIR / "secret_key"
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS=1: the site is served over HTTPS (directly or behind a proxy that terminates TLS); every HTTPS
# protection goes on at once, so `manage.py check --deploy` is clean (tests/hardening/test_deploy_settings.py).
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env_number("HSTS_SECONDS", 31_536_000, minimum=0, integer=True) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS  # allows submitting the domain to the browsers' preload list; nothing is sent anywhere
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
# Behind a proxy that terminates TLS, Django sees plain HTTP: trust the proxy's header (e.g.
# X-Forwarded-Proto) only when it is named here, and only if the proxy always sets it itself.
_PROXY_SSL_HEADER = env_str("PROXY_SSL_HEADER", "")
SECURE_PROXY_SSL_HEADER = (("HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"), "https")
                           if _PROXY_SSL_HEADER else None)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_rq",
    "crawlweb",
    "frontier",
    "evaluation",
    "labeling",
    "training",
    "console",  # the top floor: dashboard, exports, crawl setup, admin (docs/explanation/architecture.md)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "crawlweb.ids.IdRangeMiddleware",
    "crawlweb.not_found.DjangoRqNotFoundMiddleware",
]

ROOT_URLCONF = "console.urls"
WSGI_APPLICATION = "crawlweb.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_url("DATABASE_URL", env_str("DATABASE_URL", "") or None,
                                          VAR_DIR / "crawl.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
LOGIN_URL = "admin:login"
# ModelBackend that reads the user's labeling groups with the user row: one query less per request.
AUTHENTICATION_BACKENDS = ["labeling.auth_backend.LabelingGroupsBackend"]

# --- Logins: failed attempts are counted per account from one address, and per address
# (crawlweb/login_throttle.py); the counts are shared through Redis, or the database without it.
LOGIN_MAX_FAILURES_PER_ACCOUNT = env_number("LOGIN_MAX_FAILURES_PER_ACCOUNT", 5, minimum=1, integer=True)
LOGIN_MAX_FAILURES_PER_ADDRESS = env_number("LOGIN_MAX_FAILURES_PER_ADDRESS", 20, minimum=1, integer=True)
LOGIN_LOCKOUT_SECONDS = env_number("LOGIN_LOCKOUT_SECONDS", 900, minimum=1, integer=True)
CLIENT_IP_HEADER = env_str("CLIENT_IP_HEADER", "")  # e.g. X-Forwarded-For, set only behind a proxy that sets it

# --- Jobs: RQ through django-rq when REDIS_URL is set, else the same functions in-process.
REDIS_URL = redis_url("REDIS_URL")
JOBS_INPROCESS_MODE = env_choice("JOBS_INPROCESS_MODE", "thread", ("thread", "sync"))
JOB_TIMEOUT = env_number("JOB_TIMEOUT", 600, minimum=10, integer=True)

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Failed-login counts need one store for every web process (gunicorn -w 4): Redis, or the database
    # (a table made by crawlweb's migration 0007), never each process's own memory.
    "logins": ({"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                "KEY_PREFIX": "crawlweb"} if REDIS_URL else
               {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "crawlweb_login_failures"}),
}
RQ_QUEUES = {
    name: {"URL": REDIS_URL or "redis://127.0.0.1:6379/0", "DEFAULT_TIMEOUT": JOB_TIMEOUT}
    for name in ("crawl", "score", "train")
}
# Enqueue right away rather than on commit: job helpers already call on_commit themselves.
RQ = {"COMMIT_MODE": "auto", "WORKER_CLASS": "crawlweb.jobs.worker.CrawlWorker"}

# --- Crawler.
CRAWLER_USER_AGENT = env_str(
    "CRAWLER_USER_AGENT",
    "BilingualCrawler/0.1 (+https://github.com/bilingual-crawler/bilingual-crawler; research crawler)",
)
CRAWLER_CONNECT_TIMEOUT = env_number("CRAWLER_CONNECT_TIMEOUT", 5.0, minimum=0.1, maximum=120)
CRAWLER_READ_TIMEOUT = env_number("CRAWLER_READ_TIMEOUT", 15.0, minimum=0.1, maximum=600)
CRAWLER_HOST_INTERVAL = env_number("CRAWLER_HOST_INTERVAL", 1.0, minimum=0, maximum=MAX_HOST_INTERVAL_S)
# Whole-response deadline: a server trickling bytes (each read within the read timeout) is cut here.
CRAWLER_TOTAL_TIMEOUT = env_number("CRAWLER_TOTAL_TIMEOUT", 60.0, minimum=1, maximum=3600)
CRAWLER_MAX_PAGE_BYTES = env_number("CRAWLER_MAX_PAGE_BYTES", 10 * 1024 * 1024, minimum=1024, integer=True)
CRAWLER_MAX_REDIRECTS = env_number("CRAWLER_MAX_REDIRECTS", 5, minimum=0, maximum=30, integer=True)
CRAWLER_MAX_URL_LENGTH = env_number("CRAWLER_MAX_URL_LENGTH", 250, minimum=20, integer=True)
# Which addresses may be fetched: public only (default), also loopback (tests, demo), or all.
CRAWLER_ADDRESS_POLICY = env_choice("CRAWLER_ADDRESS_POLICY", "public", ("public", "loopback", "private"))
CRAWLER_BATCH_SIZE = env_number("CRAWLER_BATCH_SIZE", 32, minimum=1, maximum=1000, integer=True)
CRAWLER_CONCURRENCY = env_number("CRAWLER_CONCURRENCY", 16, minimum=1, maximum=256, integer=True)
# Processes that parse fetched pages beside a worker's fetch threads (0: in the fetch threads).
CRAWLER_PREPARE_PROCESSES = env_number("CRAWLER_PREPARE_PROCESSES", 1, minimum=0, maximum=64, integer=True)
# The same for a worker whose first queue is "score" (`rqworker score train crawl`): it mostly scores, and
# a preparation process of its own cost it ~130 MB for the few pages it prepares (docs/scale.md).
CRAWLER_SCORE_WORKER_PREPARE_PROCESSES = env_number("CRAWLER_SCORE_WORKER_PREPARE_PROCESSES", 0, minimum=0,
                                                    maximum=64, integer=True)
# A page preparation process grown by this many MB since its first pages is replaced by a fresh one (about
# 130 MB after its warm-up): memory freed by Python but kept by the allocator (crawlweb/services/prep_processes.py).
CRAWLER_PREPARE_PROCESS_GROWTH_MB = env_number("CRAWLER_PREPARE_PROCESS_GROWTH_MB", 128, minimum=1, maximum=65_536,
                                               integer=True)
CRAWLER_LEASE_SECONDS = env_number("CRAWLER_LEASE_SECONDS", 120, minimum=1, integer=True)
CRAWLER_MAX_ATTEMPTS = env_number("CRAWLER_MAX_ATTEMPTS", 3, minimum=1, maximum=20, integer=True)
CRAWLER_RETRY_BACKOFF = env_number("CRAWLER_RETRY_BACKOFF", 60.0, minimum=0.01, maximum=86400)
# Hosts due within this many seconds are leased already, their fetch waiting for the moment.
CRAWLER_LEASE_LOOKAHEAD = env_number("CRAWLER_LEASE_LOOKAHEAD", 0.2, minimum=0, maximum=5)
# A crawl step job keeps leasing batches for this long before it re-enqueues itself (pause, stop
# and the budget are checked between batches).
CRAWLER_STEP_SECONDS = env_number("CRAWLER_STEP_SECONDS", 5.0, minimum=0, maximum=600)
CRAWLER_IDLE_FINISH_SECONDS = env_number("CRAWLER_IDLE_FINISH_SECONDS", 120.0, minimum=0, maximum=86400)
# More jobs than this waiting on "score" (RQ): the next crawl step queues behind them (0 = never).
CRAWLER_SCORE_BACKLOG = env_number("CRAWLER_SCORE_BACKLOG", 0, minimum=0, integer=True)
# How often a worker looks for running crawls whose step chain was lost (Redis restarted empty, a
# step failed while PostgreSQL was down, a worker killed) and enqueues their chains again (0: never).
CRAWLER_CHAIN_WATCH_SECONDS = env_number("CRAWLER_CHAIN_WATCH_SECONDS", 30.0, minimum=0, maximum=86400)
CRAWLER_ROBOTS_CACHE_SECONDS = env_number("CRAWLER_ROBOTS_CACHE_SECONDS", 86400, minimum=0, integer=True)
CRAWLER_TEXT_WINDOW_WORDS = env_number("CRAWLER_TEXT_WINDOW_WORDS", 10, minimum=0, maximum=100, integer=True)
CRAWLER_WARC = env_bool("CRAWLER_WARC", True)
# Rendering of script-built language switches (docs/script-switches.md): the Chromium the BS Detector
# drives through Playwright ("" turns rendering off everywhere), its time per page, and the requests a
# rendered page may make (its scripts and fragments, fetched by the crawler's own Fetcher).
CRAWLER_CHROMIUM = env_str("CRAWLER_CHROMIUM", "/usr/bin/chromium")
CRAWLER_RENDER_TIMEOUT = env_number("CRAWLER_RENDER_TIMEOUT", 10.0, minimum=0.5, maximum=120)
CRAWLER_RENDER_REQUESTS = env_number("CRAWLER_RENDER_REQUESTS", 20, minimum=1, maximum=200, integer=True)
# A worker process keeps one Chromium between renders: a new one after this many pages (its memory
# grows with them), and none after this many seconds without a page to render.
CRAWLER_RENDER_BROWSER_PAGES = env_number("CRAWLER_RENDER_BROWSER_PAGES", 100, minimum=1, maximum=10000, integer=True)
CRAWLER_RENDER_BROWSER_IDLE = env_number("CRAWLER_RENDER_BROWSER_IDLE", 300.0, minimum=1, maximum=86400)
# A followed crawl, experiment or scoring pass not on a terminal writes a plain progress line this often.
PROGRESS_LINE_SECONDS = env_number("PROGRESS_LINE_SECONDS", 10.0, minimum=0.1, maximum=3600)
# Targets a crawl takes from one host's sitemaps (the sitemaps themselves included): the parser
# reads at most 2,000 entries per file, an index may name many files.
CRAWLER_SITEMAP_MAX_URLS = env_number("CRAWLER_SITEMAP_MAX_URLS", 2000, minimum=0, maximum=50000, integer=True)
WARC_DIR = Path(env_str("WARC_DIR", str(VAR_DIR / "warc")))
# The built real development web (scripts/build_realweb.py); it is never inside the repository.
SHARED_DATA_DIR = Path(env_str("SHARED_DATA_DIR", str(BASE_DIR.parent / "shared" / "data")))
REAL_WEB_DIR = Path(env_str("REAL_WEB_DIR", str(SHARED_DATA_DIR / "real-web")))
# The built charset corpus (scripts/build_charset_corpus.py), read by bench/charsets.py and its test.
CHARSET_CORPUS_DIR = Path(env_str("CHARSET_CORPUS_DIR", str(SHARED_DATA_DIR / "charsets")))

# Seconds a running crawl's live-panel and discovery figures are reused by a web process before they are
# counted again (console/dashboard/figure_cache.py); 0 = count on every request.
DASHBOARD_CACHE_SECONDS = env_number("DASHBOARD_CACHE_SECONDS", 2, minimum=0, maximum=60)

# --- Retraining from judgments (training app). 0 = no training every N judgments (closing an
# evaluation and the button still train).
TRAIN_EVERY_JUDGMENTS = env_number("TRAIN_EVERY_JUDGMENTS", 0, minimum=0, integer=True)
# Judged sites below which the detector keeps its default minimum link likelihood.
TRAIN_MIN_SITES = env_number("TRAIN_MIN_SITES", 20, minimum=2, integer=True)
# Judged pairs (links) of each answer below which a new pair classifier (Link Predictor) is never
# promoted, however its cross-validation compares: on a few dozen items it learns the sample.
TRAIN_PROMOTE_MIN_PER_LABEL = env_number("TRAIN_PROMOTE_MIN_PER_LABEL", 20, minimum=2, integer=True)


def _lexicon(name: str) -> tuple[str, ...]:
    """Two dictd dictionaries (paths without .index / .dict.dz): the crawl's first language → the
    second, and back; "off": none. Default: FreeDict's Croatian–English pair (evaluation/bodies/lexicon.py
    says why it serves Serbian), which scripts/install.sh installs."""
    value = env_list(name, [])
    if not value:
        return tuple(f"/usr/share/dictd/freedict-{pair}" for pair in ("hrv-eng", "eng-hrv"))
    if value == ["off"]:
        return ()
    if len(value) != 2:
        raise SettingError(f"{name}={','.join(value)!r} must name two dictd dictionaries, comma-separated "
                           "(first language → second, second → first), or be off")
    for base in value:
        for suffix in (".index", ".dict.dz"):
            if not Path(base + suffix).is_file():
                raise SettingError(f"{name}: {base}{suffix} does not exist (a dictd dictionary is a "
                                   f".index and a .dict.dz file; set {name}=off to train without one)")
    return tuple(value)


def _lexicon_languages(name: str) -> tuple[str, str]:
    value = [code.casefold() for code in env_list(name, ["sr", "en"])]
    if len(value) != 2 or value[0] == value[1] or not all(code.isalpha() for code in value):
        raise SettingError(f"{name}={','.join(value)!r} must be two different language codes, comma-separated "
                           "(what PAIR_LEXICON's first dictionary translates from, and into)")
    return value[0], value[1]


# The bilingual dictionary that reads what two pages' bodies say: method "content" scores with it, and
# its coverage of the two bodies is among the pair classifier's features (evaluation/bodies/lexicon.py).
PAIR_LEXICON = _lexicon("PAIR_LEXICON")
PAIR_LEXICON_LANGUAGES = _lexicon_languages("PAIR_LEXICON_LANGUAGES")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "INFO",
                                                          ("DEBUG", "INFO", "WARNING", "ERROR"))},
    "filters": {"forbidden_without_traceback": {"()": "crawlweb.log_filters.ForbiddenWithoutTraceback"}},
    "loggers": {"django.server": {"level": "WARNING"},
                "django.request": {"filters": ["forbidden_without_traceback"]}},
}

# --- Pairing (Pupsniffer). Defaults are the method's values; see evaluation/services/config.py.
# Only variables that are set become settings, so the dataclass defaults stay the single source.
def _growth(name: str) -> float:
    value = env_number(name, 2.0, minimum=0)
    if 0 < value <= 1:
        raise SettingError(f"{name}={value!r} must be 0 (score the whole crawl only at its end) or above 1")
    return value


_PAIRS_READERS = {
    "PAIRS_LOCAL_THRESHOLD": lambda name: env_number(name, 0.1, minimum=0, maximum=1),
    "PAIRS_MIN_FREQUENCY": lambda name: env_number(name, 2, minimum=1, integer=True),
    "PAIRS_THETA_UNNORMALIZED": lambda name: env_number(name, 500.0, minimum=0),
    "PAIRS_MIN_DOMAIN_CREDIBILITY": lambda name: env_number(name, 0.3, minimum=0, maximum=1),
    "PAIRS_LOWERED_THRESHOLD": lambda name: env_number(name, 0.03, minimum=0, maximum=1),
    "PAIRS_DEEP_TOP_N": lambda name: env_number(name, 10, minimum=0, integer=True),
    "PAIRS_DEEP_CHECKS": lambda name: env_bool(name, True),
    "PAIRS_DEEP_CONVENTIONS": lambda name: env_bool(name, True),
    "PAIRS_DEEP_ROUNDS": lambda name: env_number(name, 3, minimum=0, maximum=100, integer=True),
    "PAIRS_DEEP_FORM_MIN_TRIES": lambda name: env_number(name, 500, minimum=0, integer=True),
    "PAIRS_DEEP_FORM_MIN_RATE": lambda name: env_number(name, 0.002, minimum=0, maximum=1),
    "PAIRS_CONTENT_PAIRING": lambda name: env_bool(name, True),
    "PAIRS_CONTENT_THRESHOLD": lambda name: env_number(name, 0.25, minimum=0, maximum=1),
    "PAIRS_CONTENT_LEXICON_THRESHOLD": lambda name: env_number(name, 0.25, minimum=0, maximum=1),
    "PAIRS_FILTER_TOP_N": lambda name: env_number(name, 30, minimum=1, integer=True),
    "PAIRS_FILTER_THRESHOLD": lambda name: env_number(name, 0.0),
    "PAIRS_MIN_BODY_COVERAGE": lambda name: env_number(name, 0.45, minimum=0, maximum=1),
    "PAIRS_MIN_ALIGNED_SHARE": lambda name: env_number(name, 0.3, minimum=0, maximum=1),
    "PAIRS_MIN_SENTENCE_ALIGNMENT": lambda name: env_number(name, 0.67, minimum=0, maximum=1),
    "PAIRS_COPIES_RULE": lambda name: env_bool(name, True),
    "PAIRS_CHECK_STRUCTURE": lambda name: env_bool(name, False),
    "PAIRS_STRUCTURE_MAX_DP": lambda name: env_number(name, 0.5, minimum=0, maximum=1),
    "PAIRS_DISCOVERY_TOP_K": lambda name: env_number(name, 500, minimum=1, integer=True),
    "PAIRS_DISCOVERY_MEASURE": lambda name: env_choice(name, "wpr", ("wpr", "pr", "linkout")),
    "PAIRS_DISCOVERY_ITERATIONS": lambda name: env_number(name, 1, minimum=1, maximum=100, integer=True),
    "PAIRS_DISCOVERY_PAGES_PER_SITE": lambda name: env_number(name, 50, minimum=1, integer=True),
    "PAIRS_RESCORE_GROWTH": lambda name: _growth(name),
    "PAIRS_RESCORE_MIN_PAGES": lambda name: env_number(name, 100, minimum=1, integer=True),
    "PAIRS_DEEP_ONE_LANGUAGE_PAGES": lambda name: env_number(name, 3, minimum=0, maximum=10_000, integer=True),
    "PAIRS_SITE_RESCORE_GROWTH": lambda name: env_number(name, 2.0, minimum=1, maximum=100),
    "PAIRS_SITE_RESCORE_FROM_PAGES": lambda name: env_number(name, 8, minimum=0, maximum=1_000_000, integer=True),
    "PAIRS_SITE_QUIET_SECONDS": lambda name: env_number(name, 60.0, minimum=0, maximum=86400),
    "PAIRS_SITE_QUIET_GROWTH": lambda name: env_number(name, 1.25, minimum=1, maximum=100),
    "PAIRS_SITE_FIRST_DELAY_SECONDS": lambda name: env_number(name, 0.0, minimum=0, maximum=86400),
}
for _name, _read in _PAIRS_READERS.items():
    if env_str(_name, ""):
        globals()[_name] = _read(_name)
