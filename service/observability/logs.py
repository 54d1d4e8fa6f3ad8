"""Structured logs: every record is one JSON object on one line (stderr).

One line per request (logger ``melee.request``) carries the request id,
method, route (the URL rule, never the raw path or query string), status,
latency and, when known, the combat id, ruleset and action type. Request
headers, bodies and query strings are never logged, so tokens and
Authorization headers cannot leak. Each line is compact JSON, written by
orjson (service/codec.py).
"""

from __future__ import annotations

import logging
import math
import os
import re
import sys
import time
from datetime import UTC, datetime
from typing import TextIO

import orjson
from flask import Flask, Response, request

from .. import codec
from ..proxied import current_g, current_request
from ..rules.registry import RULESETS

REQUEST_ID_HEADER = "X-Request-ID"
UNMATCHED = "<unmatched>"  # the route of a request no URL rule matched
# A client's request id is kept when it looks like an id; anything else
# (too long, spaces, quotes...) is replaced by a fresh one.
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")

request_log = logging.getLogger("melee.request")

# Fields of a LogRecord that are not the caller's.
_RESERVED = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
# What JSON has no type for is written as str() writes it, dates and dataclasses too.
_AS_STR = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def new_request_id() -> str:
    """What ``uuid.uuid4().hex`` gives (16 random bytes, the version 4 and
    RFC 4122 variant bits set), without building a UUID object."""
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40
    raw[8] = raw[8] & 0x3F | 0x80
    return raw.hex()


_second: tuple[float, str] = (-1.0, "")  # the last whole second formatted, and its text (one tuple: read at once)


def timestamp(created: float) -> str:
    """``datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")``
    with ``Z`` for ``+00:00``; the seconds formatted once per second.

    The microseconds are rounded half to even as ``fromtimestamp`` rounds them,
    then cut to milliseconds as ``isoformat`` cuts them."""
    fraction, whole = math.modf(created)
    micros = round(fraction * 1e6)
    if micros >= 1_000_000:
        whole, micros = whole + 1, micros - 1_000_000
    elif micros < 0:
        whole, micros = whole - 1, micros + 1_000_000
    global _second
    second = _second
    if second[0] != whole:
        second = _second = (
            whole,
            datetime.fromtimestamp(whole, UTC).isoformat(timespec="seconds").removesuffix("+00:00"),
        )
    return f"{second[1]}.{micros // 1000:03d}Z"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return codec.dumps_text(entry, default=str, option=_AS_STR)


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever sys.stderr is at the time (test runners swap it)."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


def configure(level: str) -> None:
    """JSON lines on stderr from the root logger; idempotent."""
    root = logging.getLogger()
    if not any(isinstance(h, _StderrHandler) for h in root.handlers):
        handler = _StderrHandler()
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    root.setLevel(level)


# What a request's log line may carry beyond its fixed fields: JSON scalars.
LogValue = str | int | float | bool


def annotate(**fields: object) -> None:
    """Add fields (combat_id, ruleset, action_type) to this request's log line."""
    current_g().setdefault("melee_log", {}).update(
        {k: v for k, v in fields.items() if isinstance(v, (str, int, float, bool))}
    )


def _clip(value: LogValue, limit: int = 64) -> LogValue:
    return value[:limit] if isinstance(value, str) else value


def init_app(app: Flask) -> None:
    @app.before_request
    def start_request() -> None:
        context = current_g()  # once, not through the proxy each time (proxied.py)
        context.melee_started = time.perf_counter()
        incoming = current_request().headers.get(REQUEST_ID_HEADER, "")
        context.melee_request_id = incoming if _SAFE_REQUEST_ID.match(incoming) else new_request_id()

    @app.after_request
    def log_request(response: Response) -> Response:
        req = current_request()  # once, not through the proxy each time (proxied.py)
        context = current_g()
        rid = context.get("melee_request_id") or new_request_id()
        response.headers[REQUEST_ID_HEADER] = rid
        started = context.get("melee_started")
        latency_ms = round((time.perf_counter() - started) * 1000, 2) if started is not None else None
        method, rule = req.method, req.url_rule
        fields: dict[str, LogValue | None] = {
            "request_id": rid,
            "method": method,
            "route": rule.rule if rule is not None else UNMATCHED,
            "status": response.status_code,
            "latency_ms": latency_ms,
            "client": req.remote_addr,
            "pid": os.getpid(),
        }
        view_args = req.view_args or {}
        if "combat_id" in view_args:
            fields["combat_id"] = _clip(view_args["combat_id"])
        fields.update({k: _clip(v) for k, v in context.get("melee_log", {}).items()})
        ruleset = fields.get("ruleset")
        if "action_type" not in fields and isinstance(ruleset, str) and method == "POST":
            kind = _refused_action_type(ruleset)
            if kind is not None:
                fields["action_type"] = kind
        if request_log.isEnabledFor(logging.INFO):
            # What request_log.info(...) does, without its search of the stack
            # for the caller (findCaller): the caller is this function.
            request_log.handle(
                request_log.makeRecord(
                    request_log.name,
                    logging.INFO,
                    __file__,
                    sys._getframe().f_lineno,
                    "%s %s %s",
                    (method, fields["route"], response.status_code),
                    None,
                    "log_request",
                    fields,
                )
            )
        context.melee_latency = latency_ms
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
    return rule.rule if rule is not None else UNMATCHED
