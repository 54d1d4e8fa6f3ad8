"""The worker process type: ``python -m service.jobs.worker`` (Procfile ``worker:``).

It plays the chunks of simulation jobs from the ``SIMULATION_QUEUE`` queue
on ``REDIS_URL``, one at a time in a forked work horse (RQ's ``Worker``);
run as many as you have cores. SIGTERM finishes the chunk in hand (a few
seconds) and stops. A worker that dies (SIGKILL, a lost node) leaves its
chunk in RQ's started-job registry; another worker's maintenance retries it
within about ``6 × WORKER_HEARTBEAT_SECONDS`` (docs/simulations.md).
"""

from __future__ import annotations

import logging
import sys

import redis
from rq import Queue, Worker

from ..observability import logs
from ..settings import Settings, SettingsError
from ..store.cluster import is_cluster_url

log = logging.getLogger(__name__)


class SimulationWorker(Worker):
    """RQ's worker with a lease on a running chunk of three heartbeats.

    RQ's own lease is the heartbeat plus 60 s; chunks take seconds, so a
    dead worker's chunk is given back sooner. The maintenance that gives it
    back runs every three heartbeats too (RQ's default: 10 minutes).
    """

    def get_heartbeat_ttl(self, job, working_time: float = 0.0) -> int:
        remaining = job.timeout - working_time if job.timeout and job.timeout > 0 else self.job_monitoring_interval
        return int(min(remaining, self.job_monitoring_interval)) + 2 * self.job_monitoring_interval


def make_worker(settings: Settings, connection: redis.Redis) -> SimulationWorker:
    heartbeat = settings.worker_heartbeat_seconds
    return SimulationWorker(
        [Queue(settings.simulation_queue, connection=connection)],
        connection=connection,
        job_monitoring_interval=heartbeat,
        maintenance_interval=3 * heartbeat,
        # RQ waits on the queue for worker_ttl - 15 s between maintenances.
        worker_ttl=3 * heartbeat + 15,
    )


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"melee worker: {error}", file=sys.stderr)
        return 2
    logs.configure(settings.log_level)
    if not settings.redis_url or is_cluster_url(settings.redis_url):
        log.error(
            "the simulation worker needs REDIS_URL on a single Redis "
            "(not a cluster); simulations then run in the web process"
        )
        return 2
    options = {}
    if settings.redis_ssl_cert_reqs and settings.redis_url.startswith("rediss://"):
        options["ssl_cert_reqs"] = settings.redis_ssl_cert_reqs
    worker = make_worker(settings, redis.Redis.from_url(settings.redis_url, **options))
    log.info("simulation worker %s on queue %s", worker.name, settings.simulation_queue)
    worker.work(logging_level=settings.log_level)
    return 0


if __name__ == "__main__":
    sys.exit(main())
