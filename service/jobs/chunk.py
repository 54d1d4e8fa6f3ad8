"""One chunk of a simulation job, wherever it is played.

The job's request is JSON-safe (``request``); chunk *i* plays the fights of
``chunks(fights)[i]``, writes its progress and its counts into the job's
hash, and the chunk that completes the set merges every chunk's counts into
the result. A chunk played twice (retried after its worker died) writes the
same counts again: the result does not change.
"""

from __future__ import annotations

from ..simulation.runner import Summary, chunks, play_range, report
from ..simulation.tactics import Tactic
from ..store.jobs import SimulationJobs


def request(template: dict, fights: int, seed: int, tactic: Tactic) -> dict:
    return {"template": template, "fights": fights, "seed": seed, "tactic": {"target": tactic.target, "style": tactic.style}}


def run_chunk(jobs: SimulationJobs, job_id: str, index: int, asked: dict) -> None:
    job = jobs.get(job_id)
    if job is None or job["status"] in ("failed", "done"):
        return  # expired, or another chunk failed for good: nothing to add to
    start, stop = chunks(asked["fights"])[index]
    template, seed, tactic = asked["template"], asked["seed"], Tactic(**asked["tactic"])
    jobs.progress(job_id, index, 0)
    summary = play_range(template, seed, tactic, start, stop, progress=lambda done: jobs.progress(job_id, index, done))
    parts = jobs.chunk_played(job_id, index, stop - start, summary.to_counts())
    if parts is not None:
        jobs.finish(job_id, report(template, seed, tactic, Summary.merged(template, parts)))
