"""Guard of service/store/packed.py: the commands it writes itself, and the redis-py calls it relies on.

If a redis-py upgrade renames or changes ``get_connection``,
``send_packed_command`` or ``read_response``, or packs commands otherwise,
these fail: the stream reader's and the action's hand-packed reads must then be revisited.
"""

import inspect
import uuid

import pytest
import redis
from redis.connection import Connection, ConnectionPool, PythonRespSerializer

from service.store import packed
from service.store.keys import access_key, state_key, stream_key


def redis_py_packs(*args) -> bytes:
    """What redis-py writes for one command: with hiredis (hiredis.pack_command) and without it."""
    with_hiredis = b"".join(Connection().pack_command(*args))
    pure_python = b"".join(
        PythonRespSerializer(6000, lambda value: value if isinstance(value, bytes) else str(value).encode()).pack(*args)
    )
    assert with_hiredis == pure_python
    return with_hiredis


def test_xread_is_packed_as_redis_py_packs_it():
    keys, positions = [b"{c1}:stream", b"{c2}:stream"], [b"5-0", b"12-0"]
    command = packed.xread(100, 2500, [packed.bulk(key) for key in keys], [packed.bulk(p) for p in positions])
    assert command == redis_py_packs("XREAD", "COUNT", "100", "BLOCK", "2500", "STREAMS", *keys, *positions)


def test_hget_then_hkeys_are_packed_as_redis_py_packs_them():
    command = packed.hget_hkeys(b"{c1}:state", b"json", b"{c1}:access")
    assert command == redis_py_packs("HGET", b"{c1}:state", "json") + redis_py_packs("HKEYS", b"{c1}:access")


def test_hget_is_packed_as_redis_py_packs_it():
    assert packed.hget(b"{c1}:access", b"-") == redis_py_packs("HGET", b"{c1}:access", "-")


def test_the_redis_py_calls_it_relies_on_are_still_there():
    # ConnectionPool.get_connection() with no argument (the command name became optional, then deprecated).
    assert all(
        p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for name, p in inspect.signature(ConnectionPool.get_connection).parameters.items()
        if name != "self"
    )
    assert callable(ConnectionPool.release)
    # send_packed_command(command) takes the list of byte strings pack_command returns.
    send = inspect.signature(Connection.send_packed_command).parameters
    assert list(send)[:2] == ["self", "command"]
    assert all(p.default is not inspect.Parameter.empty for name, p in send.items() if name not in ("self", "command"))
    # read_response() with no argument: the next reply, parsed, without a command's response callback.
    read = inspect.signature(Connection.read_response).parameters
    assert all(p.default is not inspect.Parameter.empty for name, p in read.items() if name != "self")
    assert callable(Connection.disconnect)


def test_raw_replies_are_what_the_stream_reader_takes_apart(store):
    """On fakeredis and on the real Redis: XREAD's reply as [[key, [[id, [field, value]]]]], no dicts."""
    if not isinstance(store.client, redis.Redis):
        pytest.skip("the packed commands are for a single Redis")
    combat_id = uuid.uuid4().hex
    key = stream_key(combat_id)
    store.client.xadd(key, {"entry": b'{"seq":1}'}, id="1-0")
    store.client.hset(state_key(combat_id), "json", b"{}")
    store.client.hset(access_key(combat_id), "d1", b"x")
    try:
        command = packed.xread(100, 10, [packed.bulk(key.encode())], [packed.bulk(b"0-0")])
        (reply,) = packed.send(store.client, command, 1)
        items = reply[key.encode()] if isinstance(reply, dict) else dict(reply)[key.encode()]
        assert [(entry_id, list(fields)) for entry_id, fields in items] == [(b"1-0", [b"entry", b'{"seq":1}'])]
        both = packed.send(
            store.client, packed.hget_hkeys(state_key(combat_id).encode(), b"json", access_key(combat_id).encode()), 2
        )
        assert both == [b"{}", [b"d1"]]
        state_and_grant = packed.hget(state_key(combat_id).encode(), b"json") + packed.hget(
            access_key(combat_id).encode(), b"d1"
        )
        assert packed.send(store.client, state_and_grant, 2) == [b"{}", b"x"]
    finally:
        store.client.delete(key, state_key(combat_id), access_key(combat_id))
