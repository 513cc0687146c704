"""Django settings, read from environment variables (twelve-factor).

With no variables set, the site runs on the embedded default: SQLite, a
file-system Celery broker (no server to install) and the best sandbox backend
the machine offers.  Production (``docker-compose.yml``) sets DATABASE_URL,
CELERY_BROKER_URL and SECRET_KEY.  DEBUG is off unless DEBUG=1 (developers only).
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
from pathlib import Path
from typing import overload

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from sandbox import protocol

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("JUDGE_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {value!r}")


@overload
def env_number(name: str, default: int) -> int: ...
@overload
def env_number(name: str, default: float, kind: type[float]) -> float: ...


def env_number(name: str, default: float, kind: type = int) -> float:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a {kind.__name__}, got {value!r}") from None


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def dev_secret_key() -> str:
    """A per-checkout random key for the embedded default, never committed."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        # bin/run starts two manage.py commands at once: the key is written whole under another name and linked
        # into place, so the second finds no file or the whole key, never an empty one; the first link wins.
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        part = VAR_DIR / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        part.write_text(secrets.token_urlsafe(50))
        part.chmod(0o600)
        try:
            os.link(part, path)
        except FileExistsError:
            pass
        finally:
            part.unlink()
    key = path.read_text().strip()
    if not key:
        raise ImproperlyConfigured(
            f"The secret key file {path} is empty: delete it and a new key is made at the "
            f"next start (signed-in users then sign in again), or set SECRET_KEY."
        )
    return key


# Off unless a developer asks (DEBUG=1): a student never sees a debug page with the URL list.
DEBUG = env_bool("DEBUG", False)
TESTING = env_bool("JUDGE_TEST", False)
# The embedded default (no DATABASE_URL: SQLite in var/) and the test profile make a per-checkout key;
# a deployment with its own database must bring its own.
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    dev_secret_key() if DEBUG or TESTING or "DATABASE_URL" not in os.environ else ""
)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL is (a deployment) and DEBUG is off")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# HTTPS unless told otherwise: a deployment sits behind a TLS proxy (docs/operators/security.md#tls-in-front-of-the-site) that
# sets X-Forwarded-Proto and overwrites any the client sent.  JUDGE_PLAIN_HTTP=1 is the one switch for plain
# HTTP on a trusted machine (bin/run, bin/test, compose's local example): no redirect, no HSTS, and cookies
# a browser sends over http://127.0.0.1.
PLAIN_HTTP = env_bool("JUDGE_PLAIN_HTTP", False)
if not PLAIN_HTTP:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = env_number("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "judge.accounts",
    "judge.problems",
    "judge.submissions",
    "judge.authoring",
    "judge.learning",
    "judge.standings",
    "judge.grading",  # the worker's side: grade, record, measure speed (tasks, manage.py grade)
    "judge.tokens",
    "ninja",  # the API's docs page (Swagger UI, served as static files)
    "judge.courses",
    "judge.regrades",
    "judge.lti",
    "judge.display",  # its template tags
    "judge.solutions",
    "judge.backups",  # manage.py backup and restore
]

MIDDLEWARE = [
    # /healthz, /readyz and /metrics, before the host check and the HTTPS redirect a probe would fail.
    "judge.monitoring.middleware.OperatorEndpointsMiddleware",
    "judge.middleware.RequestIdMiddleware",  # every line logged for a request carries its id
    "csp.middleware.CSPMiddleware",  # first of the page's, so every answer carries the policy, refusals too
    "judge.middleware.RequestBodyLimitMiddleware",  # before anything reads, spools or parses a body
    "judge.middleware.TimeZoneMiddleware",  # a person's zone, activated by a course page, ends with the request
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "judge.middleware.FormInputMiddleware",  # reads forms before CSRF's process_view does
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "judge.middleware.MethodNotAllowedPageMiddleware",  # last: it sees the view's own empty 405
]

