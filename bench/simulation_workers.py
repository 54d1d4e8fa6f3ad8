"""A background simulation played by 1, then 2, worker processes:
.venv/bin/python -m bench.simulation_workers [--fights 100000] [--workers 1 2 1 2]

Each run posts the same job (sistema-2d6's example combat, seed 1) through the
app to a queue of its own (a job larger than the API's bound per request,
MAX_FIGHTS, is queued directly as the API would queue it), starts that many ``python -m service.jobs.worker``
processes, and times the wall clock from the POST to ``done``; the results
must be identical whatever the number of workers. Uses $REDIS_URL when it
answers, else its own redis-server; deletes its keys at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import redis

from service.app import create_app
from service.jobs.queue import QueueRunner
from service.rules.registry import RULESETS
from service.settings import Settings
from service.simulation import MAX_FIGHTS, Tactic
from service.simulation.runner import job_request
from service.store.jobs import SimulationJobs

from .redis_server import redis_url

ROOT = Path(__file__).resolve().parents[1]


def run(url: str, fights: int, workers: int) -> tuple[float, dict]:
    queue = f"melee-bench-{uuid.uuid4().hex}"
    client = create_app(
        Settings(redis_url=url, simulation_queue=queue, rate_limit="", log_level="WARNING")
    ).test_client()
    env = {**os.environ, "REDIS_URL": url, "SIMULATION_QUEUE": queue, "LOG_LEVEL": "WARNING"}
    job_ids: list[str] = []
    processes = [
        subprocess.Popen([sys.executable, "-m", "service.jobs.worker"], cwd=ROOT, env=env) for _ in range(workers)
    ]
    try:
        time.sleep(2)  # the workers import and connect: not part of the job's time
        template = {k: v for k, v in RULESETS["sistema-2d6"].example()["combat"].items() if k != "dice"}
        start = time.monotonic()
        if fights <= MAX_FIGHTS:
            response = client.post(
                "/simulations", json={"template": template, "fights": fights, "seed": 1, "background": True}
            )
            assert response.status_code == 202, response.get_json()
            job_id = response.get_json()["id"]
        else:
            # Past the API's bound per request (MAX_FIGHTS, a compute budget), the job is
            # queued as POST /simulations queues it: the same chunks, the same workers.
            job_id = uuid.uuid4().hex
            jobs = SimulationJobs(redis.Redis.from_url(url))
            QueueRunner(jobs, queue).submit(job_id, job_request(template, fights, 1, Tactic()))
        job_ids.append(job_id)
        while (job := client.get(f"/simulations/{job_id}").get_json())["status"] not in ("done", "failed"):
            time.sleep(0.2)
        seconds = time.monotonic() - start
        assert job["status"] == "done", job
        return seconds, job["result"]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=60)
        connection = redis.Redis.from_url(url)
        for pattern in [f"*{queue}*"] + [f"*{job_id}*" for job_id in job_ids]:
            keys = list(connection.scan_iter(match=pattern, count=1000))
            if keys:
                connection.delete(*keys)
        connection.srem("rq:queues", f"rq:queue:{queue}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=100_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    # Speed-up: against the 1-worker run just before (runs alternate, so a
    # change in the machine's load touches both sides of a pair alike).
    print("| workers | fights | seconds | fights per second | speed-up over the 1-worker run before |")
    print("|---:|---:|---:|---:|---:|")
    results, one_worker = [], None
    with redis_url() as url:
        for count in args.workers:
            seconds, result = run(url, args.fights, count)
            one_worker = seconds if count == 1 else one_worker
            results.append(json.dumps(result))
            speed_up = f"{one_worker / seconds:.2f}x" if one_worker else "-"
            print(f"| {count} | {args.fights} | {seconds:.1f} | {args.fights / seconds:.0f} | {speed_up} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("identical results:", len(set(results)) == 1)


if __name__ == "__main__":
    main()
