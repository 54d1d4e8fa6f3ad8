"""gunicorn settings, all from the environment (PaaS conventions).

PORT and WEB_CONCURRENCY are what Heroku-style platforms set. Without
REDIS_URL the store is in-process, so a single worker is forced: several
workers would each hold different combats.

The app logs one JSON line per request itself (docs/operations.md), so
gunicorn's access log is off unless GUNICORN_ACCESS_LOG names a target.
With PROMETHEUS_MULTIPROC_DIR set, the workers' metrics are kept in that
directory (emptied at start) and summed by /metrics.
"""

import os
import signal
import sys

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gevent workers: each connection is a greenlet, so the app's event streams
# and waiting long polls (GET /combats/<id>/stream, /events?wait=) hold no OS
# thread; each worker's one stream reader (service/adapters/fanout.py) fans the
# combats' new entries out to them. redis-py's sockets, its pool's locks and
# the app's threads are made cooperative by gevent's monkey-patching, which
# the worker applies before it loads the app. A worker holds at most
# GUNICORN_WORKER_CONNECTIONS connections, of which MAX_STREAMS_PER_WORKER
# (1000) may be listeners: the rest serve ordinary requests.
worker_class = "gevent"
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1200"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's own limits on what it reads before the app (its defaults, named
# here because its error answers state them: 414 and 431 problems).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
# No runtime control socket (gunicorn >= 25 writes one under $HOME, which is
# read-only in the container images; nothing here uses it).
control_socket_disable = True

PROMETHEUS_MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def _refuse_unusable_settings() -> None:
    """Stop here, with one line saying why, rather than boot workers that fail every request."""
    from service.settings import Settings, SettingsError

    try:
        Settings.from_env()
    except SettingsError as error:
        print(f"melee: cannot start: {error}", file=sys.stderr)
        sys.exit(1)


_refuse_unusable_settings()


def _answer_errors_as_problems() -> None:
    """gunicorn's own 400/414/431 answers as problem+json, like the app's."""
    from service import gunicorn_errors

    gunicorn_errors.install(
        {"limit_request_line": limit_request_line, "limit_request_fields": limit_request_fields,
         "limit_request_field_size": limit_request_field_size}
    )


_answer_errors_as_problems()

if not os.environ.get("REDIS_URL") and workers != 1:
    print(f"REDIS_URL is not set: embedded store, 1 worker (WEB_CONCURRENCY={workers} ignored)", file=sys.stderr)
    workers = 1

if workers > 1 and not PROMETHEUS_MULTIPROC_DIR:
    print(
        f"PROMETHEUS_MULTIPROC_DIR is not set: /metrics shows only the worker that answers the scrape ({workers} workers)",
        file=sys.stderr,
    )


def on_starting(server):
    """Master, before the workers: a clean metrics directory (stale files would be summed)."""
    if PROMETHEUS_MULTIPROC_DIR:
        os.makedirs(PROMETHEUS_MULTIPROC_DIR, exist_ok=True)
        for name in os.listdir(PROMETHEUS_MULTIPROC_DIR):
            if name.endswith(".db"):
                os.remove(os.path.join(PROMETHEUS_MULTIPROC_DIR, name))


def post_worker_init(worker):
    """Worker: on SIGTERM, run the app's shutdown hook (close event streams), then gunicorn's own handler."""
    stop = worker.handle_exit

    def handle_exit(sig, frame):
        import gevent

        from service.observability import shutdown

        # In a greenlet of its own: the handler runs in gevent's event loop,
        # where nothing may block, and the callbacks may log or write to sockets.
        gevent.spawn(shutdown.begin)
        stop(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)
    # The app's own objects (modules, schemas, catalogues: about 90,000) live as
    # long as the worker: frozen, the collector's full passes no longer walk
    # them, only what requests and event streams create (measured with 200
    # open streams: a full pass 80 ms before, 16 ms after; docs/performance.md).
    import gc

    gc.collect()
    gc.freeze()


def child_exit(server, worker):
    """Master: a dead worker's live gauges stop counting."""
    if PROMETHEUS_MULTIPROC_DIR:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid, PROMETHEUS_MULTIPROC_DIR)