ROOT_URLCONF = "judge.urls"
WSGI_APPLICATION = "judge.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "judge" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "judge.context_processors.sandbox",
                "judge.context_processors.grading",
                "judge.context_processors.preferences",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'judge.sqlite3'}"),
        conn_max_age=env_number("DATABASE_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # The web process and the worker write to the same file.  A transaction takes the write lock when it
    # begins (IMMEDIATE), so it waits its turn (timeout) instead of failing with "database is locked" when
    # it reads first and another writer commits before it writes; WAL lets readers go on meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# A pool per process (the web's gthread workers, deploy/gunicorn.conf.py): its threads borrow one of
# DATABASE_POOL_MAX connections only while they query, so threads can outnumber PostgreSQL's connections.
if os.environ.get("DATABASE_POOL_MAX") and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env_number("DATABASE_POOL_MAX", 16),
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Argon2id (judge/accounts/hashers.py); the others only read older hashes, which are replaced by an Argon2
# hash at their owner's next sign-in.  The cost: docs/operators/security.md#passwords and docs/contributors/benchmarks.md#signing-in.
PASSWORD_HASHERS = [
    "judge.accounts.hashers.Argon2Hasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# OWASP's Argon2id minimum (19 MiB, 2 passes), which it rates as strong as 46 MiB in 1 pass and costs half
# the CPU here (20 ms against 43 ms a check): a class of 300 signing in at once costs 6 s of one core.
ARGON2_TIME_COST = env_number("ARGON2_TIME_COST", 2)
ARGON2_MEMORY_KIB = env_number("ARGON2_MEMORY_KIB", 19 * 1024)
ARGON2_PARALLELISM = env_number("ARGON2_PARALLELISM", 1)  # the web's threads already use every core
ARGON2_CONCURRENCY = env_number("ARGON2_CONCURRENCY", os.cpu_count() or 2)  # hashes at once per process
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "problem-list"
LOGOUT_REDIRECT_URL = "problem-list"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Third-party browser assets are served straight from the npm packages that
# bin/setup-env.sh installs (package.json); nothing is copied into the repo.
NODE_MODULES = BASE_DIR / "node_modules"
STATICFILES_DIRS = [
    BASE_DIR / "judge" / "static",
    ("vendor/ace", NODE_MODULES / "ace-builds" / "src-min-noconflict"),
    ("vendor/ace-css", NODE_MODULES / "ace-builds" / "css"),  # Ace's styles as files (useStrictCSP)
    ("vendor/katex", NODE_MODULES / "katex" / "dist"),
    ("vendor/htmx", NODE_MODULES / "htmx.org" / "dist"),
]

# Every page may run only the site's own scripts and styles and load only its own images, fonts and
# fragments: no inline script, no <style> element (Ace runs with useStrictCSP and its CSS is linked;
# htmx's indicator style is off), no image from another origin.  Style attributes stay allowed: KaTeX and
# Ace size their elements with them, and authored Markdown cannot carry one (nh3 removes it).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],  # Ace's gutter icons are data: URLs in its CSS
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# LTI 1.3 (judge/lti).  LTI_FRAME_ANCESTORS: the LMS origins (space-separated, e.g. https://school.instructure.com)
# that may show this site in a frame, as Canvas and Moodle do by default; unset, nothing may frame it.  A framed
# page is a third-party context, where browsers send only SameSite=None; Secure cookies: the session and CSRF
# cookies get that then (over HTTPS; JUDGE_PLAIN_HTTP keeps them Lax, and a test platform on 127.0.0.1 is the same
# site).  PyLTI1p3's own state cookie is SameSite=None; Secure on HTTPS requests whatever this says.
LTI_FRAME_ANCESTORS = os.environ.get("LTI_FRAME_ANCESTORS", "").split()
for origin in LTI_FRAME_ANCESTORS:
    if not origin.startswith("https://"):
        raise ImproperlyConfigured(f"LTI_FRAME_ANCESTORS holds origins such as https://lms.example.edu, not {origin!r}")
if LTI_FRAME_ANCESTORS:
    CONTENT_SECURITY_POLICY["DIRECTIVES"]["frame-ancestors"] = [SELF, *LTI_FRAME_ANCESTORS]
    MIDDLEWARE.remove("django.middleware.clickjacking.XFrameOptionsMiddleware")  # frame-ancestors says who may
    if not PLAIN_HTTP:
        SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "None"
# A new key of the tool is published this long before it may sign (platforms cache key sets for hours).
LTI_KEY_PUBLISH_AHEAD_S = env_number("LTI_KEY_PUBLISH_AHEAD_S", 24 * 3600)

# Every line carries the id of the request or task it belongs to (judge/lib/logs.py).  LOG_FORMAT=json (compose
# sets it) writes one JSON object per line for a log collector; text, the default, a readable console line.
# LOG_REQUESTS: one line per request from the site itself (on with JSON, where it replaces gunicorn's access log).
LOG_FORMAT = env_choice("LOG_FORMAT", "text", ("text", "json"))
LOG_REQUESTS = env_bool("LOG_REQUESTS", LOG_FORMAT == "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "judge.lib.logs.RequestIdFilter"},
        "routine_tasks": {"()": "judge.lib.logs.RoutineTaskFilter"},
    },
    "formatters": {
        "default": {"()": "judge.lib.logs.json_formatter"}
        if LOG_FORMAT == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id", "routine_tasks"],
            "formatter": "default",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # runserver prints its own line per request: the site's (judge.middleware) only where asked.
    "loggers": {"judge.requests": {"level": "INFO" if LOG_REQUESTS else "WARNING"}},
}


def env_networks(name: str, default: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """A comma-separated list of CIDRs (``10.0.0.0/8,fd00::/8``); a bare address is a network of one."""
    networks = []
    for text in os.environ.get(name, default).split(","):
        if text.strip():
            try:
                networks.append(ipaddress.ip_network(text.strip(), strict=False))
            except ValueError:
                raise ImproperlyConfigured(
                    f"{name} must list networks such as 10.0.0.0/8, got {text.strip()!r}"
                ) from None
    return networks


# /metrics (judge/monitoring): served to a client whose address (as TRUSTED_PROXY_COUNT sees it) is in one of
# METRICS_NETWORKS (default: this machine only), or that sends METRICS_TOKEN as a bearer token.
METRICS_NETWORKS = env_networks("METRICS_NETWORKS", "127.0.0.0/8,::1/128")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The graded count and the latency histograms scan the finished submissions: kept this long in the cache (shared
# through Redis), so a scrape reads the table at most once per period however many servers ask (0: every scrape).
METRICS_CACHE_S = env_number("METRICS_CACHE_S", 30.0, float)
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters (openssl rand -hex 32)")

# --- The judge --------------------------------------------------------------
PROBLEMS_DIR = Path(os.environ.get("PROBLEMS_DIR", BASE_DIR / "problems"))
# "auto" picks docker when an engine answers and the image exists, else process.
SANDBOX_BACKEND = env_choice("SANDBOX_BACKEND", "auto", ("auto", "process", "docker"))
SANDBOX_IMAGE = os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest")
SANDBOX_POOL_SIZE = env_number("SANDBOX_POOL_SIZE", 2)
# The sandbox containers' CPU weight against the host's other containers (Docker's --cpu-shares, 2 to 262144;
# 0: Docker's default, 1024).  The speed worker sets 2: `nice` does not reach the containers it starts, which
# the engine makes, not the worker; this is their `nice -n 19`.
SANDBOX_CPU_SHARES = env_number("SANDBOX_CPU_SHARES", 0)
if SANDBOX_CPU_SHARES and not 2 <= SANDBOX_CPU_SHARES <= 262144:
    raise ImproperlyConfigured(f"SANDBOX_CPU_SHARES must be 0 or 2-262144, got {SANDBOX_CPU_SHARES}")
# Where a worker makes the Unix sockets its sandbox containers connect to: a directory
# on the Docker host, at the same path in the worker (compose mounts /run/judge-sandbox).
# Empty: talk over the containers' attached stdin/stdout instead (an engine elsewhere).
SANDBOX_SOCKET_DIR = os.environ.get("SANDBOX_SOCKET_DIR", str(VAR_DIR / "sandbox-sockets")) or None
MAX_CODE_BYTES = env_number("MAX_CODE_BYTES", 64 * 1024)
# The largest body a legitimate request to each URL (by name) has; a larger one is refused (HTTP 413) from its
# Content-Length before it is read (judge/middleware.py).  A urlencoded form may spend 3 bytes on each byte of a
# field (%XX).  A new upload (a roster, say) adds its row here.
KIB, MIB = 1024, 1024 * 1024
REQUEST_BODY_LIMITS = {
    "submit": 3 * 64 * KIB + 256 * KIB,  # the code (MAX_CODE_BYTES, urlencoded) and the custom inputs
    "api-submissions": 6 * 64 * KIB + 256 * KIB,  # the same as JSON, whose \uXXXX escapes take 6 bytes a byte
    "draft-save": 3 * 64 * KIB + 8 * KIB,  # the code, urlencoded
    "note-save": 3 * 4 * 20_000 + 8 * KIB,  # a note (NOTE_MAX_CHARS, judge/learning/services.py), urlencoded UTF-8
    "authoring-upload": 5 * MIB + 64 * KIB,  # a problem's zip (MAX_ZIP_BYTES, judge/authoring/services.py)
    "authoring-edit": 3 * 2 * MIB + 64 * KIB,  # a package's files (MAX_PACKAGE_BYTES), urlencoded
    "authoring-preview": 512 * KIB,  # statement, theory and hints, multipart (MAX_PREVIEW_BYTES)
    "authoring-promote": 3 * 64 * KIB + 64 * KIB,  # a student's code as a known-wrong solution, and its notes
    "course-people": 1 * MIB + 64 * KIB,  # a roster CSV (ROSTER_MAX_BYTES, judge/courses/services.py)
}
REQUEST_BODY_DEFAULT_LIMIT = 64 * KIB  # every other form: sign-in, settings, a hint, a rejudge
DATA_UPLOAD_MAX_MEMORY_SIZE = max(REQUEST_BODY_LIMITS.values())  # the limits above decide, per URL
MAX_OUTPUT_BYTES = env_number("MAX_OUTPUT_BYTES", protocol.MAX_OUTPUT_BYTES)
# How often a grading worker proves it is alive, and when silence means it died: with the
# recovery sweep every RECOVERY_INTERVAL_S (in the worker that runs the beat, judge/celery.py), a dead worker's
# submission is sent again within STALE_AFTER_S + RECOVERY_INTERVAL_S (11 s) of the fault.
HEARTBEAT_INTERVAL_S = env_number("HEARTBEAT_INTERVAL_S", 2.0, float)
STALE_AFTER_S = env_number("STALE_AFTER_S", 8.0, float)
RECOVERY_INTERVAL_S = env_number("RECOVERY_INTERVAL_S", 3.0, float)
# Each Celery worker writes that it is alive this often; a grading worker silent for WORKER_SILENT_AFTER_S is taken
# for gone: staff see a banner, a waiting student is told grading has stopped (judge/submissions/workers.py).
WORKER_BEAT_S = env_number("WORKER_BEAT_S", 5.0, float)
WORKER_SILENT_AFTER_S = env_number("WORKER_SILENT_AFTER_S", 30.0, float)
# Touched after each heartbeat written, where set: compose's health check reads its age without starting Python.
WORKER_BEAT_FILE = os.environ.get("WORKER_BEAT_FILE", "")
# A queued submission whose message may have been lost is re-sent after this (the last resort:
# a Redis that lost its messages is noticed at the next sweep).
REQUEUE_AFTER_S = env_number("REQUEUE_AFTER_S", 60.0, float)
MAX_GRADING_ATTEMPTS = env_number("MAX_GRADING_ATTEMPTS", 3)
# A sandbox that dies mid-job is replaced and the job tried again, this many times in all.
SANDBOX_TRIES = env_number("SANDBOX_TRIES", 3)
# An accepted Submit's speed against the reference (engine/speed.py): up to 18 sandbox jobs (9 repeats), in a task
# of its own sent when the verdict is stored, on the speed lane: one worker of its own takes it, one at a
# time, at the lowest CPU priority (services.grading.enqueue_speed; bin/run, docker-compose.yml).
# The test profile leaves it out, but for the tests of speed, which turn it on.
MEASURE_SPEED = env_bool("MEASURE_SPEED", not TESTING)
# A figure still missing this long after the verdict will not come (its message was lost): the page says so.
SPEED_GIVE_UP_S = env_number("SPEED_GIVE_UP_S", 900.0, float)
# A student's new code for a problem is timed at most once this often (their Submit then says it was not timed,
# and why); the same code as a Submit timed before gets its figure whenever it comes.  0: every Submit is timed.
SPEED_RETIME_AFTER_S = env_number("SPEED_RETIME_AFTER_S", 600.0, float)
# Fairness: at most this many submissions of one user are graded at once; the others wait in
# the database (not in a worker slot) and are sent when one of theirs finishes.
MAX_RUNNING_PER_USER = env_number("MAX_RUNNING_PER_USER", 1)
# Fair share (judge/submissions/fairshare.py): the worker seconds an account and a client address
# used count half as much after this long; who used less goes first.
FAIR_SHARE_HALF_LIFE_S = env_number("FAIR_SHARE_HALF_LIFE_S", 60.0, float)


def env_rate(name: str, default: str) -> tuple[int, int] | None:
    """``10/min`` -> (10, 60), ``10/15min`` -> (10, 900); empty or ``0`` turns the limit off."""
    value = os.environ.get(name, default).strip()
    if value in ("", "0"):
        return None
    periods = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600}
    match = re.fullmatch(r"(\d+)/(\d*)([a-z]+)", value)
    if not match or match[3] not in periods or match[2] == "0":
        raise ImproperlyConfigured(f"{name} must look like 10/min or 10/15min (per s, min or h), got {value!r}")
    return int(match[1]), int(match[2] or 1) * periods[match[3]]


# Run and Submit: per user.  Sign-up: accounts made per client address; a course's join link and LMS launches
# make accounts outside it (a lab of 300 behind one address joins its course at once), the join link within a
# per-course ceiling that bounds what a leaked code can make.  Sign-in (judge/accounts/limits.py), counted
# before the password is checked so parallel guesses cannot overshoot, on the account the login finds however
# its name is typed:
# - per account and client address, 10 per 15 minutes: a person mistyping has ten tries; one address guesses one
#   account at most 40 times an hour.  Usernames are public, so this one is what a stranger hits, not the owner.
# - per account from anywhere, 100 an hour: the backstop against guesses spread over many addresses (2,400 a day
#   at most, against 10 addresses' worth).  Spending it does lock out the owner, so a browser that signed in to
#   the account before (a signed cookie, judge/accounts/devices.py) is exempt from both, counted on its own at
#   the per-address rate instead; a new browser waits at most an hour.
# - per client address, the accounts that failed from it, 100 per 15 minutes: password spraying is trying a few
#   passwords on many accounts, and this bounds how many accounts one address may fail on (400 an hour, as many
#   failures as the old count of failures allowed).  A lab behind one NAT is students each failing on their own
#   account however often, so a third of a class of 300 can mistype in the same quarter hour and the rest still
#   sign in; accounts already counted keep trying (per account and address).  Successes are not counted.
# Over a limit: HTTP 429 and a message saying when to try again.
RATE_LIMITS = {
    "run": env_rate("RATE_LIMIT_RUN", "10/min"),
    "submit": env_rate("RATE_LIMIT_SUBMIT", "10/min"),
    "signup": env_rate("RATE_LIMIT_SIGNUP", "10/h"),
    "signup_course": env_rate("RATE_LIMIT_SIGNUP_COURSE", "500/h"),
    "login_account_address": env_rate("RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS", "10/15min"),
    "login_account": env_rate("RATE_LIMIT_LOGIN_ACCOUNT", "100/h"),
    "login_address": env_rate("RATE_LIMIT_LOGIN_ADDRESS", "100/15min"),
}
# How long a browser stays known for an account it signed in to (each sign-in renews it): a term.
KNOWN_DEVICE_MAX_AGE_S = env_number("KNOWN_DEVICE_MAX_AGE_S", 120 * 24 * 3600)
# The client's address is REMOTE_ADDR, unless the site runs behind this many reverse proxies that each
# append the address they saw to X-Forwarded-For (then the entry that many from the right; never one the
# client wrote).  Leave it 0 unless every request reaches the site through those proxies.
TRUSTED_PROXY_COUNT = env_number("TRUSTED_PROXY_COUNT", 0)
# A cache outage (Redis down) must not stop a class from submitting: limits on signed-in users then let
# requests through; those on anonymous ones (sign-up, sign-in) refuse them (judge/accounts/limits.py).
RATELIMIT_FAIL_OPEN = True
# How long the status view holds a request open waiting for a change (the page then asks
# again), and how often it re-reads the database where there is no Redis to wake it.
PUSH_WAIT_S = env_number("PUSH_WAIT_S", 20.0, float)
PUSH_QUEUED_WAIT_S = env_number("PUSH_QUEUED_WAIT_S", 3.0, float)  # the queue position is refreshed this often
PUSH_DB_POLL_S = env_number("PUSH_DB_POLL_S", 0.075, float)
# A web process refreshes at most this many queued pages' positions a second (judge/pages/stream.py).
PUSH_POSITIONS_PER_S = env_number("PUSH_POSITIONS_PER_S", 10.0, float)

# --- Celery -----------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
BROKER_POLL_S = env_number("BROKER_POLL_S", 0.05, float)
# How long a worker with nothing running waits for a message at a time: a message wakes it at once where Linux's
# inotify watches the queue folder (judge/lib/polling_consumer.py, file_broker.py).
BROKER_IDLE_WAIT_S = env_number("BROKER_IDLE_WAIT_S", 1.0, float)
BROKER_PRIORITY_STEPS = list(range(10))  # Redis: one list per priority, so fair share's ten bands stay apart
if CELERY_BROKER_URL == "filesystem://":
    for sub in ("queue", "processed", "control", "claimed", "damaged"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    # kombu's file-system transport, with messages written whole before a reader can see them and a message
    # that cannot be read set aside instead of ending the worker (judge/lib/file_broker.py).
    CELERY_BROKER_TRANSPORT = "judge.lib.file_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "claimed_folder": str(BROKER_DIR / "claimed"),  # on the queue's file system: a claim is a rename
        "damaged_folder": str(BROKER_DIR / "damaged"),
        "store_processed": False,
        # kombu looks in the folder once a second by default: up to a second of "Queued" on an idle worker.
        # A look is a directory listing per queue, so every 50 ms costs the worker next to nothing.
        "polling_interval": BROKER_POLL_S,
    }
    # Finished tasks acknowledged within one poll, not up to 2 s later (judge/lib/polling_consumer.py).
    CELERY_WORKER_CONSUMER = "judge.lib.polling_consumer:PollingConsumer"
else:
    # Redelivery of a message whose worker died; the recovery sweep is faster.  "priority": a worker
    # always takes from the first of its queues that has work (-Q run,submit,rejudge), after the
    # message priority (0 first): all ten kept apart, since fair share uses them (broker.py).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        "queue_order_strategy": "priority",
        "priority_steps": BROKER_PRIORITY_STEPS,
    }
# Redis for push notifications and shared counters; none on the embedded default.
REDIS_URL = os.environ.get("REDIS_URL", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "") or None
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "judge",
        }
    }
