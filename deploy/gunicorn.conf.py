"""gunicorn settings, all from the environment (PaaS conventions).

PORT and WEB_CONCURRENCY are what Heroku-style platforms set. Without
REDIS_URL the store is in-process, so a single worker is forced: several
workers would each hold different combats.
"""

import os
import sys

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

if not os.environ.get("REDIS_URL") and workers != 1:
    print(f"REDIS_URL is not set: embedded store, 1 worker (WEB_CONCURRENCY={workers} ignored)", file=sys.stderr)
    workers = 1
