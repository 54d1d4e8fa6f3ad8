"""Simulation jobs: played in chunks, by worker processes on an RQ queue
(queue.py, worker.py) or, with the embedded store, by a thread of the web
process (service/jobs/threads.py). docs/simulations.md.
"""