# One queue per lane, highest priority first (judge/lib/broker.py); a worker started
# without -Q consumes them all in this order.  Not the speed lane: only a worker started with -Q speed takes
# a speed measurement (Celery makes the queue when it is first named), so none ever holds a grading slot.
CELERY_TASK_QUEUES = [Queue(name, routing_key=name) for name in ("maintenance", "run", "submit", "rejudge")]
CELERY_TASK_DEFAULT_QUEUE = "submit"
# Message priorities (0 is taken first; judge/submissions/fairshare.py): a submission's follows its
# student's fair share; the sweep goes first, a gate run in the middle, a rejudge last.
CELERY_TASK_ROUTES = {
    "judge.submissions.tasks.recover_stalled_submissions": {"queue": "maintenance", "priority": 0},
    "judge.authoring.tasks.recover_stalled_authoring": {"queue": "maintenance", "priority": 0},
    "judge.authoring.tasks.run_gate": {"queue": "submit", "priority": 4},
    "judge.authoring.tasks.rejudge_batch": {"queue": "rejudge", "priority": 9},
    # An accepted Submit's speed: on a worker of its own, never in a grading slot (services.grading.enqueue_speed).
    "judge.submissions.tasks.measure_speed": {"queue": "speed"},
    # Grades to an LMS: short HTTP calls, on the worker that needs no sandbox, never behind a grading backlog.
    "judge.lti.tasks.post_score": {"queue": "maintenance", "priority": 5},
    "judge.lti.tasks.resend_stalled_scores": {"queue": "maintenance", "priority": 5},
    "judge.lti.tasks.send_assignment_scores": {"queue": "maintenance", "priority": 5},
    "judge.courses.tasks.notify_moved_credit": {"queue": "maintenance", "priority": 5},
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fixup closes a worker process's database connection every this many tasks, not at every task:
# the process keeps it as Django's CONN_MAX_AGE says (judge/celery.py, ``reuse_connections``).
CELERY_DB_REUSE_MAX = 1000
# The recovery sweep is not here: the worker that runs the beat runs it itself, every RECOVERY_INTERVAL_S.
CELERY_BEAT_SCHEDULE = {
    "notify-moved-credit": {  # after a rejudge has finished, students whose released credit moved are told
        "task": "judge.courses.tasks.notify_moved_credit",
        "schedule": 60.0,
    },
    "resend-stalled-lti-scores": {  # scores whose task the broker lost, and scores released by the time
        "task": "judge.lti.tasks.resend_stalled_scores",
        "schedule": 60.0,
    },
    "recover-stalled-authoring": {  # gate runs whose worker died fail; stalled rejudges are sent again
        "task": "judge.authoring.tasks.recover_stalled_authoring",
        "schedule": 60.0,
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

if TESTING:  # a fast hash first; tests of the real one take it out (tests/test_password_hashing.py)
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *PASSWORD_HASHERS]
    EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    if "REDIS_URL" not in os.environ:  # a benchmark's stack names its Redis; tests share theirs, so:
        # counters in this process, cleared between tests (tests/conftest.py).
        CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
