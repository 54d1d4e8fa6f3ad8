"""A run's chunks played by child processes: every core for a job without a queue.

The run is cut as a job is (``runner.chunks``); each child process plays
whole chunks with ``play_range``, exactly as a queue worker does, and hands
back the chunk's counts (``Summary.to_counts``) as JSON, as a worker writes
them into the job's hash. The caller records them as a worker does
(service/jobs/chunk.py ``run_chunks``), or merges them with
``Summary.merged`` (the benches): fight *i* has the same seed in any chunk
and any process, and every rate is computed once from the summed integers,
so the answer is the single-process one, byte for byte, whatever the number
of processes (``tests/unit/simulation/test_pool.py``).

The children are fresh interpreters (``python -m service.simulation.pool``)
started with ``subprocess``, talking JSON lines over their stdin and stdout,
rather than a ``multiprocessing`` pool, because the web process runs under
gunicorn's gevent workers (docs/simulations.md, "Both cores"): forking a
gevent worker copies its event loop, its sockets and any lock another
greenlet or thread holds; and a ``multiprocessing`` or ``concurrent.futures``
pool waits on its children with helper threads and pipes that gevent's
monkey-patching turns into greenlets, which a computation in the same
process starves. ``subprocess`` is patched to be cooperative and starts its
child with fork-and-exec in one step (nothing of the parent survives in the
child), so the same code is safe in a gevent worker, a threaded server, a
queue worker and the command line. The price: each child imports the
service once (about 0.3 s of CPU), paid in parallel.

Protocol of a child: one request per line on stdin,
``{"template", "seed", "tactic": {"target", "style"}, "start", "stop", "every"}``;
it answers ``{"done": n}`` every ``every`` fights, then ``{"counts": ...}``;
an error ends it, its stderr says why. End of stdin: it exits.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from .runner import chunks, play_range
from .tactics import Tactic

# The folder the ``service`` package is imported from: the children's working
# directory, so ``python -m service.simulation.pool`` finds the same code.
_ROOT = Path(__file__).resolve().parents[2]

ChunkProgress = Callable[[int, int], None]  # (chunk index, fights played in it so far)
ChunkCounts = Callable[[int, dict], None]  # (chunk index, its counts), once per chunk


class ChildFailed(RuntimeError):
    """A child process stopped before answering a chunk."""


def default_processes() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; else ``os.cpu_count``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """True where a child may be forked without exec: no gevent, no other thread.

    A command-line run (the benches, a script)
    forks its children, saving each the import of the service (about 0.25 s
    of CPU); a web process, under gevent or with threads, execs them.
    """
    monkey = sys.modules.get("gevent.monkey")
    patched = monkey is not None and monkey.is_module_patched("os")
    return hasattr(os, "fork") and not patched and threading.active_count() == 1


class _Forked:
    """A child forked from this single-threaded process, serving chunks on pipes (the ``Popen`` parts used here)."""

    def __init__(self, others: list[_Forked]) -> None:
        asked_read, asked_write = os.pipe()  # parent -> child: chunk requests
        answers_read, answers_write = os.pipe()  # child -> parent: progress and counts
        errors_read, errors_write = os.pipe()  # child -> parent: why it failed
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            code = 0
            try:
                # Only its own ends: a sibling's stdin held open here would never see its end.
                siblings = [stream.fileno() for other in others for stream in (other.stdin, other.stdout, other.stderr)]
                for fd in (asked_write, answers_read, errors_read, *siblings):
                    os.close(fd)
                with open(asked_read) as asked, open(answers_write, "w") as out:
                    _serve(asked, out)
            except BaseException:
                code = 1
                with open(errors_write, "w") as err:
                    err.write(traceback.format_exc())
            finally:
                os._exit(code)
        for fd in (asked_read, answers_write, errors_write):
            os.close(fd)
        self.stdin: TextIO = open(asked_write, "w")
        self.stdout: TextIO = open(answers_read)
        self.stderr: TextIO = open(errors_read)

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def wait(self) -> int:
        return os.waitpid(self.pid, 0)[1]


def _executed() -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "service.simulation.pool"],
        cwd=_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def play_chunks(
    template: Mapping,
    seed: int,
    tactic: Tactic,
    fights: int,
    processes: int,
    *,
    progress: ChunkProgress | None = None,
    played: ChunkCounts | None = None,
    every: int = 500,
    size: int | None = None,
    fork: bool | None = None,
) -> list[dict]:
    """Every chunk's counts, in chunk order, played by up to ``processes`` children.

    ``progress`` and ``played`` are called from the caller's process, one
    call at a time (a lock), as the children report. ``fork``: fork the
    children rather than exec them (default: where :func:`can_fork`).
    """
    ranges = chunks(fights, size)
    pending = deque(enumerate(ranges))
    results: list[dict | None] = [None] * len(ranges)
    errors: list[BaseException] = []
    lock = threading.Lock()
    tactic_json = {"target": tactic.target, "style": tactic.style}
    count = max(1, min(processes, len(ranges)))
    # Every child is started before the first thread: nothing is forked from a threaded process.
    children: list = []
    for _ in range(count):
        children.append(_Forked(children) if (can_fork() if fork is None else fork) else _executed())

    def feed(child) -> None:
        assert child.stdin is not None and child.stdout is not None
        try:
            while not errors:
                with lock:
                    if not pending:
                        break
                    index, (start, stop) = pending.popleft()
                    if progress:
                        progress(index, 0)
                request = {
                    "template": template,
                    "seed": seed,
                    "tactic": tactic_json,
                    "start": start,
                    "stop": stop,
                    "every": every,
                }
                child.stdin.write(json.dumps(request) + "\n")
                child.stdin.flush()
                while True:
                    line = child.stdout.readline()
                    if not line:
                        raise ChildFailed(
                            f"a simulation process stopped in chunk {index}: "
                            f"{child.stderr.read()[-2000:] if child.stderr else ''}"
                        )
                    answer = json.loads(line)
                    if "counts" in answer:
                        with lock:
                            results[index] = answer["counts"]
                            if played:
                                played(index, answer["counts"])
                        break
                    if progress:
                        with lock:
                            progress(index, answer["done"])
        except BaseException as error:
            with lock:
                errors.append(error)
        finally:
            try:
                child.stdin.close()
            except OSError:
                pass
            if errors:
                child.kill()
            child.wait()
            for stream in (child.stdout, child.stderr):
                if stream:
                    stream.close()

    threads = [
        threading.Thread(target=feed, args=(child,), name=f"simulation-child-{n}", daemon=True)
        for n, child in enumerate(children)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [counts for counts in results if counts is not None]


def _serve(asked_lines: TextIO, out: TextIO) -> None:
    """The child: play each chunk asked, one JSON line each, and answer on ``out``."""
    for line in asked_lines:
        asked = json.loads(line)

        def tell(done: int) -> None:
            out.write(json.dumps({"done": done}) + "\n")
            out.flush()

        summary = play_range(
            asked["template"],
            asked["seed"],
            Tactic(**asked["tactic"]),
            asked["start"],
            asked["stop"],
            tell,
            asked["every"],
        )
        out.write(json.dumps({"counts": summary.to_counts()}) + "\n")
        out.flush()


if __name__ == "__main__":
    _serve(sys.stdin, sys.stdout)
