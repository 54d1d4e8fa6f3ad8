"""Melee's refusals as exceptions: RFC 9457 problem details."""

from __future__ import annotations

from typing import Any, cast

import httpx

from .types import ProblemFieldError


class MeleeProblem(Exception):
    """An answer that is not a success, with the fields of its ``application/problem+json`` body.

    ``type`` is the problem's URI (``/problems/not-your-turn``), ``detail`` the sentence to show,
    ``errors`` one ``{pointer, detail}`` per bad field. ``body`` holds every member, extensions
    included (``current_version`` of a 412); ``retry_after`` the ``Retry-After`` header, in seconds;
    ``idempotency_key`` the key a refused ``act`` or ``create_combat`` was sent with (pass it back to
    try the same action again later).
    """

    def __init__(
        self,
        status: int,
        type: str = "about:blank",
        title: str = "",
        detail: str | None = None,
        errors: list[ProblemFieldError] | None = None,
        *,
        instance: str | None = None,
        body: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(detail or title or f"HTTP {status}")
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors or []
        self.instance = instance
        self.body = body if body is not None else {}
        self.retry_after = retry_after
        self.idempotency_key: str | None = None

    def __repr__(self) -> str:
        return f"MeleeProblem(status={self.status}, type={self.type!r}, detail={self.detail!r})"

    @classmethod
    def from_response(cls, response: httpx.Response) -> MeleeProblem:
        """The problem a response carries; a body that is not problem+json still gives its status and text."""
        retry_after = _seconds(response.headers.get("Retry-After"))
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            text = response.text.strip()[:200] or None
            return cls(response.status_code, title=response.reason_phrase, detail=text, retry_after=retry_after)
        errors = body.get("errors")
        return cls(
            int(body.get("status", response.status_code)),
            str(body.get("type", "about:blank")),
            str(body.get("title", response.reason_phrase)),
            body.get("detail") if isinstance(body.get("detail"), str) else None,
            cast(list[ProblemFieldError], errors) if isinstance(errors, list) else None,
            instance=body.get("instance") if isinstance(body.get("instance"), str) else None,
            body=body,
            retry_after=retry_after,
        )


class MeleeStreamClosed(Exception):
    """The server closed the event stream for good: ``gone`` (the combat was deleted or expired) or ``revoked``."""

    def __init__(self, event: str, reason: str) -> None:
        super().__init__(f"{event}: {reason}")
        self.event = event
        self.reason = reason


def _seconds(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: Melee sends seconds
