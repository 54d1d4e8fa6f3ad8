"""The HTTP side of what a viewer sees: the reader's Accept-Language, the ETag, an applied write's answer.

What a viewer may see of a combat is decided by the use cases
(service/usecases/views.py); their results carry it (``Seen.combat``,
``EventsPage.items``, ``Applied.shown``...). Here only what HTTP adds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import LanguageAccept

from ..proxied import current_request
from ..usecases.actions import Applied


def accepted_languages() -> LanguageAccept:
    """The current request's Accept-Language, for the narration (``usecases.views.narration_language``)."""
    return current_request().accept_languages


def etag(state: Mapping[str, Any]) -> str:
    return f'"{state["version"]}"'


def applied_answer(applied: Applied) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer to a committed write, as the caller may see it, narrated in its Accept-Language."""
    return applied.shown(accepted_languages()), 200, {"ETag": etag(applied.state)}
