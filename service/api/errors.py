"""Every exception the API can meet, turned into a problem+json response."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..rules.errors import InvalidInput, RulesError, refusal
from ..usecases.actions import NothingToTakeBack
from ..usecases.conflicts import ConflictPersisted, Stale
from ..usecases.port_errors import ActionLimitReached, CombatNotFound, OutcomeUnknown, StoreUnavailable, VersionConflict
from ..usecases.snapshots import CombatLive, InvalidSnapshot
from . import limits
from .access import AccessDenied
from .problems import field_pointer, flatten_messages, problem
from .reader import reader

log = logging.getLogger(__name__)

_HTTP_KINDS = {
    429: "rate-limited",
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
    422: "invalid-request",
    400: "invalid-request",
}


def http_problem(error: HTTPException) -> Response:
    """flask-smorest and werkzeug errors (including webargs' 422)."""
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    extensions: dict[str, Any] = {}
    detail = data.get("message") or error.description or error.name
    if messages:
        # webargs nests messages under the location ("json", "query"...).
        if isinstance(messages, dict) and len(messages) == 1 and next(iter(messages)) in ("json", "query", "headers"):
            messages = next(iter(messages.values()))
        errors = extensions["errors"] = flatten_messages(messages)
        if errors:
            detail = "; ".join(f"{e['pointer']}: {e['detail']}" for e in errors[:5])
    headers = dict(data.get("headers") or {})
    if error.code == 413:
        limit = request.max_content_length or current_app.config["MAX_CONTENT_LENGTH"]
        detail = f"the request body is larger than {limit} bytes, the most this service accepts"
        extensions["max_bytes"] = limit
    if isinstance(error, MethodNotAllowed) and error.valid_methods:  # 405: which methods the resource has
        headers["Allow"] = ", ".join(error.valid_methods)
    if error.code == 429 and (wait := limits.retry_after(error)):
        headers["Retry-After"] = wait
    status = error.code or 500
    return problem(
        status,
        _HTTP_KINDS.get(status, "http-error"),
        error.name,
        detail,
        headers=headers,
        **extensions,
    )


def register(app: Flask, retry_after_seconds: int) -> None:
    # The rules core's InvalidInput (a ruleset's schema refused the body: marshmallow's messages)
    # and the HTTP layer's own schemas' ValidationError: the same nested messages, the same 422 problem.
    @app.errorhandler(InvalidInput)
    @app.errorhandler(ValidationError)
    def invalid_input(error: ValidationError | InvalidInput) -> Response:
        said_to = reader(getattr(error, "lang", None), getattr(error, "ruleset", None))
        errors = [{**e, "detail": said_to.say(e["detail"])} for e in flatten_messages(error.messages)]
        detail = "; ".join(f"{e['pointer']}: {e['detail']}" for e in errors[:5])
        return problem(422, "invalid-request", refusal("Invalid request"), detail, errors=errors, said_to=said_to)

    @app.errorhandler(RulesError)
    def refused_by_rules(error: RulesError) -> Response:
        extensions: dict[str, Any] = {}
        if error.field:
            extensions["errors"] = [{"pointer": field_pointer(error.field), "detail": error.detail}]
        # 403: the rules would allow it, but not from this token (a GM field, another's answer or dice).
        title = refusal("Not yours to decide") if error.status == 403 else refusal("The rules refuse this action")
        said_to = reader(error.lang, error.ruleset, error.names)
        return problem(error.status, error.code, title, error.detail, said_to=said_to, **extensions)

    @app.errorhandler(CombatNotFound)
    def combat_not_found(error: CombatNotFound) -> Response:
        return problem(
            404, "not-found", "Combat not found", f"no combat {error}: it never existed, was deleted, or expired"
        )

    @app.errorhandler(AccessDenied)
    def access_denied(error: AccessDenied) -> Response:
        if error.status == 401:
            return problem(
                401, "unauthorized", "Unauthorized", error.detail, headers={"WWW-Authenticate": 'Bearer realm="melee"'}
            )
        extensions: dict[str, Any] = (
            {"errors": [{"pointer": field_pointer(error.field), "detail": error.detail}]} if error.field else {}
        )
        return problem(403, "forbidden", "Forbidden", error.detail, **extensions)

    @app.errorhandler(VersionConflict)
    def version_conflict(error: VersionConflict) -> Response:
        return problem(
            409, "version-conflict", "Version conflict", "the combat changed meanwhile; reload it and try again"
        )

    @app.errorhandler(Stale)
    def stale(error: Stale) -> Response:
        return problem(
            412,
            "precondition-failed",
            "Precondition failed",
            f"If-Match names another version; the combat is at version {error.current}",
            current_version=error.current,
            headers={"ETag": f'"{error.current}"'},
        )

    @app.errorhandler(ConflictPersisted)
    def conflict_persisted(error: ConflictPersisted) -> Response:
        return problem(
            409,
            "version-conflict",
            "Version conflict",
            "other actions kept changing this combat for a while; reload it and try again "
            "(the same Idempotency-Key makes the retry safe)",
            headers={"Retry-After": "1"},
        )

    @app.errorhandler(InvalidSnapshot)
    def invalid_snapshot(error: InvalidSnapshot) -> Response:
        detail = f"the snapshot {error.why}; nothing was created"
        return problem(
            422, "invalid-snapshot", "Invalid snapshot", detail, errors=[{"pointer": "/snapshot", "detail": detail}]
        )

    @app.errorhandler(CombatLive)
    def combat_live(error: CombatLive) -> Response:
        return problem(
            409,
            "combat-live",
            "Combat live",
            f"combat {error.combat_id} is live: delete it, or let it expire, before restoring its snapshot",
        )

    @app.errorhandler(NothingToTakeBack)
    def nothing_to_take_back(error: NothingToTakeBack) -> Response:
        return problem(409, "action-not-allowed", error.title, error.detail)

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(error: StoreUnavailable) -> Response:
        log.error("combat store unavailable: %s", error)
        return problem(
            503,
            "store-unavailable",
            "Combat store unavailable",
            "the combat store does not answer; nothing was changed, retry later",
            headers={"Retry-After": str(retry_after_seconds)},
        )

    @app.errorhandler(OutcomeUnknown)
    def outcome_unknown(error: OutcomeUnknown) -> Response:
        log.error("combat store did not confirm a write: %s", error)
        return problem(
            503,
            "outcome-unknown",
            "Outcome unknown",
            "the combat store did not confirm the change: it may or may not have been applied; "
            "retry with the same Idempotency-Key (without one, read the combat first)",
            headers={"Retry-After": str(retry_after_seconds)},
        )

    @app.errorhandler(ActionLimitReached)
    def action_limit_reached(error: ActionLimitReached) -> Response:
        return problem(
            409,
            "action-limit-reached",
            "Action limit reached",
            f"this combat has taken its {error.limit} actions, the most one combat may take here; "
            "nothing was applied: start a new combat to go on",
            limit=error.limit,
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return http_problem(error)
        log.exception("unhandled error")
        return problem(500, "internal-error", "Internal error", "the service failed; nothing was changed")
