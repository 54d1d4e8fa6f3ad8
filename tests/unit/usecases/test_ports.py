"""The adapters (the stores, the observing one around Redis, and what the HTTP
layer hands in) satisfy the ports the use cases are written against."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from service.adapters.sealing import Sealing
from service.api.budget import RequestCompute
from service.api.stream import long_poll
from service.crypto.snapshots import SnapshotSealer
from service.jobs.queue import QueueRunner
from service.jobs.threads import ThreadRunner
from service.observability.store import observed
from service.store import connect
from service.store.memory import MemoryCombats, MemoryJobs
from service.usecases import ports
from service.usecases.simulations import SimulationCompute

PORTS = [ports.Combats, ports.Grants, ports.IdempotencyRecords, ports.CombatSnapshots]


def members(protocol) -> dict:
    return {
        name: value for name, value in vars(protocol).items() if inspect.isfunction(value) and not name.startswith("_")
    }


@pytest.mark.parametrize(
    "store",
    [connect(None, 60), observed(connect(None, 60)), MemoryCombats()],
    ids=["redis", "observed redis", "memory"],
)
@pytest.mark.parametrize("port", PORTS, ids=lambda port: port.__name__)
def test_each_adapter_satisfies_each_port(store, port):
    assert isinstance(store, port)
    for name, declared in members(port).items():
        # Same parameter names, in order: the use cases call them by keyword too.
        assert (
            list(inspect.signature(getattr(store, name)).parameters) == list(inspect.signature(declared).parameters)[1:]
        )


@pytest.mark.parametrize("jobs", [connect(None, 60).simulation_jobs(), MemoryJobs()], ids=["redis", "memory"])
def test_the_simulation_jobs_satisfy_the_jobs_port(jobs):
    assert isinstance(jobs, ports.Jobs)
    for name, declared in members(ports.Jobs).items():
        assert (
            list(inspect.signature(getattr(jobs, name)).parameters) == list(inspect.signature(declared).parameters)[1:]
        )


@pytest.mark.parametrize(
    "adapter, port",
    [
        (QueueRunner(connect(None, 60).simulation_jobs(), "q"), ports.JobRunner),
        (ThreadRunner(connect(None, 60).simulation_jobs()), ports.JobRunner),
        (Sealing(connect(None, 60)), ports.Sealer),
        (RequestCompute(), ports.Compute),
        (RequestCompute(), SimulationCompute),
        (SnapshotSealer(b"secret"), ports.SnapshotSealer),
    ],
    ids=["queue runner", "thread runner", "sealer", "compute", "simulation compute", "snapshot sealer"],
)
def test_the_http_layers_adapters_satisfy_their_ports(adapter, port):
    for name, declared in members(port).items():
        assert (
            list(inspect.signature(getattr(adapter, name)).parameters)
            == list(inspect.signature(declared).parameters)[1:]
        )


def test_the_long_poll_is_an_entry_wait():
    assert list(inspect.signature(long_poll).parameters) == ["combat_id", "after", "seconds"]


def test_the_use_cases_never_import_flask_nor_the_api():
    package = Path(ports.__file__).parent
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith(("flask", "werkzeug", "..api", "service.api")), (
                    f"{module.name} imports {name}"
                )


def test_the_ports_import_nothing_from_the_store():
    # The store is an adapter of the ports: it imports their types (KeyedWrite), never the other way.
    imported = []
    for node in ast.walk(ast.parse(Path(ports.__file__).read_text())):
        if isinstance(node, ast.ImportFrom):
            imported.append(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
    assert "typing" in imported  # the scan sees the imports
    assert [name for name in imported if name.startswith(("..store", ".store", "service.store"))] == []
