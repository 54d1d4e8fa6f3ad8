"""The floor: the least an action can cost on this stack.

A bare Flask endpoint that does a JSON read-modify-write of one Redis key
with an atomic compare-and-set, under the same gunicorn settings as Melee
(``gunicorn -c deploy/gunicorn.conf.py "bench.floor:create_app()"``). The
document is the size of a two-combatant combat state, the write one Lua
script comparing the version, as CombatStore.commit does; no rules, no
validation, no logging, no tokens.
"""

from __future__ import annotations

import json
import os

import redis
from flask import Flask, request

CAS = """
local current = redis.call('HGET', KEYS[1], 'version')
if current and current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'json', ARGV[3])
redis.call('EXPIRE', KEYS[1], 600)
return 1
"""
PADDING = "x" * 1200  # a combat state is about 1.2-2.7 KB of JSON


def create_app() -> Flask:
    app = Flask("floor")
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    cas = client.register_script(CAS)

    @app.post("/floor/<key>")
    def read_modify_write(key):
        name = f"floor:{{{key}}}"
        for _ in range(5):
            raw = client.hget(name, "json")
            document = json.loads(raw) if raw else {"version": 0, "padding": PADDING, "hits": []}
            version = document["version"]
            document["version"] = version + 1
            document["hits"] = (document["hits"] + [request.get_json(silent=True)])[-5:]
            if cas(keys=[name], args=[version, version + 1, json.dumps(document)]):
                return {"version": version + 1}
        return {"error": "conflict"}, 409

    return app
