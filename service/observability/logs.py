"""Structured logs: every record is one JSON object on one line (stderr).

One line per request (logger ``melee.request``) carries the request id,
method, route (the URL rule, never the raw path or query string), status,
latency and, when known, the combat id, ruleset and action type. Request
headers, bodies and query strings are never logged, so tokens and
Authorization headers cannot leak.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid
from datetime import UTC, datetime, timezone

from flask import Flask, Response, g, request

from ..rules.registry import RULESETS

REQUEST_ID_HEADER = "X-Request-ID"
# A client's request id is kept when it looks like an id; anything else
# (too long, spaces, quotes...) is replaced by a fresh one.
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")

request_log = logging.getLogger("melee.request")

# Fields of a LogRecord that are not the caller's.
_RESERVED = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is at the time (test runners swap it)."""

    def __init__(self):
        super().__init__()

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def configure(level: str) -> None:
    """JSON lines on stderr from the root logger; idempotent."""
    root = logging.getLogger()
    if not any(isinstance(h, _StderrHandler) for h in root.handlers):
        handler = _StderrHandler()
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(level)


def annotate(**fields) -> None:
    """Add fields (combat_id, ruleset, action_type) to this request's log line."""
    g.setdefault("melee_log", {}).update({k: v for k, v in fields.items() if isinstance(v, (str, int, float, bool))})


def _clip(value, limit: int = 64):
    return value[:limit] if isinstance(value, str) else value


def init_app(app: Flask) -> None:
    @app.before_request
    def start_request():
        g.melee_started = time.perf_counter()
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        g.melee_request_id = incoming if _SAFE_REQUEST_ID.match(incoming) else uuid.uuid4().hex

    @app.after_request
    def log_request(response: Response) -> Response:
        rid = g.get("melee_request_id") or uuid.uuid4().hex
        response.headers[REQUEST_ID_HEADER] = rid
        started = g.get("melee_started")
        latency_ms = round((time.perf_counter() - started) * 1000, 2) if started is not None else None
        fields = {
            "request_id": rid,
            "method": request.method,
            "route": route(),
            "status": response.status_code,
            "latency_ms": latency_ms,
            "client": request.remote_addr,
            "pid": os.getpid(),
        }
        view_args = request.view_args or {}
        if "combat_id" in view_args:
            fields["combat_id"] = _clip(view_args["combat_id"])
        fields.update({k: _clip(v) for k, v in g.get("melee_log", {}).items()})
        if "action_type" not in fields and "ruleset" in fields and request.method == "POST":
            kind = _refused_action_type(fields["ruleset"])
            if kind is not None:
                fields["action_type"] = kind
        request_log.info("%s %s %s", request.method, fields["route"], response.status_code, extra=fields)
        g.melee_latency = latency_ms
        return response


def _refused_action_type(ruleset_id: str) -> str | None:
    """An action that was not applied: its type, if the ruleset knows it (never a client's free text).

    Only once the combat was loaded, so the body was already parsed (and cached).
    """
    if request.url_rule is None or not request.url_rule.rule.endswith("/actions"):
        return None
    try:
        body = request.get_json(force=True, silent=True)
    except Exception:
        return None
    kind = body.get("type") if isinstance(body, dict) else None
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is not None and isinstance(kind, str) and kind in ruleset.all_action_schemas:
        return kind
    return None


def route() -> str:
    """The URL rule that matched ("/combats/<combat_id>"), or a fixed label."""
    rule = request.url_rule
    return rule.rule if rule is not None else "<unmatched>"
