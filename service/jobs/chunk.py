"""The chunks of a simulation job, wherever they are played.

The job's request is JSON-safe (``request``); chunk *i* plays the fights of
``chunks(fights)[i]``, writes its progress and its counts into the job's
hash, and the chunk that completes the set merges every chunk's counts into
the result. A chunk played twice (retried after its worker died) writes the
same counts again: the result does not change.

Both ways play a chunk with ``runner.play_range`` (the one function that
plays fights, an inline run's too) and record it with ``_record``; they
differ only in where the fights are played: ``run_chunk`` plays one chunk
in this process (a queue worker's work horse), ``run_chunks`` every chunk
of a job in child processes (service/simulation/pool.py: the job's runner
without a queue).
"""

from __future__ import annotations

from ..simulation.pool import play_chunks
from ..simulation.runner import Summary, chunks, play_range, report
from ..simulation.tactics import Tactic
from ..store.jobs import SimulationJobs


def _over(jobs: SimulationJobs, job_id: str) -> bool:
    job = jobs.get(job_id)
    return job is None or job["status"] in ("failed", "done")  # expired, or another chunk failed for good


def _record(jobs: SimulationJobs, job_id: str, asked: dict, index: int, counts: dict) -> None:
    """Store chunk ``index``'s counts; the chunk that completes the set writes the merged result."""
    start, stop = chunks(asked["fights"])[index]
    parts = jobs.chunk_played(job_id, index, stop - start, counts)
    if parts is not None:
        template, seed, tactic = asked["template"], asked["seed"], Tactic(**asked["tactic"])
        jobs.finish(job_id, report(template, seed, tactic, Summary.merged(template, parts)))


def run_chunk(jobs: SimulationJobs, job_id: str, index: int, asked: dict) -> None:
    if _over(jobs, job_id):
        return
    start, stop = chunks(asked["fights"])[index]
    template, seed, tactic = asked["template"], asked["seed"], Tactic(**asked["tactic"])
    jobs.progress(job_id, index, 0)
    summary = play_range(template, seed, tactic, start, stop, progress=lambda done: jobs.progress(job_id, index, done))
    _record(jobs, job_id, asked, index, summary.to_counts())


def run_chunks(jobs: SimulationJobs, job_id: str, asked: dict, processes: int) -> None:
    """Every chunk of the job, played by up to ``processes`` child processes, recorded as ``run_chunk`` records one."""
    if _over(jobs, job_id):
        return
    play_chunks(
        asked["template"],
        asked["seed"],
        Tactic(**asked["tactic"]),
        asked["fights"],
        processes,
        progress=lambda index, done: jobs.progress(job_id, index, done),
        played=lambda index, counts: _record(jobs, job_id, asked, index, counts),
    )
