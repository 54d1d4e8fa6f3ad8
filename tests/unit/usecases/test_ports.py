"""Both store adapters satisfy the ports the use cases are written against."""

from __future__ import annotations

import inspect

import pytest

from service.store import connect
from service.store.memory import MemoryCombats
from service.usecases import ports

PORTS = [ports.Combats, ports.Grants, ports.IdempotencyRecords]


def members(protocol) -> dict:
    return {name: value for name, value in vars(protocol).items() if inspect.isfunction(value) and not name.startswith("_")}


@pytest.mark.parametrize("store", [connect(None, 60), MemoryCombats()], ids=["redis", "memory"])
@pytest.mark.parametrize("port", PORTS, ids=lambda port: port.__name__)
def test_each_adapter_satisfies_each_port(store, port):
    assert isinstance(store, port)
    for name, declared in members(port).items():
        # Same parameter names, in order: the use cases call them by keyword too.
        assert list(inspect.signature(getattr(store, name)).parameters) == list(inspect.signature(declared).parameters)[1:]
