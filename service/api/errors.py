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
# werkzeug's names and descriptions of the statuses it answers itself (an unknown URL, a method the
# resource lacks...), as refusals: said in the reader's language like the service's own.
_HTTP_TITLES = {
    400: refusal("Bad Request"),
    404: refusal("Not Found"),
    405: refusal("Method Not Allowed"),
    413: refusal("Request Entity Too Large"),
    415: refusal("Unsupported Media Type"),
    422: refusal("Unprocessable Entity"),
    429: refusal("Too Many Requests"),
}
_HTTP_DETAILS: dict[str, str] = {
    text: text
    for text in (
        refusal("The browser (or proxy) sent a request that this server could not understand."),
        refusal(
            "The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again."
        ),
        refusal("The method is not allowed for the requested URL."),
        refusal("The server does not support the media type transmitted in the request."),
        refusal("This user has exceeded an allotted request count. Try again later."),
    )
}


def http_problem(error: HTTPException) -> Response:
    """flask-smorest and werkzeug errors (including webargs' 422)."""
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    extensions: dict[str, Any] = {}
    detail = data.get("message") or error.description or error.name
    detail = _HTTP_DETAILS.get(detail, detail)
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
        detail = refusal("the request body is larger than {limit} bytes, the most this service accepts", limit=limit)
        extensions["max_bytes"] = limit
    if isinstance(error, MethodNotAllowed) and error.valid_methods:  # 405: which methods the resource has
        headers["Allow"] = ", ".join(error.valid_methods)
    if error.code == 429 and (wait := limits.retry_after(error)):
        headers["Retry-After"] = wait
    status = error.code or 500
    return problem(
        status,
        _HTTP_KINDS.get(status, "http-error"),
        _HTTP_TITLES.get(status) or str(error.name),
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
            404,
            "not-found",
            refusal("Combat not found"),
            refusal("no combat {combat_id}: it never existed, was deleted, or expired", combat_id=str(error)),
        )

    @app.errorhandler(AccessDenied)
    def access_denied(error: AccessDenied) -> Response:
        if error.status == 401:
            return problem(
                401,
                "unauthorized",
                refusal("Unauthorized"),
                error.detail,
                headers={"WWW-Authenticate": 'Bearer realm="melee"'},
                said_to=reader(error.lang),
            )
        extensions: dict[str, Any] = (
            {"errors": [{"pointer": field_pointer(error.field), "detail": error.detail}]} if error.field else {}
        )
        return problem(403, "forbidden", refusal("Forbidden"), error.detail, said_to=reader(error.lang), **extensions)

    @app.errorhandler(VersionConflict)
    def version_conflict(error: VersionConflict) -> Response:
        return problem(
            409,
            "version-conflict",
            refusal("Version conflict"),
            refusal("the combat changed meanwhile; reload it and try again"),
        )

    @app.errorhandler(Stale)
    def stale(error: Stale) -> Response:
        return problem(
            412,
            "precondition-failed",
            refusal("Precondition failed"),
            refusal("If-Match names another version; the combat is at version {version}", version=error.current),
            current_version=error.current,
            headers={"ETag": f'"{error.current}"'},
        )

    @app.errorhandler(ConflictPersisted)
    def conflict_persisted(error: ConflictPersisted) -> Response:
        return problem(
            409,
            "version-conflict",
            refusal("Version conflict"),
            refusal(
                "other actions kept changing this combat for a while; reload it and try again "
                "(the same Idempotency-Key makes the retry safe)"
            ),
            headers={"Retry-After": "1"},
        )

    @app.errorhandler(InvalidSnapshot)
    def invalid_snapshot(error: InvalidSnapshot) -> Response:
        detail = refusal("the snapshot {why}; nothing was created", why=error.why)
        return problem(
            422,
            "invalid-snapshot",
            refusal("Invalid snapshot"),
            detail,
            errors=[{"pointer": "/snapshot", "detail": detail}],
        )

    @app.errorhandler(CombatLive)
    def combat_live(error: CombatLive) -> Response:
        return problem(
            409,
            "combat-live",
            refusal("Combat live"),
            refusal(
                "combat {combat_id} is live: delete it, or let it expire, before restoring its snapshot",
                combat_id=error.combat_id,
            ),
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
            refusal("Combat store unavailable"),
            refusal("the combat store does not answer; nothing was changed, retry later"),
            headers={"Retry-After": str(retry_after_seconds)},
        )

    @app.errorhandler(OutcomeUnknown)
    def outcome_unknown(error: OutcomeUnknown) -> Response:
        log.error("combat store did not confirm a write: %s", error)
        return problem(
            503,
            "outcome-unknown",
            refusal("Outcome unknown"),
            refusal(
                "the combat store did not confirm the change: it may or may not have been applied; "
                "retry with the same Idempotency-Key (without one, read the combat first)"
            ),
            headers={"Retry-After": str(retry_after_seconds)},
        )

    @app.errorhandler(ActionLimitReached)
    def action_limit_reached(error: ActionLimitReached) -> Response:
        return problem(
            409,
            "action-limit-reached",
            refusal("Action limit reached"),
            refusal(
                "this combat has taken its {limit} actions, the most one combat may take here; "
                "nothing was applied: start a new combat to go on",
                limit=error.limit,
            ),
            limit=error.limit,
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return http_problem(error)
        log.exception("unhandled error")
        return problem(
            500, "internal-error", refusal("Internal error"), refusal("the service failed; nothing was changed")
        )
