"""Redis commands written in RESP here rather than by redis-py's command methods.

The one place Melee writes the protocol itself, for two callers: the stream
reader (stream.py), its one ``XREAD`` over every followed stream and its
pipelined ``HGET`` + ``HKEYS`` per combat; and the load of every action
(access.py), the combat's state and the caller's grant, two ``HGET`` in one
write instead of redis-py's pipeline object, its command stack and its
callbacks: 3.153 -> 3.072 million instructions per action, 2.6 %
(``bench.instructions 600`` under cachegrind). With hiredis installed (a
runtime dependency), redis-py already packs each command in C (``hiredis.pack_command``) and parses the
replies in C. What it still does in Python, and what is saved here, is the
work around them: the argument list of ``client.xread`` rebuilt and every
stream key and position encoded again on each read, and the XREAD reply
turned into dicts by its response callback. Here each stream's key and
position are encoded once, while its combat is followed and until it moves
(stream.py keeps them), and the raw reply is read as hiredis parsed it.
cachegrind, one read of 200 streams with one entry each:
about 4.7 million instructions through ``client.xread``, 2.2 million here.

It relies on three public methods of redis-py: ``ConnectionPool.get_connection()``,
``Connection.send_packed_command()`` and ``Connection.read_response()``.
tests/integration/test_packed_commands.py fails if they change, and checks that the
bytes written here are the bytes redis-py's own ``pack_command`` writes.
"""

from __future__ import annotations

from typing import Any

from .cluster import RedisClient


def bulk(value: bytes) -> bytes:
    """``value`` as one argument of a Redis command (a RESP bulk string)."""
    return b"$%d\r\n%s\r\n" % (len(value), value)


def xread(count: int, block_ms: int, keys: list[bytes], positions: list[bytes]) -> bytes:
    """``XREAD COUNT <count> BLOCK <block_ms> STREAMS <keys...> <positions...>``, the keys and
    positions already packed by ``bulk``."""
    head = b"*%d\r\n" % (6 + len(keys) + len(positions))
    return b"".join(
        [head, b"$5\r\nXREAD\r\n$5\r\nCOUNT\r\n", bulk(b"%d" % count), b"$5\r\nBLOCK\r\n", bulk(b"%d" % block_ms)]
        + [b"$7\r\nSTREAMS\r\n", *keys, *positions]
    )


def hget(hash_key: bytes, field: bytes) -> bytes:
    """``HGET <hash_key> <field>``."""
    return b"*3\r\n$4\r\nHGET\r\n%s%s" % (bulk(hash_key), bulk(field))


def hget_hkeys(hash_key: bytes, field: bytes, keys_of: bytes) -> bytes:
    """``HGET <hash_key> <field>`` then ``HKEYS <keys_of>``: two commands, two replies."""
    return hget(hash_key, field) + b"*2\r\n$5\r\nHKEYS\r\n%s" % bulk(keys_of)


def send(client: RedisClient, command: bytes, replies: int) -> list[Any]:
    """Send commands packed by the caller, in one write; their ``replies`` raw answers (no response callbacks)."""
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command([command])
        return [connection.read_response() for _ in range(replies)]
    except BaseException:
        connection.disconnect()  # answers may still come: never reuse it
        raise
    finally:
        pool.release(connection)
