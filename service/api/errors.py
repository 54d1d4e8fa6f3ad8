"""Every exception the API can meet, turned into a problem+json response."""

from __future__ import annotations

import logging

from flask import Flask
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ..rules.errors import ActionNotAllowed, RulesError
from ..store import CombatNotFound, StoreUnavailable, VersionConflict
from . import limits
from .access import AccessDenied
from .problems import field_pointer, flatten_messages, problem

log = logging.getLogger(__name__)

_HTTP_KINDS = {429: "rate-limited", 404: "not-found", 405: "method-not-allowed", 413: "payload-too-large", 422: "invalid-request", 400: "invalid-request"}


def http_problem(error: HTTPException):
    """flask-smorest and werkzeug errors (including webargs' 422)."""
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    extensions = {}
    if messages:
        # webargs nests messages under the location ("json", "query"...).
        if isinstance(messages, dict) and len(messages) == 1 and next(iter(messages)) in ("json", "query", "headers"):
            messages = next(iter(messages.values()))
        extensions["errors"] = flatten_messages(messages)
    detail = data.get("message") or error.description or error.name
    if extensions.get("errors"):
        detail = "; ".join(f"{e['pointer']}: {e['detail']}" for e in extensions["errors"][:5])
    headers = dict(data.get("headers") or {})
    if getattr(error, "valid_methods", None):  # 405: which methods the resource has
        headers["Allow"] = ", ".join(error.valid_methods)
    if error.code == 429 and (wait := limits.retry_after(error)):
        headers["Retry-After"] = wait
    return problem(
        error.code or 500,
        _HTTP_KINDS.get(error.code, "http-error"),
        error.name,
        detail,
        headers=headers,
        **extensions,
    )


def register(app: Flask, retry_after_seconds: int) -> None:
    @app.errorhandler(ValidationError)
    def invalid_input(error: ValidationError):
        errors = flatten_messages(error.messages)
        detail = "; ".join(f"{e['pointer']}: {e['detail']}" for e in errors[:5])
        return problem(422, "invalid-request", "Invalid request", detail, errors=errors)

    @app.errorhandler(RulesError)
    def refused_by_rules(error: RulesError):
        status = 409 if isinstance(error, ActionNotAllowed) else 422
        extensions = {}
        if error.field:
            extensions["errors"] = [{"pointer": field_pointer(error.field), "detail": error.detail}]
        return problem(status, error.code, "The rules refuse this action", error.detail, **extensions)

    @app.errorhandler(CombatNotFound)
    def combat_not_found(error: CombatNotFound):
        return problem(404, "not-found", "Combat not found", f"no combat {error}: it never existed, was deleted, or expired")

    @app.errorhandler(AccessDenied)
    def access_denied(error: AccessDenied):
        if error.status == 401:
            return problem(401, "unauthorized", "Unauthorized", error.detail, headers={"WWW-Authenticate": 'Bearer realm="melee"'})
        return problem(403, "forbidden", "Forbidden", error.detail)

    @app.errorhandler(VersionConflict)
    def version_conflict(error: VersionConflict):
        return problem(409, "version-conflict", "Version conflict", "the combat changed meanwhile; reload it and try again")

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(error: StoreUnavailable):
        log.error("combat store unavailable: %s", error)
        return problem(
            503,
            "store-unavailable",
            "Combat store unavailable",
            "the combat store does not answer; nothing was changed, retry later",
            headers={"Retry-After": str(retry_after_seconds)},
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return http_problem(error)
        log.exception("unhandled error")
        return problem(500, "internal-error", "Internal error", "the service failed; nothing was changed")
