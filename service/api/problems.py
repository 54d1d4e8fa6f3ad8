"""RFC 9457 problem details: every error the API returns looks like this.

``type`` is a stable URI per kind of problem, ``/problems/<kind>``, which
the service itself serves as documentation (RFC 9457 allows relative URIs);
``title`` a fixed summary, ``detail`` the sentence for this occurrence and,
for invalid input, ``errors``: one ``{"pointer", "detail"}`` per bad field
(JSON Pointers into the request body, as in RFC 9457's own example).

``title`` and the details are said in the reader's language (service/api/reader.py:
Accept-Language, else the combat's language, else English), named by the
answer's Content-Language; ``type``, ``status``, the pointers and every id stay as
they are in every language.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Response, json

from .reader import Reader, reader

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "/problems/"

PROBLEM_TYPES = {
    "invalid-request": "The body or a parameter is not what the endpoint takes; `errors` points at each bad field.",
    "invalid-action": "The action is malformed for this combat: unknown combatant, weapon, or inconsistent fields.",
    "action-not-allowed": "The rules forbid this action now (the actor is down, the target is not dying, ...).",
    "not-your-turn": "Another combatant is expected to act; the combat's `awaiting` says who.",
    "not-your-decision": (
        "The request sets a field its token may not decide: one the game master decides (a difficulty, a "
        "situational modifier) or another combatant's answer (an inline defense); `errors` points at it."
    ),
    "combat-over": "The fight has ended; it stays readable until it expires.",
    "dice-error": "A dice expression or a supplied die is unusable.",
    "dice-syntax": "A dice expression is not of the form NdM+K.",
    "too-many-dice": "More dice than the hard limit per expression or per action.",
    "die-out-of-range": "A supplied die's value does not fit the die the rules roll.",
    "unused-dice": (
        "More dice were supplied than the rules took (under the dice policy `own`, the other "
        "combatants' rolls take none of a player's dice: the detail names them); nothing was applied."
    ),
    "dice-not-yours": (
        "The combat's dice policy does not let this token supply these dice (`server`: nobody's); nothing was applied."
    ),
    "unauthorized": (
        "This combat needs 'Authorization: Bearer <token>' with a token it issued (or an API key to create one)."
    ),
    "forbidden": (
        "The token is valid but does not allow this: a player acts only for its own combatant; some things need the GM."
    ),
    "not-found": "No such resource: the combat never existed, was deleted, or expired.",
    "version-conflict": "Another action changed the combat first; reload it and decide again.",
    "idempotency-key-reused": "This Idempotency-Key was used for another request; each new request needs a new key.",
    "request-in-flight": "A request with this Idempotency-Key is still being processed; retry after Retry-After.",
    "invalid-snapshot": (
        "The snapshot does not open on this server: changed or cut, sealed by a key it does not hold "
        "(SECRET_KEY, SECRET_KEY_FALLBACKS), of a format or ruleset it lacks, older than MAX_SNAPSHOT_AGE_DAYS, "
        "or holding more actions than MAX_ACTIONS_PER_COMBAT; nothing was created."
    ),
    "combat-live": (
        "A combat with the snapshot's id is live; delete it (or let it expire) before restoring the snapshot."
    ),
    "replay-unavailable": (
        "The first answer to this Idempotency-Key can no longer be shown; make a new request with a new key."
    ),
    "action-limit-reached": (
        "The combat has taken as many actions as one combat may (MAX_ACTIONS_PER_COMBAT); nothing was applied."
    ),
    "precondition-failed": "If-Match names an older version of the combat.",
    "rate-limited": "Too many requests from this client; wait Retry-After seconds.",
    "compute-budget-exhausted": (
        "This client has spent its compute units (odds runs, simulated "
        "fights) for now; wait Retry-After seconds or ask for less."
    ),
    "compute-busy": "This server computes as many odds and simulations at once as it may; retry after Retry-After.",
    "simulation-busy": "This process already runs a simulation job; retry after Retry-After seconds.",
    "simulation-queue-full": (
        "The simulation queue holds as many chunks as it may (SIMULATION_QUEUE_MAX_CHUNKS, every "
        "client together); `queued` and `limit` say how many; retry after Retry-After seconds."
    ),
    "store-unavailable": "The combat store does not answer; retry after Retry-After seconds.",
    "outcome-unknown": (
        "The combat store did not confirm a change, which may or "
        "may not be applied; retry with the same Idempotency-Key."
    ),
    "too-many-streams": (
        "This server holds as many event streams and long polls as "
        "it may; retry after Retry-After, or poll without waiting."
    ),
    "too-many-streams-per-client": (
        "This token or this address already holds as many event streams and long "
        "polls on this server as it may; close one, or poll without waiting."
    ),
    "payload-too-large": "The request body is larger than the service accepts; `max_bytes` says how large it may be.",
    "unsupported-media-type": "A request body must be JSON sent as 'Content-Type: application/json'.",
    "invalid-json": (
        "The body is not JSON the service can handle: malformed, nested too "
        "deeply, a lone surrogate in a string, or a number out of range."
    ),
    "method-not-allowed": "The resource does not take this HTTP method.",
    "internal-error": "A bug: the service failed. Nothing was changed. Please report it with the request id.",
    "malformed-request": "The request line or a header is not valid HTTP/1.1 (answered by the HTTP server itself).",
    "uri-too-long": "The request line is longer than the server reads (4094 bytes).",
    "headers-too-large": "Too many headers (more than 100), or one longer than 8190 bytes.",
    "http-error": "An HTTP-level error.",
}


def problem(
    status: int, kind: str, title: str, detail: str, *, headers=None, said_to: Reader | None = None, **extensions
) -> Response:
    """The problem+json answer; ``title``, ``detail`` and ``errors[].detail`` said to ``said_to``
    (default: the request's reader, ``reader.reader()``), whose language Content-Language names."""
    said_to = said_to or reader()
    if isinstance(errors := extensions.get("errors"), list):
        extensions["errors"] = [{**error, "detail": said_to.say(error.get("detail"))} for error in errors]
    body = {
        "type": TYPE_BASE + kind,
        "title": said_to.say(title),
        "status": status,
        "detail": said_to.say(detail),
        **extensions,
    }
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    response.headers["Content-Language"] = said_to.content_language
    response.vary.add("Accept-Language")  # the same problem reads otherwise for another reader
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _escape(token) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def flatten_messages(messages, prefix: str = "") -> list[dict]:
    """marshmallow's nested error dict -> a flat list of pointer/detail pairs."""
    errors: list[dict] = []
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            pointer = prefix if key == "_schema" else f"{prefix}/{_escape(key)}"
            errors.extend(flatten_messages(value, pointer))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        errors.extend({"pointer": prefix or "/", "detail": m} for m in messages)
    elif isinstance(messages, list):
        for item in messages:
            errors.extend(flatten_messages(item, prefix))
    else:
        errors.append({"pointer": prefix or "/", "detail": str(messages)})
    return errors


def field_pointer(field: str | None) -> str:
    if not field:
        return "/"
    return "/" + "/".join(_escape(part) for part in field.split("."))
